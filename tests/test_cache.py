"""The identity-keyed cache of the engine's tables keeps its bound and never answers for an
object other than the one a value was computed from (R16's lay-off targets of a table)."""

from __future__ import annotations

from persian_rummy import GameState
from persian_rummy._cache import IdentityCache
from persian_rummy.melds import table_extensions


def test_a_value_is_found_only_for_the_object_it_was_stored_for() -> None:
    cache: IdentityCache[str] = IdentityCache(8)
    first = [1]
    cache.put(first, "first")
    twin = [1]  # equal, but another object
    assert cache.get(first) == "first"
    assert cache.get(twin) is None


def test_an_id_reused_after_its_object_is_gone_is_not_mistaken_for_it() -> None:
    cache: IdentityCache[str] = IdentityCache(8)
    cache.put([1, 2], "gone")  # the list dies at once; its id may be handed to the next object
    assert all(cache.get([3, 4]) is None for _ in range(100))


def test_the_cache_empties_when_full_and_never_grows_past_its_limit() -> None:
    cache: IdentityCache[int] = IdentityCache(3)
    keep = [(number,) for number in range(10)]
    for number, owner in enumerate(keep):
        cache.put(owner, number)
        assert len(cache) <= 3
    assert cache.get(keep[-1]) == 9


def test_r16_table_extensions_answer_per_ace_rule() -> None:
    state = GameState.from_position(["", "", "", ""], [], melds=["2s@0 3s@0 4s@0"])
    high, low = table_extensions(state.melds, False), table_extensions(state.melds, True)
    assert high[0] != low[0]  # the ace low extends 2-3-4 only when allowed (R10)
    assert table_extensions(state.melds, False) is high
