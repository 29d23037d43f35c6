"""The identity-keyed cache of the engine's tables keeps its bound and never answers for an
object other than the one a value was computed from (R16's lay-off targets of a table)."""

from __future__ import annotations

from collections.abc import Callable

from persian_rummy import GameState
from persian_rummy._cache import cache_size, identity_cached
from persian_rummy.melds import table_extensions


def _counting() -> tuple[Callable[[object, int], int], list[object]]:
    seen: list[object] = []

    @identity_cached(3)
    def compute(owner: object, variant: int) -> int:
        seen.append(owner)
        return len(seen) * 10 + variant

    return compute, seen


def test_a_value_is_worked_out_once_per_object_and_variant() -> None:
    cached, seen = _counting()
    first = [1]
    assert cached(first, 0) == cached(first, 0) == 10
    assert cached(first, 1) == 21
    assert len(seen) == 2


def test_an_equal_object_or_an_id_reused_after_its_object_is_gone_is_not_mistaken_for_it() -> None:
    cached, seen = _counting()
    first = [1]
    cached(first, 0)
    cached([1], 0)  # equal, but another object
    for _ in range(50):
        cached([2, 3], 0)  # each dies at once; its id may be handed to the next list
    assert len(seen) == 52


def test_the_cache_empties_when_full_and_never_grows_past_its_limit() -> None:
    cached, _ = _counting()
    keep = [(number,) for number in range(10)]
    for owner in keep:
        cached(owner, 0)
        assert cache_size(cached) <= 3
    assert cached(keep[-1], 0) == 100


def test_r16_table_extensions_answer_per_ace_rule() -> None:
    state = GameState.from_position(["", "", "", ""], [], melds=["2s@0 3s@0 4s@0"])
    high, low = table_extensions(state.melds, False), table_extensions(state.melds, True)
    assert high[0] != low[0]  # the ace low extends 2-3-4 only when allowed (R10)
    assert table_extensions(state.melds, False) is high
