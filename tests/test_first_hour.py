"""What a newcomer meets in the first hour: the words they type, one loop for a whole game,
the meld notation of position strings, and the command line's messages (issue 22)."""

from __future__ import annotations

import builtins
import contextlib
import io
import itertools
import os
import re
import shlex
import signal
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from playouts import RULE_SETS, playout
from test_cli import _run, _scripted
from waiting import DEFAULT_LIMIT

from persian_rummy import (
    Action,
    ArgumentTypeError,
    Card,
    Discard,
    DrawDiscard,
    DrawStock,
    GameState,
    LayOff,
    Meld,
    MeldCards,
    NotationError,
    Pass,
    PersianRummyError,
    WrongPhaseError,
    deal_seed,
    legal_actions,
    new_game,
    next_deal,
    play,
    record,
    score_round,
)
from persian_rummy.arena import play_game
from persian_rummy.bots import GreedyBot
from persian_rummy.cli import main
from persian_rummy.cli._play import _action_text, _ask
from persian_rummy.presentation import Style, addressed
from persian_rummy.state import SEAT_NAMES

ROOT = Path(__file__).resolve().parent.parent

# --- the spoken forms of actions ------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "action"),
    [
        ("lay off 9s 0", LayOff("9s", 0)),
        ("lay off 9♠ on #0", LayOff("9s", 0)),
        ("Lay Off 9s on meld 3", LayOff("9s", 3)),
        ("lay off Jk #2", LayOff("Jk", 2)),
        ("lay-off 10h 1", LayOff("Th", 1)),
        ("lay_off Th 1", LayOff("Th", 1)),
        ("layoff 9s on 0", LayOff("9s", 0)),
        ("draw from the stock", DrawStock()),
        ("draw stock", DrawStock()),
        ("Draw From Stock", DrawStock()),
        ("take #3", DrawDiscard(3)),
    ],
)
def test_r16_r12_r13_the_spoken_forms_parse(text: str, action: Action) -> None:
    assert Action.parse(text) == action
    # The canonical form is unchanged, and reads back to the same action.
    assert Action.parse(str(action)) == action
    assert str(Action.parse(text)) == str(action)


@pytest.mark.parametrize(
    "text",
    ["lay 9s 0", "lay off", "lay off 9s", "lay off 9s on", "lay off 9s on on 0", "draw the", "draw from", "take #"],
)
def test_spoken_forms_that_are_still_not_actions(text: str) -> None:
    with pytest.raises(NotationError):
        Action.parse(text)


def test_r16_every_reader_of_actions_takes_the_spoken_forms() -> None:
    # A record's action lines, an observation's text, legality checks: all read actions with
    # Action.parse, and so the words people say.
    from persian_rummy import Observation, is_legal
    from persian_rummy.record import RecordedAction

    assert RecordedAction.parse("S lay off 9s on #0 ; by hand").action == LayOff("9s", 0)
    assert Observation.parse("E lay off 9♠ on #0").action == LayOff("9s", 0)
    assert Observation.parse("N draw from the stock = Ah").cards == (Card.parse("Ah"),)
    state = GameState.from_position(["9d", "9s 4h", "Qh", "2d"], "2c", melds=["Ts@0 Js@0 Qs@0"])
    assert is_legal(state, "draw from the stock") and not is_legal(state, "lay off 9s on #0")


def test_r16_play_takes_the_spoken_form_of_a_lay_off() -> None:
    state = GameState.from_position(["9d", "9s 4h", "Qh", "2d"], "2c", melds=["Ts@0 Js@0 Qs@0"])
    after = play(play(state, "draw from the stock"), "lay off 9s on #0")
    assert after.melds[0] == Meld.parse("9s+1 Ts@0 Js@0 Qs@0")


# --- a whole game in one loop ----------------------------------------------------------------


@pytest.mark.parametrize("seed", [1, 42, "friday"])
def test_r7_one_loop_plays_the_game_the_library_deals(seed: int | str) -> None:
    # The loop of the tutorial deals as the arena and the command line do (deal_seed).
    bots = [GreedyBot()] * 4
    state = new_game(seed)
    while not state.is_game_over:
        if state.is_deal_over:
            state = next_deal(state, game_seed=seed)
        else:
            state = play(state, bots[state.current_player](state.view(state.current_player)))
    assert state == play_game(bots, seed).final
    assert state.is_deal_over and state.is_over and state.view(0).is_game_over


def test_r7_is_deal_over_and_is_game_over_name_what_they_say() -> None:
    state = new_game(3)
    assert not state.is_deal_over and not state.is_game_over and not state.view(1).is_deal_over
    while not state.is_deal_over:
        state = play(state, legal_actions(state)[0])
    assert state.is_over and not state.is_game_over and state.view(2).is_deal_over
    second = next_deal(state, game_seed=3)
    assert second == next_deal(state, deal_seed(3, 2)) == next_deal(state, "3/2")
    assert score_round(state)  # the finished deal scores


def test_r7_next_deal_takes_exactly_one_seed() -> None:
    state = new_game(3)
    while not state.is_deal_over:
        state = play(state, legal_actions(state)[0])
    with pytest.raises(ArgumentTypeError, match="not neither"):
        next_deal(state)
    with pytest.raises(ArgumentTypeError, match="not both"):
        next_deal(state, 2, game_seed=3)
    with pytest.raises(WrongPhaseError, match="R7"):
        next_deal(new_game(1), game_seed=1)


# --- melds as a position string writes them ---------------------------------------------------


@pytest.mark.parametrize(
    ("text", "marked"),
    [
        ("0:TcJcQc", "Tc@0 Jc@0 Qc@0"),
        ("3:3c+04c5c6c", "3c+0 4c@3 5c@3 6c@3"),
        (" 1:7s7h7d7c+2 ", "7s@1 7h@1 7d@1 7c+2"),
        ("2:JkJkJk", "Jk@2 Jk@2 Jk@2"),
    ],
)
def test_r8_r16_meld_parse_reads_the_position_strings_form(text: str, marked: str) -> None:
    assert Meld.parse(text) == Meld.parse(marked)
    position = new_game(1).position().split(" ")
    assert ":" not in position[3]  # (a fresh deal has no melds; the form is _notation's)


def test_r8_meld_parse_round_trips_every_meld_of_a_position_string() -> None:
    for state, _ in playout(5):
        melds = state.position().split(" ")[3]
        if melds != "-":
            for text, meld in zip(melds.split("/"), state.melds, strict=True):
                assert Meld.parse(text) == meld


@pytest.mark.parametrize("text", ["0:Tc Jc Qc", "x:TcJc", "0:TcJx", "TcJcQc", "0:" + "Tc" * 40])
def test_r8_a_meld_that_does_not_parse_says_what_to_write(text: str) -> None:
    with pytest.raises(NotationError, match=re.escape("(Tc@0 Jc@0 Qc@0)") + ".*" + re.escape("(0:TcJcQc")):
        Meld.parse(text)


def test_r16_the_position_form_names_its_seat() -> None:
    with pytest.raises(NotationError, match="melded by seat 1, not seat=0"):
        Meld.parse("1:7s7h7d", seat=0)
    assert Meld.parse("1:7s7h7d", seat=1) == Meld.parse("7s 7h 7d", seat=1)


# --- the command line ------------------------------------------------------------------------


def _options(state: GameState) -> list[tuple[Action, str]]:
    style = Style(colour=False, symbols=True)
    return [(action, _action_text(state, action, style)) for action in legal_actions(state)]


def _positions() -> list[GameState]:
    # Every state of whole random games under every rule set: draws deep in the pile, melds,
    # lay-offs on both teams' melds, passes with an empty stock.
    states = []
    for seed, rules in zip(range(12), itertools.cycle(RULE_SETS), strict=False):
        states.extend(state for state, _ in playout(seed, rules) if state.phase.is_live)
    return states


def test_r12_r20_every_option_the_command_line_lists_is_typeable_as_printed(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The option as printed ("  3) take 1 (7♠ 9♣, then meld the 7♠)") without its number, typed
    # at the prompt, is that option; and so is its letters form (7s for 7♠).
    typed: list[str] = []
    monkeypatch.setattr(builtins, "input", lambda prompt="": typed.pop())
    kinds: set[type[Action]] = set()
    for state in _positions()[::5]:
        seat = state.current_player
        options = _options(state)
        for action, text in options:
            kinds.add(type(action))
            for form in (text, text.translate(str.maketrans("♠♥♦♣", "shdc"))):
                typed.append(form)
                assert _ask(state, seat, [a for a, _ in options], io.StringIO(), Style()) == action, form
    assert kinds >= {DrawStock, DrawDiscard, LayOff, Pass} and len(kinds) == 6


def test_the_action_words_of_every_option_parse_with_the_library() -> None:
    # Without the note in brackets, an option's words are an action the library reads.
    for state in _positions()[::11]:
        for action, text in _options(state):
            words = re.sub(r" \(.*\)$", "", text)
            assert Action.parse(words) == action, text


def test_play_says_you_take_and_east_draws(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    _scripted(monkeypatch, "1\n" * 3000)
    # A whole game against the default opponents, as a newcomer's first game is played.
    _, out, _ = _run(capsys, "play", "--seed", "4", "--seat", "0")
    assert re.search(r"^  You (draw|take|meld|lay off|discard|pass) ", out, re.MULTILINE)
    assert re.search(r"^  East (draws|takes|melds|lays off|discards|passes) ", out, re.MULTILINE)
    assert not re.search(r"^  (You|North|East|South|West): ", out, re.MULTILINE)
    assert not re.search(r"^  You (draws|takes|melds|lays off|discards|passes) ", out, re.MULTILINE)


def test_play_with_one_option_says_so(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    # Seed 1: South's first turn has one option, the stock.
    _scripted(monkeypatch, "5\nquit\n")
    _, out, _ = _run(capsys, "play", "--seed", "1")
    assert "There is no option 5: the only option is 1." in out
    assert "choose 1 to 1" not in out


def test_r17_refusals_write_the_cards_as_the_screen_does(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # Seed 1: South draws the J♣, then names a card it does not hold and a card that is no card.
    _scripted(monkeypatch, "take 0\ndraw\nmeld 9s 9d 9h\nlayoff 9s 3\ndiscard 6x\nquit\n")
    _, out, _ = _run(capsys, "play", "--seed", "1", "--color", "never")
    assert "That is not allowed: R14: 2♠ cannot be melded or laid off at once" in out
    assert "I do not understand 'discard 6x'" in out
    refusals = [line for line in out.splitlines() if line.startswith(("That is not allowed", "I do not understand"))]
    assert len(refusals) == 4
    for line in refusals:
        # What the player typed is quoted as typed; the rest writes cards with their symbols.
        said = re.sub(r"'[^']*'", "", line)
        assert not re.search(r"(?<![A-Za-z0-9])[2-9TJQKA][shdc](?![A-Za-z0-9])", said), line


def test_style_in_text_writes_the_cards_of_a_message() -> None:
    assert Style().in_text("R14: 6s, Th and Jk; As or as") == "R14: 6♠, T♥ and Jk; A♠ or as"
    assert Style(symbols=False).in_text("R14: 6s") == "R14: 6s"
    assert Style(colour=True, symbols=True).in_text("Qd") == "\x1b[31mQ♦\x1b[0m"


@pytest.mark.parametrize("columns", [60, 80, 132])
def test_simulate_wraps_to_the_terminals_width(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], columns: int
) -> None:
    monkeypatch.setenv("COLUMNS", str(columns))
    _, out, _ = _run(capsys, "simulate", "--seed", "1", "--color", "never")
    turns = [line for line in out.splitlines() if line.startswith("  ") and not line.startswith("   ")]
    turn_lines = [line for line in out.splitlines() if re.match(r"\s+\d+\. |\s{8}\S", line)]
    assert turns and turn_lines
    assert max(len(line) for line in turn_lines) <= columns
    assert max(len(line) for line in turn_lines) > columns - 15  # filled, not wrapped short
    # The same game whatever the width.
    monkeypatch.delenv("COLUMNS")
    _, default, _ = _run(capsys, "simulate", "--seed", "1", "--color", "never")
    assert " ".join(out.split()) == " ".join(default.split())
    assert max(len(line) for line in default.splitlines() if re.match(r"\s+\d+\. ", line)) <= 100


def test_simulate_wraps_to_the_width_of_the_terminal_it_writes_to(monkeypatch: pytest.MonkeyPatch) -> None:
    import shutil

    from persian_rummy.cli import _options

    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    monkeypatch.delenv("COLUMNS", raising=False)
    monkeypatch.setattr(shutil, "get_terminal_size", lambda fallback=(80, 24): os.terminal_size((72, 24)))
    assert _options.output_width(Terminal()) == 72
    assert _options.output_width(io.StringIO()) == 100
    monkeypatch.setenv("COLUMNS", "10")
    assert _options.output_width(Terminal()) == 40  # never narrower than a card line needs


@pytest.mark.parametrize("command", ["simulate", "play", "replay", "serve"])
def test_every_subcommands_help_has_a_description_and_examples(
    capsys: pytest.CaptureFixture[str], command: str
) -> None:
    with pytest.raises(SystemExit) as exited:
        main([command, "--help"])
    assert exited.value.code == 0
    out = capsys.readouterr().out
    description = out.split("\n\n")[1]
    assert description[0].isupper() and description.rstrip().endswith(".")
    examples = out.split("examples:\n", 1)[1]
    assert f"persian-rummy {command}" in examples


def test_r5_the_seed_may_be_text_as_in_the_library(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "friday.prr"
    code, out, _ = _run(capsys, "simulate", "--seed", "friday game", "--save", str(path), "--color", "never")
    assert code == 0 and "seed friday game:" in out
    game = record.loads(path.read_text(encoding="utf-8"))
    final = play_game([GreedyBot()] * 4, "friday game").final
    assert list(game)[-1].scores == final.scores
    # A number is still a number: --seed 7 is the game of seed 7, not of the text "7".
    code, seven, _ = _run(capsys, "simulate", "--seed", "7", "--color", "never")
    result = sorted(int(number) for number in re.findall(r"-?\d+", seven.splitlines()[-1]))
    assert result == sorted(play_game([GreedyBot()] * 4, 7).final.scores) != sorted(final.scores)
    _scripted(monkeypatch, "quit\n")
    code, played, _ = _run(capsys, "play", "--seed", "friday game")
    assert code == 0 and "persian-rummy play --seed 'friday game' deals this game again" in played
    code, _, err = _run(capsys, "simulate", "--seed", "x", "--games", "2")
    assert code == 2 and "whole-number --seed" in err
    with pytest.raises(SystemExit):
        main(["simulate", "--seed", "x" * 500])
    assert "at most 200" in capsys.readouterr().err


# --- Ctrl-C during play --save -----------------------------------------------------------------


# ``python -m persian_rummy`` as a terminal starts it, with Ctrl-C raising KeyboardInterrupt.
# A program started with SIGINT ignored keeps it ignored (Python installs its handler only
# where SIGINT is at its default), and the child of a run launched as a shell's background job
# inherits it ignored: this puts back what a terminal gives.
_WITH_CTRL_C = (
    "import runpy, signal; signal.signal(signal.SIGINT, signal.default_int_handler); "
    "runpy.run_module('persian_rummy', run_name='__main__', alter_sys=True)"
)


@pytest.mark.thorough  # a fresh interpreter: CI runs it (docs/testing.rst)
def test_ctrl_c_during_play_saves_the_game(tmp_path: Path) -> None:
    # A real process, a real SIGINT while it waits at the prompt: the game is saved, and replays.
    path = tmp_path / "interrupted.prr"
    # PYTHONFAULTHANDLER: should the process not exit, SIGABRT makes it print where it is.
    env = {**os.environ, "PYTHONPATH": str(ROOT), "PYTHONUNBUFFERED": "1", "NO_COLOR": "1", "PYTHONFAULTHANDLER": "1"}
    process = subprocess.Popen(
        [sys.executable, "-c", _WITH_CTRL_C, "play", "--seed", "1", "--save", str(path)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=env,
        cwd=tmp_path,
        text=True,
        encoding="utf-8",
    )
    assert process.stdin is not None and process.stdout is not None
    seen: list[str] = []
    prompts = threading.Semaphore(0)

    def read() -> None:
        assert process.stdout is not None
        line = ""
        while char := process.stdout.read(1):
            line += char
            if line.endswith("Your move (number, action, help or quit): "):
                prompts.release()
            if char == "\n":
                seen.append(line)
                line = ""
        seen.append(line)

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    try:
        assert prompts.acquire(timeout=DEFAULT_LIMIT), "".join(seen)
        process.stdin.write("draw\n")
        process.stdin.flush()
        assert prompts.acquire(timeout=DEFAULT_LIMIT), "".join(seen)
        # Ctrl-C at the prompt, with no sleep to wait for the read: a SIGINT that lands after
        # input() wrote its prompt but before it began to read is only acted on once the read
        # returns, so an empty line (which the prompt ignores) follows it. Whichever comes
        # first, the interrupt is raised in input() before any other line is read.
        process.send_signal(signal.SIGINT)
        with contextlib.suppress(BrokenPipeError):
            process.stdin.write("\n")
            process.stdin.flush()
        try:
            code = process.wait(timeout=60)
        except subprocess.TimeoutExpired:
            process.send_signal(signal.SIGABRT)
            process.wait(timeout=30)
            stuck = process.stderr.read() if process.stderr else ""
            pytest.fail(f"no exit 60 s after Ctrl-C; output:\n{''.join(seen)}\nwhere it was:\n{stuck}")
    finally:
        if process.poll() is None:
            process.kill()
    reader.join(timeout=10)
    out = "".join(seen)
    assert code == 130, out + process.stderr.read() if process.stderr else out
    assert f"Saved the game record to {path}." in out and out.rstrip().endswith("Interrupted.")
    game = record.loads(path.read_text(encoding="utf-8"))
    assert game.scores is None  # unfinished
    actions = [item.action for deal in game.deals for item in deal.actions]
    assert DrawStock() in actions and len(actions) >= 3  # East's turn, then South's draw
    final = list(game)[-1]
    assert final.phase.is_live and final.current_player == 2
    replayed = subprocess.run(
        [sys.executable, "-m", "persian_rummy", "replay", str(path)],
        capture_output=True,
        env=env,
        text=True,
        encoding="utf-8",
        timeout=60,
        check=False,
    )
    assert replayed.returncode == 0 and "Traceback" not in replayed.stderr
    assert len(re.findall(r"^\d+\. ", replayed.stdout, re.MULTILINE)) == len(actions)


# --- The first hour, issue 38: the replay hint, the lay-off syntax, refusals said to "you" ----


@pytest.mark.parametrize(
    "options",
    [
        ["--bot", "neural"],
        ["--seat", "0", "--bot", "random", "mc:samples=2,horizon=2"],
        ["--rules", "deals=1", "--seat", "3"],
        ["--bot", "greedy", "random", "greedy", "random", "--rules", "last_card_discard=forbidden"],
    ],
)
def test_the_replay_hint_of_play_deals_the_same_game_again(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], options: list[str]
) -> None:
    """The hint names every option that shaped the game; `play --bot neural --seed 7` printed
    `persian-rummy play --seed 7`, which deals the same cards to greedy bots."""
    script = "1\n" * 40 + "quit\n"
    _scripted(monkeypatch, script)
    _, first, _ = _run(capsys, "play", "--seed", "7", "--color", "never", *options)
    hint = re.search(r"^Seed 7: (persian-rummy play .*) deals this game again\.$", first, re.MULTILINE)
    assert hint is not None, first
    words = shlex.split(hint[1])
    assert words[:4] == ["persian-rummy", "play", "--seed", "7"] and set(options) <= set(words)
    _scripted(monkeypatch, script)
    _, again, _ = _run(capsys, *words[1:], "--color", "never")
    assert again == first


def test_r16_the_play_help_and_the_parse_errors_write_each_action_alike() -> None:
    """Typing an action's keyword alone is refused with the very form the help shows (help
    said `lay off CARD MELD` where the error said `layoff CARD MELD`); both spellings parse."""
    from persian_rummy.cli._play import _HELP

    forms = [form.strip() for form in _HELP.splitlines()[1].split("|")]
    assert "lay off CARD MELD" in forms
    for form in forms:
        keyword = re.split(r" (?=[A-Z])", form)[0]
        if keyword == form:  # draw, pass: nothing to leave out
            continue
        with pytest.raises(NotationError) as caught:
            Action.parse(keyword)
        assert repr(form) in str(caught.value) and repr(form) in caught.value.reason, (form, caught.value)
    # The canonical spelling is answered in its own words.
    with pytest.raises(NotationError, match="expected 'layoff CARD MELD'"):
        Action.parse("layoff 9s")
    assert Action.parse("lay off 9s 0") == Action.parse("layoff 9s 0") == LayOff("9s", 0)


def test_r16_a_lay_off_without_its_meld_is_explained_in_the_helps_words(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _scripted(monkeypatch, "help\nlay off 9s\nquit\n")
    _, out, _ = _run(capsys, "play", "--seed", "1", "--color", "never")
    assert "lay off CARD MELD" in out.split("Other commands")[0]
    assert re.search(r"^I do not understand 'lay off 9s': .* expected 'lay off CARD MELD'", out, re.MULTILINE)


def _refusals() -> Iterator[tuple[PersianRummyError, int]]:
    # Every refusal of many candidate actions, tried by every seat, in positions of random
    # games under every rule set: what the command line and the browser table say to the
    # player who tried.
    from test_errors import CASES

    for _, state, action, _, _ in CASES:  # one of each kind of refusal, R19's included
        try:
            play(state, action)
        except PersianRummyError as error:
            yield error, state.current_player
    deck = [Card.parse(text) for text in ("2s", "9h", "Kd", "Ac", "Jk")]
    for number, rules in enumerate(RULE_SETS):
        for state, _ in itertools.islice(playout(number, rules), 0, 300, 11):
            melds = range(len(state.melds) + 1)
            candidates: list[Action] = [DrawStock(), Pass(), DrawDiscard(0), DrawDiscard(len(state.discard_pile))]
            candidates += [Discard(card) for card in deck] + [LayOff(card, meld) for card in deck for meld in melds]
            candidates += list(legal_actions(state))[:3]
            hand = list(state.hands[state.current_player])
            candidates += [Discard(card) for card in hand] + [MeldCards(hand[:3])] if len(hand) >= 3 else []
            for seat in range(4):
                for action in candidates:
                    try:
                        play(state, action, seat=seat)
                    except PersianRummyError as error:
                        yield error, seat


def test_r6_r12_r19_every_refusal_is_said_to_you() -> None:
    """A refusal is said to the player who tried: `you` for that seat, with the verb agreeing,
    never the seat's own name (an R12 refusal sent to North said "North has already drawn")."""
    said: set[str] = set()
    for error, seat in _refusals():
        text = addressed(error, seat)
        said.add(re.sub(r"\d+|[2-9TJQKA][♠♥♦♣]|Jk", "#", text))
        assert SEAT_NAMES[seat] not in text and "seat" not in text, (seat, error.reason, text)
        assert not re.search(r"\byou (has|does|is|was|holds|takes|leaves)\b|\b(their|they|the player)\b", text), text
    # Every kind of refusal that names the mover was met.
    for words in (
        "you have already drawn",
        "you must draw first",
        "you do not hold",
        "not yours",
        "you may pass only",
        "you would be left with a last card you may not discard",
        "would leave you one card",
    ):
        assert any(words in text for text in said), words
