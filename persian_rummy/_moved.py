"""The names a module kept when they moved or were renamed (internal): each old name still
gives its new value, with a :class:`DeprecationWarning` that says what it is now, until a
later release drops it. A module declares its moved names once and hands them to its
``__getattr__`` (PEP 562).

>>> import warnings
>>> moved = moved_names("persian_rummy.example", {"Old": (int, "persian_rummy.example.New")})
>>> with warnings.catch_warnings(record=True) as caught:
...     warnings.simplefilter("always")
...     moved("Old") is int, str(caught[0].message)
(True, 'persian_rummy.example.Old is now persian_rummy.example.New; the old name will go in a later release')
>>> moved("Other")
Traceback (most recent call last):
...
AttributeError: module 'persian_rummy.example' has no attribute 'Other'
"""

from __future__ import annotations

import warnings
from collections.abc import Callable, Mapping

__all__ = ["moved_names"]


def moved_names(module: str, names: Mapping[str, tuple[object, str]]) -> Callable[[str], object]:
    """What the module ``module``'s ``__getattr__`` answers: for each old name of ``names``,
    its value, with a warning that the old name is now what its text says (the new name, and
    a few words on why); :class:`AttributeError` for any other name, as a module says it."""

    def look_up(name: str) -> object:
        if name not in names:
            raise AttributeError(f"module {module!r} has no attribute {name!r}")
        value, now = names[name]
        # the caller of the module's __getattr__, which calls this
        warnings.warn(
            f"{module}.{name} is now {now}; the old name will go in a later release", DeprecationWarning, stacklevel=3
        )
        return value

    return look_up
