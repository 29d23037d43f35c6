"""Hostile input: every number is checked against what a valid game allows before anything is
built, every reader refuses input past the largest valid value of its kind at once, error
messages stay short, no cache grows, and only documented exceptions come out (R1-R27)."""

from __future__ import annotations

import contextlib
import json
import sys
import tracemalloc
from pathlib import Path

import attrs
import pytest
from conformance import MAX_ACTIONS_PER_ROUND

from persian_rummy import (
    DECK,
    GameState,
    IllegalActionError,
    LayOff,
    Meld,
    PersianRummyError,
    PlayerView,
    Rules,
    is_legal,
    legal_actions,
    new_game,
    play,
)
from persian_rummy import record as records
from persian_rummy.cli import main
from persian_rummy.limits import (
    ACTIONS_PER_DEAL,
    JSON_LIMIT,
    MELD_LIMIT,
    POSITION_LIMIT,
    SCORE_LIMIT,
    TEXT_LIMIT,
    record_limit,
)

HEADER = '[Format "persian-rummy record 1"]\n[Deal 1]\n[Dealer 0]\n[Seed 1]\n'


# "At once" is counted in calls, not timed, so that a busy machine cannot fail it: a hostile
# input is refused in a number of function calls (Python's and C's, as sys.setprofile sees them)
# that does not grow with the number it holds. The refusals here take at most about 6,000 calls
# (a record refused at its 1,401st action about 100,000: it plays the 1,400 before); filling a
# cache up to a pile index, as "take 100000000000" once did, takes one a pile place.
CALL_BUDGET = 100_000


class WorkBudgetExceeded(BaseException):
    """Raised inside a call that passed its budget of calls (a BaseException, so that no
    ``except Exception`` in the library can take it for an error of the input)."""


def quick(call: object, *args: object, budget: int = CALL_BUDGET) -> PersianRummyError:
    """Call and return the documented error it raises, within ``budget`` calls."""
    calls = 0

    def count(frame: object, event: str, arg: object) -> None:
        nonlocal calls
        calls += 1
        if calls > budget:
            raise WorkBudgetExceeded(f"more than {budget} calls to refuse the input")

    sys.setprofile(count)
    try:
        with pytest.raises(PersianRummyError) as caught:
            call(*args)  # type: ignore[operator]
    finally:
        sys.setprofile(None)
    assert len(str(caught.value)) <= 2100 and len(caught.value.reason) <= 200
    return caught.value


def test_r13_a_huge_pile_index_is_answered_at_once() -> None:
    # Regression: "take 100000000000" filled a process-wide cache up to the index.
    quick(play, new_game(1), "take 100000000000")
    quick(records.loads, HEADER + "E take 100000000000\n")
    assert not is_legal(new_game(1), "take 100000000000")


def test_r13_r16_no_cache_grows_with_distinct_invalid_requests() -> None:
    state = play(new_game(1), "draw")
    for meld in range(MELD_LIMIT):  # warm: every shared value exists from import
        with pytest.raises(IllegalActionError):
            play(state, LayOff("Js", meld))
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    for number in range(3000):
        for text in (f"layoff Js {number}", f"take {number}", f"layoff Jk {number * 7}"):
            with contextlib.suppress(PersianRummyError):
                play(state, text)
    grown = tracemalloc.get_traced_memory()[0] - before
    tracemalloc.stop()
    assert grown < 100_000, f"{grown} bytes kept after 9000 refused requests"


def test_r3_a_state_json_with_millions_of_hands_is_refused_at_once() -> None:
    fields = json.loads(new_game(1).to_json())
    fields["hands"] = ["4s"] * 2_000_000
    text = json.dumps(fields)
    error = quick(GameState.from_json, text)
    assert "at most" in str(error)
    fields["hands"] = ["4s"] * 1000  # under the size limit, still far too many
    assert len(json.dumps(fields)) < JSON_LIMIT
    quick(GameState.from_json, json.dumps(fields))
    fields["melds"] = ["4s 5s 6s"] * 5000
    quick(GameState.from_json, json.dumps(fields)[:JSON_LIMIT])


def test_r8_a_position_with_thousands_of_melds_is_refused_before_they_are_built() -> None:
    text = new_game(1).position().replace(" - turn=", " " + "/".join(["1:4s5s6s"] * 5000) + " turn=")
    assert "at most" in str(quick(GameState.parse, text))
    assert len(text) > POSITION_LIMIT


@pytest.mark.parametrize(
    "text", ["4s@" + "9" * 5000 + " 5s 6s", "4s@12 5s@1 6s@1", " ".join(["4s"] * 20), "x" * 100_000]
)
def test_r3_r9_meld_text_with_huge_seats_or_too_many_cards_is_a_documented_error(text: str) -> None:
    quick(Meld.parse, text)


def test_r27_views_with_a_4300_digit_hidden_hand_size_are_refused() -> None:
    view = new_game(1).view(0)
    quick(PlayerView.parse, view.position().replace("?7/", "?" + "9" * 4300 + "/", 1))
    fields = json.loads(view.to_json())
    fields["hand_sizes"][1] = int("9" * 4200)
    quick(PlayerView.from_json, json.dumps(fields))
    fields["hand_sizes"][1] = SCORE_LIMIT - 1
    quick(PlayerView.from_json, json.dumps(fields))


@pytest.mark.parametrize("seed", ["\ud800", "x" * (TEXT_LIMIT + 1), 2**5000])
def test_seeds_are_bounded_unicode_text_or_numbers(seed: int | str) -> None:
    quick(new_game, seed)


def test_a_record_seed_or_name_with_a_lone_surrogate_is_a_notation_error() -> None:
    quick(records.loads, HEADER.replace("[Seed 1]", '[Seed "\\ud800"]'))
    quick(records.loads, '[Format "persian-rummy record 1"]\n[Seat0 "\\ud800"]\n' + HEADER.split("\n", 1)[1])


def test_a_record_with_a_byte_order_mark_loads() -> None:
    text = HEADER + "E draw\n"
    assert records.loads("\ufeff" + text) == records.loads(text)
    assert records.loads(("\ufeff" + text).encode()) == records.loads(text)
    state = new_game(1)
    assert GameState.from_json("\ufeff" + state.to_json()) == state


def test_r21_a_deal_past_the_bound_of_actions_is_refused_at_its_line() -> None:
    assert ACTIONS_PER_DEAL == MAX_ACTIONS_PER_ROUND == 1400
    text = HEADER + "E draw\n" * (ACTIONS_PER_DEAL + 1)
    error = quick(records.loads, text, budget=10 * CALL_BUDGET)  # it plays the deal's 1,400 actions first
    assert f"line {4 + ACTIONS_PER_DEAL + 1}" in str(error) and "R21" in str(error)


def test_r7_a_record_past_the_largest_of_its_deals_is_refused_before_its_deals_are_read() -> None:
    header = '[Format "persian-rummy record 1"]\n[Rules "deals=1"]\n'
    text = header + "\n" * record_limit(1) + "[Deal 1]\n"
    assert "at most" in str(quick(records.loads, text))


def test_r7_r25_rules_knobs_are_bounded() -> None:
    for text in ("deals=1001", "deals=" + "9" * 5000, "going_out_bonus=1001", "x" * 5000):
        quick(Rules.parse, text)
    assert Rules.parse("deals=1000 going_out_bonus=1000").deals == 1000


def test_the_largest_valid_values_fit_their_limits() -> None:
    # All but four cards on the table, in 14 melds with lay-offs credited across seats, the longest
    # rules text and the largest counters: the longest position string and JSON there are.
    rules = Rules(
        deals=1000,
        ace_in_runs="high_or_low",
        top_card_must_meld=False,
        pickup_use="new_meld_only",
        last_card_discard="forbidden",
        stock_out_end="first_pass",
        double_four_jokers=False,
        going_out_bonus=1000,
    )
    melds = [f"{rank}s@0 {rank}h@0 {rank}d@0 {rank}c+1" for rank in "6789TJQKA"] + ["Jk@3 Jk@3 Jk@3 Jk+2"]
    melds += [f"{rank}s@1 {rank}h@1 {rank}d@1" for rank in "2345"]
    state = GameState.from_position(["2c", "3c", "4c", "5c"], [], melds=melds, stock=(), rules=rules)
    state = attrs.evolve(state, deal_number=1000, scores=(-475_524, 1_950_048), idle_turns=6)
    assert sum(len(meld.cards) for meld in state.melds) == len(DECK) - 4
    state.validate()
    assert len(state.position()) <= POSITION_LIMIT
    assert len(json.dumps(json.loads(state.to_json()), indent=4)) <= JSON_LIMIT
    view = state.view(2)
    assert len(view.position()) <= POSITION_LIMIT and len(view.to_json()) <= JSON_LIMIT


def test_a_long_real_record_fits_its_limit() -> None:
    recorder = records.Recorder(players=["é" * TEXT_LIMIT] * 4, teams=["🃏" * TEXT_LIMIT] * 2)
    state = recorder.deal(seed="z" * TEXT_LIMIT)
    while state.phase.is_live:
        state = recorder.play(legal_actions(state)[-1], comment="c" * TEXT_LIMIT)
    text = records.dumps(recorder.record())
    assert len(text) <= record_limit(1)
    assert records.loads(text) == recorder.record()


def test_cli_replay_shows_control_characters_and_refuses_lone_surrogates(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    recorder = records.Recorder(players=["Ann\x1b[2J\x07", "Bob", "Cy\u202e", "Di"])
    recorder.deal(seed=1)
    recorder.play("draw", comment="bell\x07 here")
    path = tmp_path / "game.prr"
    path.write_text(records.dumps(recorder.record()), encoding="utf-8")
    assert main(["replay", str(path)]) == 0
    out = capsys.readouterr().out
    assert "\x1b" not in out and "\x07" not in out and "\u202e" not in out
    assert "Ann\\x1b[2J\\x07" in out and "bell\\x07 here" in out
    broken = records.dumps(recorder.record()).replace('"Bob"', '"\\ud800"')
    path.write_text(broken, encoding="utf-8")
    assert main(["replay", str(path)]) == 2
    captured = capsys.readouterr()
    assert "Traceback" not in captured.err and "not a valid game record" in captured.err
    assert main(["replay", str(path)]) == 2


def test_replay_reads_a_record_with_a_byte_order_mark(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "bom.prr"
    path.write_bytes(b"\xef\xbb\xbf" + (HEADER + "E draw\n").encode())
    assert main(["replay", str(path)]) == 0
    assert "Game record" in capsys.readouterr().out


def test_r7_a_record_with_more_deals_than_its_rules_is_refused_at_the_extra_deal() -> None:
    # Found by the fuzzer: copies of a deal's lines made a long record that parsed in full
    # before its replay noticed the deals did not follow (deals=2 here, the default).
    deal = "[Deal 2]\n[Dealer 1]\n[Seed 2]\nS draw\n"
    error = quick(records.loads, HEADER + "E draw\n" + deal * 3000)
    assert "R7" in str(error) and "line 10" in str(error)  # the third deal
