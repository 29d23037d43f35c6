"""A small bounded cache of values worked out from an immutable object, found by the object's
identity (internal).

States share their tuples (the melds of a table, a meld) until they change, so a value
derived from such a tuple can be looked up by ``id`` instead of by hashing or comparing its
contents. Each entry keeps the object it was computed from, so an ``id`` reused after that
object is gone is never mistaken for it.

Thread safety: lookups and stores are single dictionary operations; two threads that miss at
once both compute the value and store equal values, and a clearing (when the cache is full)
only costs a recomputation. No lock is needed and no reader can see a half-built entry.
Threads that miss at once can each store a value past the limit (the next miss empties the
cache), so for a moment it may hold one value more than the limit per racing thread.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import TypeVar

K = TypeVar("K")
V = TypeVar("V")


def identity_cached(limit: int) -> Callable[[Callable[[K, int], V]], Callable[[K, int], V]]:
    """A decorator: the function ``compute(owner, variant)``, worked out once per ``owner``
    (this very object) and ``variant`` (a small number, for values that also depend on, say, a
    rules knob), for at most ``limit`` values; the cache is emptied whole when full. The
    function returned is a plain function, about as fast to call as the one it wraps;
    :func:`cache_size` says how many values it holds.

    >>> calls = []
    >>> @identity_cached(2)
    ... def total(numbers: tuple[int, ...], variant: int) -> int:
    ...     calls.append(numbers)
    ...     return sum(numbers) + variant
    >>> key = (1, 2, 3)
    >>> total(key, 0), total(key, 0), total(key, 1), len(calls), cache_size(total)
    (6, 6, 7, 2, 2)
    """

    def decorate(compute: Callable[[K, int], V]) -> Callable[[K, int], V]:
        entries: dict[tuple[int, int], tuple[K, V]] = {}

        @functools.wraps(compute)
        def cached(owner: K, variant: int) -> V:
            key = (id(owner), variant)
            found = entries.get(key)
            if found is not None and found[0] is owner:
                return found[1]
            value = compute(owner, variant)
            if len(entries) >= limit:
                entries.clear()
            entries[key] = (owner, value)
            return value

        _SIZES[cached] = entries.__len__
        return cached

    return decorate


# The size of each cache, by its function (for tests and for the limit's check).
_SIZES: dict[Callable[..., object], Callable[[], int]] = {}


def cache_size(cached: Callable[..., object]) -> int:
    """How many values the function made by :func:`identity_cached` holds."""
    return _SIZES[cached]()
