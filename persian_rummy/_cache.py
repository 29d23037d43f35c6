"""A small bounded cache of values worked out from an immutable object, found by the object's
identity (internal).

States share their tuples (the melds of a table, a meld) until they change, so a value
derived from such a tuple can be looked up by ``id`` instead of by hashing or comparing its
contents. Each entry keeps the object it was computed from, so an ``id`` reused after that
object is gone is never mistaken for it.

Thread safety: lookups and stores are single dictionary operations; two threads that miss at
once both compute the value and store equal values, and a clearing (when the cache is full)
only costs a recomputation. No lock is needed and no reader can see a half-built entry.
"""

from __future__ import annotations

from typing import Generic, TypeVar

V = TypeVar("V")


class IdentityCache(Generic[V]):
    """At most ``limit`` values, each keyed by an object's identity and a small ``variant``
    (for values that also depend on, say, a rules knob); emptied whole when full.

    >>> cache: IdentityCache[int] = IdentityCache(2)
    >>> key = (1, 2, 3)
    >>> cache.get(key) is None, cache.put(key, 6), cache.get(key), cache.get(key, variant=1)
    (True, 6, 6, None)
    """

    __slots__ = ("_entries", "limit")

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self._entries: dict[tuple[int, int], tuple[object, V]] = {}

    def get(self, owner: object, variant: int = 0) -> V | None:
        """The value stored for ``owner`` (this very object) and ``variant``, or ``None``."""
        found = self._entries.get((id(owner), variant))
        if found is not None and found[0] is owner:
            return found[1]
        return None

    def put(self, owner: object, value: V, variant: int = 0) -> V:
        """Store ``value`` for ``owner`` and ``variant`` (emptying the cache first if it holds
        ``limit`` values) and return it."""
        if len(self._entries) >= self.limit:
            self._entries.clear()
        self._entries[(id(owner), variant)] = (owner, value)
        return value

    def __len__(self) -> int:
        return len(self._entries)
