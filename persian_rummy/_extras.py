"""The optional extras (internal): a module that needs one imports the extra's packages
under :func:`needs_extra`, so that without them it raises
:class:`~persian_rummy.errors.MissingExtraError` saying which ``pip install`` brings them,
instead of a bare ``No module named 'numpy'``.

>>> with needs_extra("rl", "persian_rummy.example"):
...     import no_such_module_here
Traceback (most recent call last):
...
persian_rummy.errors.MissingExtraError: persian_rummy.example needs the [rl] extra: pip install ".[rl]" in a clone of the repository (not on PyPI yet) (no module named 'no_such_module_here')
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

from persian_rummy.errors import MissingExtraError


def install_command(extra: str) -> str:
    """The command that installs ``extra``: from a clone of the repository, in its folder,
    until the package is released on PyPI.

    >>> install_command("server")
    'pip install ".[server]" in a clone of the repository (not on PyPI yet)'
    """
    return f'pip install ".[{extra}]" in a clone of the repository (not on PyPI yet)'


@contextlib.contextmanager
def needs_extra(extra: str, module: str) -> Iterator[None]:
    """Around the imports of ``module`` from the ``extra``: an :class:`ImportError` among
    them (a package not installed) becomes a :class:`~persian_rummy.errors.MissingExtraError`
    naming the extra."""
    try:
        yield
    except ImportError as error:
        missing = error.name or "a package"
        raise MissingExtraError(
            f"{module} needs the [{extra}] extra: {install_command(extra)} (no module named {missing!r})",
            name=error.name,
        ) from error
