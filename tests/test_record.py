"""Game records (.prr): exact replay, round trips through text, strict and lenient replay,
score checks and redacted records replayed as views (R7, R23, R27)."""

from __future__ import annotations

import io
import re

import attrs
import pytest
from hypothesis import given
from hypothesis import strategies as st
from playouts import RULE_SETS

from persian_rummy import (
    DECK,
    ArgumentTypeError,
    DrawStock,
    GameState,
    InvalidArgumentError,
    NotationError,
    Phase,
    ReplayError,
    Rules,
    legal_actions,
    shuffled_deck,
)
from persian_rummy.record import (
    DealRecord,
    GameRecord,
    RecordedAction,
    Recorder,
    dump,
    dumps,
    load,
    loads,
)


def record_game(seed: int, rules: Rules, dealer: int, steps: int | None = None) -> tuple[GameRecord, list[GameState]]:
    """Play a random game through a recorder (stopping after ``steps`` actions, if given);
    return its record and every state in order."""
    import random

    rng = random.Random(seed)
    recorder = Recorder(rules=rules, players=["Ann", 'Bo "the bear"', "Cy", "Dé"])
    states = [recorder.deal(seed=seed, dealer=dealer)]
    played = 0
    while steps is None or played < steps:
        state = states[-1]
        if state.phase is Phase.GAME_OVER:
            break
        if state.phase is Phase.ROUND_OVER:
            source = rng.choice(
                [{"seed": rng.randrange(10**6)}, {"seed": f"deal {played}"}, {"deck": shuffled_deck(played)}]
            )
            states.append(recorder.deal(**source))  # type: ignore[arg-type]
            continue
        comment = rng.choice(["", "", "a thought", "; semicolons ; and [brackets]"])
        states.append(recorder.play(rng.choice(legal_actions(state)), comment=comment))
        played += 1
    return recorder.record(), states


games = st.builds(
    record_game,
    st.integers(0, 2**32 - 1),
    st.sampled_from(RULE_SETS),
    st.integers(0, 3),
    st.none() | st.integers(0, 200),
)


@given(games)
def test_r7_records_round_trip_and_replay_exactly(game: tuple[GameRecord, list[GameState]]) -> None:
    record, states = game
    text = dumps(record)
    assert loads(text) == record
    assert dumps(loads(text)) == text
    assert list(loads(text)) == states
    assert list(record.states()) == states
    finished = states[-1].phase is Phase.GAME_OVER
    assert (record.scores is not None) == finished
    if finished:
        assert record.scores == states[-1].scores


@given(games, st.integers(0, 3))
def test_r27_redacted_records_replay_as_the_seats_views(game: tuple[GameRecord, list[GameState]], seat: int) -> None:
    record, states = game
    redacted = record.redact(seat)
    text = dumps(redacted)
    assert "[Seed" not in text and "??" in text
    assert loads(text) == redacted
    assert list(redacted.views()) == [state.view(seat) for state in states]
    # The deck shows only what the seat saw: its 7 cards, the card turned up and its stock draws.
    for deal in redacted.deals:
        draws = sum(1 for item in deal.actions if item.seat == seat and str(item.action) == "draw")
        assert sum(card is not None for card in deal.deck) == 7 + 1 + draws


def test_r27_a_redacted_record_hides_the_other_hands() -> None:
    record, states = record_game(3, Rules(), 0, steps=4)
    text = dumps(record.redact(0))
    deck = re.search(r'\[Deck "([^"]*)"\]', text)
    assert deck is not None
    shown = [word for word in deck.group(1).split() if word != "??"]
    assert sorted(shown) == sorted(map(str, [*states[0].hands[0], states[0].discard_pile[0]]))
    with pytest.raises(ReplayError, match="redacted"):
        list(record.redact(0))
    with pytest.raises(ReplayError, match="seat 0"):
        list(record.redact(0).views(1))


@pytest.mark.parametrize("seat", [9, -1, "0", None, 1.0])
def test_r3_views_refuses_a_bad_seat_at_the_call_not_when_iterated(seat: object) -> None:
    record = GameRecord.from_actions([(1, ["draw", "discard Jk"])])
    with pytest.raises(ReplayError, match=r"R3: a view is for a seat 0-3|needs a seat"):
        record.views(seat)  # type: ignore[arg-type]
    with pytest.raises(ReplayError, match="redacted for seat 0, not seat 1"):
        record.redact(0).views(1)


def test_r27_a_redacted_record_keeps_only_the_viewers_own_comments() -> None:
    recorder = Recorder()
    state = recorder.deal(seed=1)
    for _ in range(8):  # two turns each: every seat comments on its own actions
        seat = state.current_player
        state = recorder.play(legal_actions(state)[-1], comment=f"note by seat {seat}")
    record = recorder.record()
    for viewer in range(4):
        kept = {item.comment for deal in record.redact(viewer).deals for item in deal.actions}
        assert kept == {"", f"note by seat {viewer}"}
    assert {item.comment for item in record.deals[0].actions} == {f"note by seat {seat}" for seat in range(4)}


def test_r23_replay_checks_the_stored_scores() -> None:
    record, _ = record_game(1, Rules(deals=1), 0)
    assert record.scores is not None
    wrong = (record.scores[0] + 1, record.scores[1])
    bad_deal = attrs.evolve(record, deals=(attrs.evolve(record.deals[0], scores=wrong),))
    with pytest.raises(ReplayError, match="R23") as caught:
        bad_deal.replay()
    assert caught.value.deal == 1 and caught.value.index is None
    result = bad_deal.replay(strict=False)
    assert [error.deal for error in result.errors] == [1]
    assert result.final.phase is Phase.GAME_OVER  # lenient replay goes on
    with pytest.raises(ReplayError, match="R26"):
        attrs.evolve(record, scores=wrong).replay()


def test_r12_strict_replay_names_the_deal_and_action_lenient_keeps_the_valid_prefix() -> None:
    record, states = record_game(2, Rules(), 1, steps=30)
    deal = record.deals[0]
    broken = deal.actions[:10] + (deal.actions[11],) + deal.actions[10:]  # an action out of turn
    bad = attrs.evolve(record, deals=(attrs.evolve(deal, actions=broken),))
    with pytest.raises(ReplayError) as caught:
        bad.replay()
    assert (caught.value.deal, caught.value.index) == (1, 10)
    assert "deal 1, action 10" in str(caught.value) and caught.value.cause is not None
    result = bad.replay(strict=False)
    assert result.states == tuple(states[:11]) and [error.index for error in result.errors] == [10]
    # A record whose action is marked for the wrong seat.
    item = deal.actions[0]
    wrong_seat = (attrs.evolve(item, seat=(item.seat + 1) % 4),) + deal.actions[1:]
    with pytest.raises(ReplayError, match="marked for seat"):
        attrs.evolve(record, deals=(attrs.evolve(deal, actions=wrong_seat),)).replay()


def test_r7_replay_checks_that_deals_follow_each_other() -> None:
    record, _ = record_game(4, Rules(), 0)
    second = record.deals[1]
    with pytest.raises(ReplayError, match="R7"):
        attrs.evolve(record, deals=(record.deals[0], attrs.evolve(second, dealer=3))).replay()
    with pytest.raises(ReplayError, match="R7"):
        attrs.evolve(record, deals=(second,)).replay()
    with pytest.raises(ReplayError, match="one of the two"):
        Recorder().deal(seed=1, deck=DECK)
    recorder = Recorder()
    recorder.deal(seed=1)
    with pytest.raises(ReplayError, match="R7"):
        recorder.deal(seed=2)  # deal 1 is not over


def test_r5_seeds_and_decks() -> None:
    assert loads(dumps(GameRecord.from_actions([("1", [])]))).deals[0].seed == "1"
    assert loads(dumps(GameRecord.from_actions([(1, [])]))).deals[0].seed == 1
    by_deck = GameRecord.from_actions([(DECK, ["draw", "discard 2s ; note"])], dealer=2)
    text = dumps(by_deck)
    assert "[Deck " in text and "[Seed" not in text and "W discard 2s ; note" in text
    assert loads(text) == by_deck
    with pytest.raises(NotationError, match="disagree"):
        loads(text.replace("[Dealer 2]", "[Dealer 2]\n[Seed 1]"))


def test_records_load_and_dump_files() -> None:
    record, _ = record_game(6, Rules(), 0, steps=12)
    out = io.StringIO()
    dump(record, out)
    assert load(io.StringIO(out.getvalue())) == record
    assert loads(out.getvalue().encode()) == record


def test_recorded_action_text() -> None:
    item = RecordedAction.parse("S meld 7h 7d 7s ; three sevens")
    assert str(item) == "S meld 7s 7h 7d ; three sevens" and RecordedAction.parse(str(item)) == item
    for bad in ("X draw", "S", "S fly", "SS draw"):
        with pytest.raises(NotationError):
            RecordedAction.parse(bad)


@pytest.mark.parametrize(
    ("text", "match"),
    [
        ("", "Format"),
        ('[Format "persian-rummy record 9"]', "format"),
        ('[Format "persian-rummy record 1"]\nE draw', "before the first"),
        ('[Format "persian-rummy record 1"]\n[Deal 1]\n[Dealer 0]', "Seed or a Deck"),
        ('[Format "persian-rummy record 1"]\n[Deal 1]\n[Dealer 5]\n[Seed 1]', "Dealer"),
        (
            '[Format "persian-rummy record 1"]\n[Deal 1]\n[Dealer 0]\n[Seed 1]\nE draw\n[Scores [1, 2]]',
            "before its actions",
        ),
        ('[Format "persian-rummy record 1"]\n[Deal 1]\n[Dealer 0]\n[Seed 1.5]', "Seed"),
        ('[Format "persian-rummy record 1"]\n[Rules "deals=0"]\n[Deal 1]', "R7"),
        ('[Format "persian-rummy record 1"]\n[Scores [1]]', "Scores"),
        ('[Format "persian-rummy record 1"]\n[Deal 1]\n[Dealer 0]\n[Deck "??"]', "56"),
        ('[Format "persian-rummy record 1"]\n[Bogus 1]', "Bogus"),
        ('[Format "persian-rummy record 1"]\n[Seat0 "x"', "tag"),
    ],
)
def test_loads_says_which_line_is_wrong(text: str, match: str) -> None:
    with pytest.raises(NotationError, match=match):
        loads(text)


def test_deal_record_of_a_redacted_deck_cannot_start_a_state() -> None:
    deal = DealRecord(number=1, dealer=0, deck=(None,) * 56)
    with pytest.raises(ReplayError, match="redacted"):
        deal.initial_state()


def test_r14_r27_a_record_cut_right_after_a_pile_draw_replays_as_views() -> None:
    # Regression: when an unfinished record ends with another seat's pile draw, the cards that
    # made it legal (R14) are never shown; the replay must place unseen cards that meld it.
    record, states = record_game(87255, Rules(), 0)
    actions = [item for deal in record.deals[:1] for item in deal.actions]
    cut_points = [index + 1 for index, item in enumerate(actions) if str(item.action).startswith("take")]
    assert cut_points
    for cut in cut_points:
        prefix = attrs.evolve(
            record, deals=(attrs.evolve(record.deals[0], actions=tuple(actions[:cut]), scores=None),), scores=None
        )
        for seat in range(4):
            assert list(prefix.redact(seat).views()) == [state.view(seat) for state in states[: cut + 1]]


@pytest.mark.parametrize(("seed", "steps", "rules"), [(220, 82, 0), (1468, 32, 3), (36, 161, 1)])
def test_r11_r14_a_record_cut_after_a_joker_is_taken_replays_as_views(seed: int, steps: int, rules: int) -> None:
    # Regression: the joker taken was counted as its own partner, so no second joker was placed.
    record, states = record_game(seed, RULE_SETS[rules], seed % 4, steps)
    assert str(record.deals[-1].actions[-1].action).startswith("take")
    for seat in range(4):
        assert list(record.redact(seat).views()) == [state.view(seat) for state in states]


def test_records_and_replay_errors_pickle() -> None:
    import pickle

    record, _ = record_game(8, Rules(), 2, steps=40)
    assert pickle.loads(pickle.dumps(record)) == record
    assert pickle.loads(pickle.dumps(record.redact(3))) == record.redact(3)
    error = ReplayError("R17: seat 3 does not hold 4s", deal=2, index=5)
    copy = pickle.loads(pickle.dumps(error))
    assert (str(copy), copy.deal, copy.index) == (str(error), 2, 5)


@given(
    st.lists(st.text(max_size=12), min_size=4, max_size=4),
    st.lists(st.text(max_size=12), min_size=2, max_size=2),
    st.text(max_size=30).filter(lambda text: "\n" not in text and "\r" not in text),
)
def test_names_and_comments_round_trip(players: list[str], teams: list[str], comment: str) -> None:
    recorder = Recorder(players=players, teams=teams)
    recorder.deal(seed=1)
    recorder.play("draw", comment=comment)
    record = recorder.record()
    assert loads(dumps(record)) == record


def test_an_empty_record_has_no_final_state() -> None:
    with pytest.raises(ReplayError, match="nothing was replayed"):
        _ = GameRecord(()).replay().final


def test_records_repr_pastes_back() -> None:
    from persian_rummy import Card, Discard, DrawDiscard, DrawStock, Hand, LayOff, MeldCards, Pass  # noqa: F401

    record, _ = record_game(9, Rules(), 1, steps=30)
    assert eval(repr(record)) == record
    assert eval(repr(record.redact(0))) == record.redact(0)


def test_r12_loads_replays_the_record_unless_told_not_to() -> None:
    record, states = record_game(12, Rules(), 0, steps=20)
    lines = dumps(record).splitlines()
    first_action = next(index for index, line in enumerate(lines) if line.startswith(("N ", "E ", "S ", "W ")))
    lines[first_action + 1], lines[first_action + 2] = lines[first_action + 2], lines[first_action + 1]
    damaged = "\n".join(lines)
    with pytest.raises(ReplayError) as caught:
        loads(damaged)
    assert (caught.value.deal, caught.value.index) == (1, 1)
    lenient = loads(damaged, check=False).replay(strict=False)
    assert lenient.states == tuple(states[:2]) and len(lenient.errors) == 1


def test_r7_a_refused_deal_keeps_the_actions_of_the_current_deal() -> None:
    # Regression: Recorder.deal closed the current deal before checking the new one, so a
    # refused deal (deal 1 not over) dropped every action recorded so far.
    recorder = Recorder()
    recorder.deal(seed=1)
    recorder.play("draw")
    recorder.play("discard Jk")
    before = recorder.record()
    for bad in ({"seed": 2}, {"deck": DECK}, {"deck": 5}):
        with pytest.raises((ReplayError, NotationError)):
            recorder.deal(**bad)  # type: ignore[arg-type]
        assert recorder.record() == before
    recorder.play("draw")
    assert [str(item) for item in recorder.record().deals[0].actions] == ["E draw", "E discard Jk", "S draw"]
    recorder.record().replay()


def test_r3_records_name_four_players_and_two_teams() -> None:
    # Regression: a recorder with three or five player names made a record that did not
    # load back (five) or loaded back different (three); a seat 9 failed only when printed.
    for players in (["a", "b", "c"], ["a", "b", "c", "d", "e"], [1, 2, 3, 4]):
        with pytest.raises(InvalidArgumentError, match="players"):
            Recorder(players=players)  # type: ignore[arg-type]
    with pytest.raises(InvalidArgumentError, match="teams"):
        Recorder(teams=["x"])
    with pytest.raises(InvalidArgumentError, match="teams"):
        GameRecord((), teams=("x", "y", "z"))
    with pytest.raises(InvalidArgumentError, match="R3"):
        RecordedAction(9, DrawStock())
    with pytest.raises(NotationError, match="deck"):
        GameRecord.from_actions([(1.5, [])])  # type: ignore[list-item]
    recorder = Recorder()
    recorder.deal(seed=1)
    with pytest.raises(ArgumentTypeError, match="comment"):
        recorder.play("draw", comment=5)  # type: ignore[arg-type]


def test_r23_a_redacted_records_hands_tag_must_match_its_replay() -> None:
    # Regression: a Hands tag missing a card loaded (once the Scores tags were gone) and the
    # replay filled the card in from the unseen ones, so the views disagreed with the tag.
    record, states = record_game(5, Rules(deals=1), 0)
    assert states[-1].is_deal_over
    text = dumps(record.redact(0))
    hands = re.search(r'\[Hands "([^"]*)"\]', text)
    assert hands is not None
    parts = hands.group(1).split(" / ")
    seat, cards = next((seat, part.split()) for seat, part in enumerate(parts) if seat and part)
    parts[seat] = " ".join(cards[:-1])
    damaged = re.sub(r"\[Scores [^\n]*\]\n", "", text.replace(hands.group(0), f'[Hands "{" / ".join(parts)}"]'))
    with pytest.raises(ReplayError, match="R23: the tag Hands"):
        loads(damaged)
    with pytest.raises(ReplayError, match="R23: a finished deal"):
        loads(re.sub(r"\[Scores [^\n]*\]\n", "", text.replace(hands.group(0) + "\n", "")))
    assert loads(text) == record.redact(0)


def test_a_comment_cannot_inject_an_action_line() -> None:
    # Regression: RecordedAction took any comment, so "a\nE pass" was written as a second
    # action line and read back as two actions; surrounding spaces did not read back either.
    for comment in ("a\nE pass", "a\rb", " a", "a ", 5):
        with pytest.raises(InvalidArgumentError, match="comment"):
            RecordedAction(1, DrawStock(), comment)  # type: ignore[arg-type]
    recorder = Recorder()
    recorder.deal(seed=1)
    with pytest.raises(InvalidArgumentError, match="comment"):
        recorder.play("draw", comment="a\nE pass")
    assert recorder.state.phase is Phase.DRAW  # nothing was played or recorded
    assert recorder.record().deals[0].actions == ()
    assert RecordedAction.parse("E draw ;  spaced  ").comment == "spaced"


def test_r7_recorder_derives_later_deal_seeds_from_the_first() -> None:
    from persian_rummy import ReplayError, deal_seed, shuffled_deck
    from persian_rummy.arena import play_game
    from persian_rummy.bots import GreedyBot
    from persian_rummy.record import Recorder

    # The recorder deals a game as play_game does: deal n from deal_seed(seed, n).
    game = play_game([GreedyBot()] * 4, 7)
    recorder = Recorder()
    state = recorder.deal(seed=7)
    for number, actions in enumerate(game.deals, 1):
        if number > 1:
            state = recorder.deal()
        for action in actions:
            state = recorder.play(action)
    assert state == game.final
    assert [deal.seed for deal in recorder.record().deals] == [7, "7/2"] == [deal_seed(7, n) for n in (1, 2)]
    with pytest.raises(ReplayError, match="deal 1: the first deal needs a seed or a deck"):
        Recorder().deal()
    # A game dealt from a deck has no seed to derive from: it says so.
    from_deck = Recorder()
    state = from_deck.deal(deck=shuffled_deck(3))
    bot = GreedyBot()
    while state.phase.is_live:
        state = from_deck.play(bot(state.view(state.current_player)))
    with pytest.raises(ReplayError, match="deal 2: the first deal was dealt from a deck"):
        from_deck.deal()


def test_replay_errors_of_a_records_text_name_its_line() -> None:
    import pickle

    from persian_rummy import ReplayError
    from persian_rummy.record import GameRecord, dumps, loads

    record = GameRecord.from_actions([(1, ["draw", "discard Jk", "draw", "discard 9d"])])
    text = dumps(record)
    lines = text.splitlines()
    # Break the third action (South's draw): South now passes, with 26 cards in the stock (R20).
    third = lines.index("S draw")
    lines[third] = "S pass"
    with pytest.raises(ReplayError) as caught:
        loads("\n".join(lines) + "\n")
    error = caught.value
    assert (error.line, error.deal, error.index) == (third + 1, 1, 2)
    assert str(error).startswith(f"line {third + 1}, deal 1, action 2: R20: ")
    again = pickle.loads(pickle.dumps(error))
    assert (again.line, again.deal, again.index, str(again)) == (error.line, 1, 2, str(error))
    # A deal-level error names the deal's [Deal] tag: here stored scores that the replay
    # contradicts (R23).
    from persian_rummy.arena import play_game
    from persian_rummy.bots import GreedyBot

    game = play_game([GreedyBot()] * 4, 1)
    whole = dumps(GameRecord.from_actions(list(zip(game.deal_seeds, game.deals, strict=True)))).splitlines()
    tag = whole.index("[Deal 2]")
    scores = next(n for n in range(tag, len(whole)) if whole[n].startswith("[Scores"))
    whole[scores] = "[Scores [1, 2]]"
    with pytest.raises(ReplayError) as deal_level:
        loads("\n".join(whole) + "\n")
    assert (deal_level.value.line, deal_level.value.deal, deal_level.value.index) == (tag + 1, 2, None)
    # Without text there is no line: the error says deal and action only.
    with pytest.raises(ReplayError, match=r"^deal 1, action 2: R20") as direct:
        loads("\n".join(lines) + "\n", check=False).replay()
    assert direct.value.line is None
