"""Reading a small ``.npz`` file of learned weights without pickle (internal; needs numpy).

The learned models the library ships beside its policy (the beliefs, the critic) are read
the same way: a regular file of bounded size, an ``.npz`` archive of plain arrays (never an
object array: ``allow_pickle=False``), the arrays a version names, that version, and the
names of the features the weights read. Anything else is a
:class:`~persian_rummy.PolicyFileError` naming the file and what is wrong with it.

>>> import tempfile, pathlib
>>> path = pathlib.Path(tempfile.mkdtemp()) / "bad.npz"
>>> _ = path.write_bytes(b"not a zip")
>>> read_arrays(path, "critic", ("weights",), version=1, features=("bias",), limit=1000)
Traceback (most recent call last):
...
persian_rummy.errors.PolicyFileError: the critic file bad.npz is not an .npz archive of arrays
"""

from __future__ import annotations

import io
import os
import zipfile
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import numpy.typing as npt

from persian_rummy._files import NotARegularFileError, open_regular
from persian_rummy.errors import PolicyFileError, excerpt

__all__ = ["read_arrays"]


def read_arrays(
    path: str | os.PathLike[str],
    kind: str,
    names: Sequence[str],
    *,
    version: int,
    features: Sequence[str],
    limit: int,
) -> dict[str, npt.NDArray[np.generic]]:
    """The arrays ``names`` of the ``kind`` file at ``path`` (besides its ``version`` and
    ``features``, which must be ``version`` and ``features``), read without pickle from at
    most ``limit`` bytes; :class:`~persian_rummy.PolicyFileError` for anything else."""
    shown = Path(path).name
    try:
        with open_regular(path) as file:
            data = file.read(limit + 1)
    except NotARegularFileError:
        raise PolicyFileError(f"the {kind} file {shown} is not a regular file") from None
    except OSError as error:
        raise PolicyFileError(f"the {kind} file {shown} cannot be read: {error.strerror}") from None
    except ValueError:
        raise PolicyFileError(f"{shown} is not a path a file can have") from None
    if len(data) > limit:
        raise PolicyFileError(f"a {kind} file is at most {limit} bytes, not more")
    wanted = ("version", "features", *names)
    try:
        with np.load(io.BytesIO(data), allow_pickle=False) as archive:
            arrays = {name: archive[name] for name in wanted if name in archive.files}
    except (OSError, ValueError, zipfile.BadZipFile, EOFError):
        raise PolicyFileError(f"the {kind} file {shown} is not an .npz archive of arrays") from None
    missing = [name for name in wanted if name not in arrays]
    if missing:
        raise PolicyFileError(f"the {kind} file {shown} lacks the arrays {', '.join(missing)}")
    found = arrays.pop("version")
    if found.shape != () or found.dtype.kind != "i" or int(found) != version:
        raise PolicyFileError(f"the {kind} file {shown} is of version {excerpt(found.tolist())}, not {version}")
    read = arrays.pop("features")
    if read.dtype.kind != "U" or tuple(read.tolist()) != tuple(features):
        raise PolicyFileError(f"the {kind} file {shown} reads other features than this version's")
    return arrays
