"""Writing files so that a reader never sees half of one, and opening a file for reading
that must be a regular file, without blocking (internal).

>>> import tempfile, pathlib
>>> folder = pathlib.Path(tempfile.mkdtemp())
>>> write_atomically(folder / "a.bin", b"whole")
>>> (folder / "a.bin").read_bytes()
b'whole'
"""

from __future__ import annotations

import os
import stat
import tempfile
from pathlib import Path
from typing import BinaryIO

__all__ = ["NotARegularFileError", "open_regular", "write_atomically"]


class NotARegularFileError(OSError):
    """What :func:`open_regular` raises for a folder, a pipe or a device."""


def open_regular(path: str | os.PathLike[str]) -> BinaryIO:
    """``path`` opened for reading in binary, when it is a regular file. Anything else (a
    folder, a pipe, a device) raises :class:`NotARegularFileError` before it is read: it is
    looked at before it is opened, a pipe is opened without waiting for a writer, and what
    was opened is looked at again (it may have been replaced meanwhile), so nothing here
    blocks. A path that cannot be opened raises ``OSError``; one no file can have (a null
    byte, a lone surrogate) ``ValueError``.

    >>> import tempfile
    >>> open_regular(tempfile.gettempdir())
    Traceback (most recent call last):
    ...
    persian_rummy._files.NotARegularFileError: not a regular file (a folder, a pipe or a device)
    """
    if not stat.S_ISREG(os.stat(path).st_mode):
        raise NotARegularFileError("not a regular file (a folder, a pipe or a device)")
    handle = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0))
    file = os.fdopen(handle, "rb")
    if not stat.S_ISREG(os.fstat(file.fileno()).st_mode):
        file.close()
        raise NotARegularFileError("not a regular file (a folder, a pipe or a device)")
    return file


def write_atomically(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` through a temporary file in the same folder, flushed to disk,
    and a rename: a reader (or a run killed midway) sees the old file or the new, never a part."""
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(handle, "wb") as file:
            file.write(data)
            file.flush()
            os.fsync(file.fileno())
        os.chmod(temporary, 0o644)  # mkstemp makes it private; these files are for reading
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
