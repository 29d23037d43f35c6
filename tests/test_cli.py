"""The command line: simulate, play (driven by scripted input) and replay."""

from __future__ import annotations

import builtins
import io
import os
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from persian_rummy import NotationError, Rules, record
from persian_rummy.arena import BotFactory, play_game
from persian_rummy.bots import GreedyBot
from persian_rummy.cli import main
from persian_rummy.presentation import Style


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def _scripted(monkeypatch: pytest.MonkeyPatch, text: str) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO(text))


def test_r7_simulate_prints_both_deals_and_the_engines_result(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _run(capsys, "simulate", "--seed", "1")
    assert code == 0
    assert "== Deal 1 of 2: North deals, East plays first ==" in out
    assert "== Deal 2 of 2: East deals, South plays first ==" in out
    assert out.count("Score sheet, deal") == 2
    first, second = play_game([GreedyBot()] * 4, 1).final.scores
    names = ("North-South", "East-West")
    best = 0 if first > second else 1
    assert out.rstrip().endswith(f"{names[best]} win, {max(first, second)} to {min(first, second)}.")
    # The itemised rows of the last sheet carry the running totals of the engine.
    rows = [line for line in out.splitlines() if line.startswith(("  North-South ", "  East-West "))]
    assert [int(row.split()[-1]) for row in rows[-2:]] == [first, second]
    assert "Traceback" not in out


def test_simulate_is_reproducible_and_seeded(capsys: pytest.CaptureFixture[str]) -> None:
    first = _run(capsys, "simulate", "--seed", "5", "--bot", "random")
    again = _run(capsys, "simulate", "--seed", "5", "--bot", "random")
    other = _run(capsys, "simulate", "--seed", "6", "--bot", "random")
    assert first == again
    assert first[1] != other[1]


def test_r16_simulate_names_the_credit_of_each_lay_off(capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = _run(capsys, "simulate", "--seed", "1")
    text = " ".join(out.split())  # undo the wrapping
    turns = re.split(r" \d+\. (?=(?:North|East|South|West): )", text)[1:]
    credits = 0
    for turn in turns:
        seat = turn.split(":", 1)[0]
        team = "North-South" if seat in ("North", "South") else "East-West"
        for credit in re.findall(r"lays off .*?credited to ([\w-]+)", turn):
            assert credit == team
            credits += 1
    assert credits > 0


def test_simulate_many_games_prints_statistics(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _run(capsys, "simulate", "--seed", "3", "--games", "6", "--bot", "greedy", "random")
    assert code == 0
    assert out.startswith("6 games (seeds 3-8), North-South greedy against East-West random")
    won = re.search(r"games won\s+(\d+) \(\s*\d+%\)\s+(\d+)", out)
    drawn = re.search(r"games drawn\s+(\d+)", out)
    assert won is not None and drawn is not None
    assert int(won[1]) + int(won[2]) + int(drawn[1]) == 6
    bounds = re.search(r"win rate, 95% interval\s+\[([\d.]+), ([\d.]+)\]\s+\[([\d.]+), ([\d.]+)\]", out)
    assert bounds is not None
    for team, (low, high) in enumerate(((bounds[1], bounds[2]), (bounds[3], bounds[4]))):
        assert float(low) <= int(won[team + 1]) / 6 <= float(high)


def test_simulate_bots_per_seat(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _run(capsys, "simulate", "--bot", "greedy", "random", "random", "greedy")
    assert code == 0
    assert "North greedy, East random, South random, West greedy" in out


@pytest.mark.parametrize(
    "argv",
    [
        ["simulate", "--bot", "clever"],
        ["simulate", "--bot", "greedy", "greedy", "greedy"],
        ["simulate", "--rules", "deals=0"],
        ["simulate", "--rules", "nonsense"],
        ["simulate", "--games", "0"],
        ["simulate", "--games", "1000001"],  # there is an upper bound
        ["simulate", "--games", "2", "--save", "x.prr"],
        # importable callables that are not bots: refused before the game, not a traceback in it
        ["simulate", "--bot", "os:system"],
        ["simulate", "--bot", "shutil:rmtree"],
        ["simulate", "--bot", "json:dumps", "greedy"],
        ["play", "--bot", "builtins:print"],
        ["play", "--bot", "clever"],
    ],
)
def test_bad_options_exit_2_with_a_message(capsys: pytest.CaptureFixture[str], argv: list[str]) -> None:
    code, out, err = _run(capsys, *argv)
    assert code == 2
    assert err.startswith("persian-rummy: ") and "Traceback" not in err and err.count("\n") == 1, err
    assert out == ""


def test_play_scripted_whole_game(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    # Bad input first (each must re-prompt), then always the first option until the game ends.
    script = "\n99\nfoo\nmeld 2s 3s 4s\ndiscard Qx\nhelp\ntable\n" + "1\n" * 3000
    _scripted(monkeypatch, script)
    # The bots' strength is not what is tested: greedy opponents play the game in a tenth of
    # the default's time (test_first_hour plays a whole game against the default).
    code, out, _ = _run(capsys, "play", "--seed", "2", "--seat", "2", "--bot", "greedy")
    assert code == 0
    assert "There is no option 99" in out
    assert "I do not understand 'foo'" in out
    assert "That is not allowed: R" in out
    refusal = next(line for line in out.splitlines() if line.startswith("That is not allowed: "))
    assert "hand" not in refusal and "[" not in refusal  # the reason, not the position (R27)
    assert "I do not understand 'discard Qx'" in out
    assert "Type the number of an action" in out  # help
    assert out.count("Score sheet, deal") == 2
    assert re.search(r"(North-South|East-West) win, -?\d+ to -?\d+\.|The game is a draw", out)
    assert "Traceback" not in out


def test_r27_play_never_names_a_bots_stock_card(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _scripted(monkeypatch, "1\n" * 3000)
    _, out, _ = _run(capsys, "play", "--seed", "4", "--seat", "0", "--bot", "greedy")
    bot_draws = re.findall(r"^  (?:East|South|West) draws(.*?) from the stock", out, re.MULTILINE)
    own_draws = re.findall(r"^  You draw(.*?) from the stock", out, re.MULTILINE)
    assert bot_draws and own_draws
    assert set(bot_draws) == {""}
    assert all(re.fullmatch(r" \S+", what) for what in own_draws)
    # The other hands appear only once each deal is over.
    assert "Your hand:" in out


def test_play_accepts_action_text(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    # Seed 1: South (seat 2) holds 9s Ks Jh 4d 9d 7c Kc and draws first on turn 2.
    _scripted(monkeypatch, "draw\ndiscard 4d\nquit\n")
    code, out, _ = _run(capsys, "play", "--seed", "1", "--seat", "2")
    assert code == 0
    assert "  You draw " in out and "  You discard 4♦" in out
    assert out.rstrip().endswith("Goodbye.")


def test_play_end_of_input_and_interrupt_exit_cleanly(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _scripted(monkeypatch, "")
    code, out, _ = _run(capsys, "play", "--seed", "1")
    assert code == 0 and out.rstrip().endswith("Goodbye.")

    def interrupt(prompt: str = "") -> str:
        raise KeyboardInterrupt

    monkeypatch.setattr(builtins, "input", interrupt)
    code, out, _ = _run(capsys, "play", "--seed", "1")
    assert code == 130 and out.rstrip().endswith("Interrupted.") and "Traceback" not in out


def test_save_then_replay(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "game.prr"
    code, out, _ = _run(capsys, "simulate", "--seed", "3", "--save", str(path))
    assert code == 0 and f"Saved the game record to {path}." in out
    game = record.loads(path.read_text(encoding="utf-8"))
    final = list(game)[-1]
    assert final.scores == game.scores
    code, replayed, _ = _run(capsys, "replay", str(path))
    assert code == 0
    actions = sum(len(deal.actions) for deal in game.deals)
    assert len(re.findall(r"^\d+\. (North|East|South|West) ", replayed, re.MULTILINE)) == actions
    result = out.strip().splitlines()[-2]
    assert replayed.rstrip().endswith(result)
    # Stepping: Enter shows the next action, q stops.
    _scripted(monkeypatch, "\n\nq\n")
    code, stepped, _ = _run(capsys, "replay", "--step", str(path))
    assert code == 0
    assert len(re.findall(r"^\d+\. ", stepped, re.MULTILINE)) == 2


def test_play_saves_a_replayable_record(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "mine.prr"
    _scripted(monkeypatch, "1\n" * 6 + "quit\n")
    code, out, _ = _run(capsys, "play", "--seed", "9", "--save", str(path))
    assert code == 0 and "Saved the game record" in out
    game = record.loads(path.read_text(encoding="utf-8"))
    assert game.scores is None  # unfinished: the player quit
    assert sum(len(deal.actions) for deal in game.deals) > 6
    assert list(game)[-1].phase.is_live


def test_replay_of_a_missing_or_broken_file(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, _, err = _run(capsys, "replay", str(tmp_path / "nothing.prr"))
    assert code == 2 and "cannot read" in err
    broken = tmp_path / "broken.prr"
    broken.write_text("this is not a record\n", encoding="utf-8")
    code, _, err = _run(capsys, "replay", str(broken))
    assert code == 2 and "not a valid game record" in err


def test_colour_only_on_a_terminal_without_no_color(monkeypatch: pytest.MonkeyPatch) -> None:
    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    monkeypatch.delenv("NO_COLOR", raising=False)
    assert Style.for_stream(Terminal()).colour
    monkeypatch.setenv("NO_COLOR", "1")
    assert not Style.for_stream(Terminal()).colour
    assert Style.for_stream(Terminal(), "always").colour
    assert not Style.for_stream(io.StringIO()).colour


def test_python_dash_m_runs_the_readme_command() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "persian_rummy", "simulate", "--seed", "1"],
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "Score sheet, deal 2" in done.stdout and "\x1b[" not in done.stdout


def test_r27_replay_of_a_redacted_record_shows_only_the_viewers_cards(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    full = tmp_path / "full.prr"
    _run(capsys, "simulate", "--seed", "3", "--save", str(full))
    game = record.loads(full.read_text(encoding="utf-8"))
    redacted = tmp_path / "south.prr"
    redacted.write_text(record.dumps(game.redact(2)), encoding="utf-8")
    code, out, _ = _run(capsys, "replay", str(redacted))
    assert code == 0
    assert out.startswith(f"Game record {redacted}, as South saw it")
    played = out.split("Score sheet, deal 1")[0]
    others = re.findall(r"^  (?:North|East|West) +\d+ cards? +(.*)$", played, re.MULTILINE)
    assert others and all(not re.search(r"[2-9TJQKA][♠♥♦♣]|Jk", rest) for rest in others[:-3])
    # Once the deal is over every hand is shown (R23), with the same score sheet as the full record.
    _, full_out, _ = _run(capsys, "replay", str(full))
    sheet = re.compile(r"^Score sheet, deal \d.*?(?=^\S)", re.MULTILINE | re.DOTALL)
    assert len(sheet.findall(out)) == 2
    assert sheet.findall(out) == sheet.findall(full_out)
    assert out.rstrip().splitlines()[-1] == full_out.rstrip().splitlines()[-1]


def test_progress_bar_and_many_games_on_a_terminal(capsys: pytest.CaptureFixture[str]) -> None:
    from persian_rummy import Rules
    from persian_rummy.cli._simulate import _summarise

    bar = io.StringIO()
    finals = _summarise(1, 3, ["random"], Rules(deals=1), io.StringIO(), bar)
    assert len(finals) == 3
    frames = bar.getvalue().split("\r")[1:]
    assert [frame.split("] ")[1].split(" games")[0] for frame in frames] == ["1/3", "2/3", "3/3"]
    assert bar.getvalue().endswith("\n")


def test_interactive_prompts_are_not_echoed(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    monkeypatch.setattr(sys, "stdin", Terminal("quit\n"))
    code, out, _ = _run(capsys, "play", "--seed", "1")
    assert code == 0 and "\nquit\n" not in out and out.rstrip().endswith("Goodbye.")


def test_play_a_whole_game_and_save_it(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "whole.prr"
    _scripted(monkeypatch, "1\n" * 3000)
    code, out, _ = _run(capsys, "play", "--seed", "5", "--seat", "1", "--bot", "greedy", "--save", str(path))
    assert code == 0 and out.rstrip().endswith(f"Saved the game record to {path}.")
    game = record.loads(path.read_text(encoding="utf-8"))
    assert game.scores is not None and list(game)[-1].scores == game.scores


def test_replay_of_an_unfinished_game_and_end_of_input_while_stepping(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "part.prr"
    _scripted(monkeypatch, "1\n" * 4 + "quit\n")
    _run(capsys, "play", "--seed", "9", "--save", str(path))
    code, out, _ = _run(capsys, "replay", str(path))
    assert code == 0 and " win, " not in out and "draw," not in out
    _scripted(monkeypatch, "\n")
    code, out, _ = _run(capsys, "replay", "--step", str(path))
    assert code == 0 and len(re.findall(r"^\d+\. ", out, re.MULTILINE)) == 1


def test_a_closed_pipe_ends_quietly(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    from persian_rummy.cli import _simulate

    def closed(*args: object, **kwargs: object) -> None:
        raise BrokenPipeError

    monkeypatch.setattr(_simulate, "_print_game", closed)
    with (tmp_path / "out.txt").open("w", encoding="utf-8") as stream:
        monkeypatch.setattr(sys, "stdout", stream)
        assert main(["simulate"]) == 0
    monkeypatch.setattr(sys, "stdout", io.StringIO())  # no file descriptor at all
    assert main(["simulate"]) == 0


@pytest.mark.parametrize("command", [["simulate"], ["play"]])
def test_save_to_a_path_that_cannot_be_written_exits_2_with_a_message(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path, command: list[str]
) -> None:
    _scripted(monkeypatch, "quit\n")
    target = tmp_path / "no such folder" / "game.prr"
    code, _, err = _run(capsys, *command, "--seed", "1", "--save", str(target))
    assert code == 2
    assert err == f"persian-rummy: cannot write {target}: No such file or directory\n"


def test_play_rejects_an_option_number_in_non_decimal_digits(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # "²" is a digit to str.isdigit but int() rejects it: it once ended the game with a traceback.
    _scripted(monkeypatch, "²\n" + "9" * 5000 + "\nquit\n")
    code, out, _ = _run(capsys, "play", "--seed", "1")
    assert code == 0
    assert "I do not understand '²'" in out and out.rstrip().endswith("Goodbye.")
    # Past int()'s limit on digits: once a bare ValueError.
    assert f"There is no option {'9' * 20}...: the only option is 1." in out


def test_play_deals_a_random_seed_and_prints_it_so_the_game_can_be_replayed(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _scripted(monkeypatch, "")
    _, first, _ = _run(capsys, "play")
    _scripted(monkeypatch, "")
    _, second, _ = _run(capsys, "play")
    seeds = [int(re.search(r"^Seed (\d+): persian-rummy play --seed \1 deals this game again\.$", out, re.MULTILINE)[1]) for out in (first, second)]  # type: ignore[index]  # fmt: skip
    # Two games in a row are two deals (a collision has odds of one in a million).
    assert seeds[0] != seeds[1]
    _scripted(monkeypatch, "")
    _, again, _ = _run(capsys, "play", "--seed", str(seeds[0]))
    assert again == first


def test_play_seed_deals_as_simulate_seed(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    # South's hand on the first prompt is South's hand of the same seed's simulated game.
    _scripted(monkeypatch, "")
    _, played, _ = _run(capsys, "play", "--seed", "1")
    _, simulated, _ = _run(capsys, "simulate", "--seed", "1")
    south = re.search(r"^  South  (.+)$", simulated, re.MULTILINE)[1]  # type: ignore[index]
    assert f"Your hand: {south}" in played


def test_r19_simulate_ends_each_turn_with_the_players_hand_size(capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = _run(capsys, "simulate", "--seed", "1")
    turns = re.findall(r"^ +\d+\. (\w+): (.*?) \[(\d+) cards?\]$", out.replace("\n        ", " "), re.MULTILINE)
    assert len(turns) == len(re.findall(r"^ +\d+\. ", out, re.MULTILINE))
    assert turns[0] == ("East", "draws A♦ from the stock; discards T♣", "7")
    # North discards its last card on turn 8 and stays in with none (R19).
    assert ("North", "0") in {(seat, held) for seat, _, held in turns}


def test_r14_simulate_says_whether_the_card_taken_was_melded_or_laid_off(capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = _run(capsys, "simulate", "--seed", "1")
    out = out.replace("\n        ", " ")
    laid = re.search(
        r"takes (\S+) .*?from the discard pile \(the \1 to be laid off at once, R14\); lays off \1 on", out
    )
    melded = re.search(r"takes (\S+) .*?from the discard pile \(the \1 to be melded at once, R14\); melds ", out)
    assert laid and melded
    assert "must be melded now" not in out


def test_simulate_plays_the_neural_bot(capsys: pytest.CaptureFixture[str]) -> None:
    """--bot neural is the shipped policy; other rules are refused before anything is printed (R7)."""
    code, out, _ = _run(capsys, "simulate", "--games", "2", "--bot", "neural", "greedy", "--no-progress")
    assert code == 0 and "neural" in out
    code, out, err = _run(capsys, "simulate", "--rules", "deals=1", "--bot", "neural")
    assert code == 2 and out == "" and "persian-rummy train --rules 'deals=1'" in err


def test_a_users_own_bot_plays_from_its_module(capsys: pytest.CaptureFixture[str]) -> None:
    """--bot package.module:name imports the user's bot (or class, or factory) and plays it."""
    code, out, err = _run(capsys, "simulate", "--bot", "persian_rummy.bots:GreedyBot", "random", "--color", "never")
    header = " ".join(out.split("\nPartners")[0].split())  # the header wraps to the output's width
    assert code == 0 and "North-South persian_rummy.bots:GreedyBot against East-West random" in header
    # GreedyBot says it is made from each seat's seed (made_from_seed): no warning, no guess.
    assert err == ""
    for spec, message in [
        ("no_such_module_here.sub:make", "neither in the current folder"),
        ("persian_rummy.bots:NoSuchBot", "has no 'NoSuchBot'"),
        ("persian_rummy.bots:BUDGET_LIMIT", "not 1000000"),
        ("persian_rummy.bots:make_bot.x-y", "expected module:name"),
        # A function of one argument is a bot, whatever its annotation: called with the view,
        # it says what it was given.
        ("persian_rummy.encoding:int_to_action", "an action index is a whole number, not a PlayerView"),
    ]:
        code, _, err = _run(capsys, "simulate", "--bot", spec)
        assert code == 2 and message in err and err.count("\n") == 1, (spec, err)


@pytest.mark.parametrize("columns", ["80", "100"])
def test_simulate_fits_the_terminals_width(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], columns: str
) -> None:
    # The header, the turns and the score sheets all fit a terminal of 80 columns and up.
    monkeypatch.setenv("COLUMNS", columns)
    code, out, _ = _run(capsys, "simulate", "--seed", "1", "--color", "never")
    assert code == 0
    widest = max(out.splitlines(), key=len)
    assert len(widest) <= int(columns), widest


def test_play_offers_the_levels_in_its_help(capsys: pytest.CaptureFixture[str]) -> None:
    from persian_rummy.bots import DEFAULT_LEVEL, LEVELS

    with pytest.raises(SystemExit):
        main(["play", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert f"--level {{{','.join(LEVELS)}}}" in text
    for name, level in LEVELS.items():
        assert f"{name} {level.description}" in text
    assert f"against {DEFAULT_LEVEL} bots" in text


def test_play_plays_the_level_chosen_and_the_default_level_otherwise(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from persian_rummy.bots import DEFAULT_LEVEL
    from persian_rummy.cli import _play

    asked: list[list[str]] = []
    real = _play.bots_for

    def recording(specs: list[str], rules: object = None) -> object:
        asked.append(list(specs))
        return real(specs, rules)  # type: ignore[arg-type]

    monkeypatch.setattr(_play, "bots_for", recording)
    for argv, expected in [([], [DEFAULT_LEVEL]), (["--level", "easy"], ["easy"]), (["--bot", "mc"], ["mc"])]:
        _scripted(monkeypatch, "quit\n")
        code, out, _ = _run(capsys, "play", "--seed", "1", *argv)
        assert code == 0 and out.rstrip().endswith("Goodbye.")
        assert asked[-1] == expected
    # simulate keeps greedy bots as its default
    code, out, _ = _run(capsys, "simulate", "--seed", "1", "--color", "never")
    assert code == 0 and "greedy against" in " ".join(out.split())


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--level", "easy", "--bot", "mc"], "give the bots by --bot or by --level, not both"),
        (["--level", "grandmaster"], "invalid choice: 'grandmaster'"),
        (["--bot", "easy:samples=2"], "the level 'easy' takes no knobs"),
    ],
)
def test_play_refuses_levels_it_cannot_play(capsys: pytest.CaptureFixture[str], argv: list[str], message: str) -> None:
    try:
        code, out, err = _run(capsys, "play", "--seed", "1", *argv)
    except SystemExit as leaving:  # argparse's own refusal
        code, err = int(str(leaving.code)), capsys.readouterr().err
        out = ""
    assert code == 2 and message in err and out == ""


def test_r27_play_hands_the_expert_level_its_information_state(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A bot that reads the public history is handed its seat's information state, as in the
    arena; the others their view."""
    from persian_rummy import InfoState, PlayerView
    from persian_rummy.cli import _play

    seen: list[tuple[int, type]] = []

    class Recorder:
        takes_info_state = True

        def __init__(self, seat: int) -> None:
            self.seat = seat

        def __call__(self, given: PlayerView | InfoState) -> object:
            seen.append((self.seat, type(given)))
            view = given.view if isinstance(given, InfoState) else given
            return GreedyBot()(view)

    monkeypatch.setattr(_play, "bots_for", lambda specs, rules=None: [Recorder(seat) for seat in range(4)])
    _scripted(monkeypatch, "1\n" * 12 + "quit\n")
    code, _, _ = _run(capsys, "play", "--seed", "3", "--seat", "2")
    assert code == 0 and seen
    assert {kind for _, kind in seen} == {InfoState} and 2 not in {seat for seat, _ in seen}


# --- A user's own bot from the current folder (issue 38) -------------------------------------

MYBOTS = {
    "plain.py": "from persian_rummy import legal_actions\n\ndef my_bot(view):\n    return legal_actions(view)[0]\n",
    "tiny.py": (
        "from persian_rummy.arena import BotFactory\nfrom persian_rummy.bots import GreedyBot\n\n"
        "def greedy(seed):\n    return GreedyBot(seed)\n\nmake = BotFactory(greedy)\n"
    ),
    "tiny2.py": (
        "from persian_rummy import legal_actions\n\nclass Cls:\n    def __call__(self, view):\n"
        "        return legal_actions(view)[-1]\n\nclass NeedsDepth(Cls):\n    def __init__(self, depth):\n"
        "        self.depth = depth\n"
    ),
    "shapes.py": (
        "from persian_rummy.bots import GreedyBot\n\nNUMBER = 3\n\ndef nothing():\n    return None\n\n"
        "def unannotated_factory(number):\n    return GreedyBot(number)\n\n"
        "def old_factory(seed: int) -> GreedyBot:\n    return GreedyBot(seed)\n\n"
        "class Loose:\n    def __init__(self, number=0):\n        self.number = number\n\n"
        "    def __call__(self, view):\n        return view.legal_actions()[0]\n\n"
        "def loose_factory(number: int) -> Loose:\n    return Loose(number)\n"
    ),
    "broken.py": "import no_such_dependency_of_mybots\n",
}


def _game(out: str) -> str:
    # The game simulate prints, after its header (which names the bots, wrapped to the width).
    return out[out.index("Partners sit opposite") :]


@pytest.fixture
def mybots(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A folder ``mybots`` of bot modules in the current folder, as a newcomer writes them."""

    folder = tmp_path / "mybots"
    folder.mkdir()
    for name, text in MYBOTS.items():
        (folder / name).write_text(text, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    for name in [name for name in sys.modules if name == "mybots" or name.startswith("mybots.")]:
        monkeypatch.delitem(sys.modules, name)
    yield tmp_path
    for name in [name for name in sys.modules if name == "mybots" or name.startswith("mybots.")]:
        del sys.modules[name]


@pytest.mark.parametrize("spec", ["mybots.plain:my_bot", "mybots.tiny:make", "mybots.tiny2:Cls"])
def test_a_users_bot_in_the_current_folder_plays_as_python_m_finds_it(
    mybots: Path, capsys: pytest.CaptureFixture[str], spec: str
) -> None:
    """A plain function, a BotFactory and a class with __call__ all play; the module is found
    in the current folder without PYTHONPATH, and the import path is left as it was."""
    path = list(sys.path)
    code, out, err = _run(capsys, "simulate", "--seed", "2", "--bot", spec, "greedy", "--color", "never")
    assert code == 0 and err == "", err
    assert "Score sheet" in out and sys.path == path


def test_a_bot_factory_in_a_module_makes_the_bots_the_name_makes(
    mybots: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    by_name = _run(capsys, "simulate", "--seed", "4", "--bot", "greedy", "random", "--color", "never")[1]
    made = _run(capsys, "simulate", "--seed", "4", "--bot", "mybots.tiny:make", "random", "--color", "never")[1]
    assert _game(made) == _game(by_name)


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("mybots.nowhere:bot", "names the module mybots.nowhere, which is neither in the current folder"),
        ("mybots.broken:bot", "cannot be imported: No module named 'no_such_dependency_of_mybots'"),
        ("mybots.plain:missing", "the module mybots.plain has no 'missing'"),
        ("mybots.tiny2:NeedsDepth", "mybots.tiny2.NeedsDepth cannot be made without arguments"),
        ("mybots.shapes:NUMBER", "a bot spec is a bot's name, a BotFactory, a class of bots or a bot"),
        ("mybots.shapes:nothing", "the function mybots.shapes.nothing cannot be called with a view alone"),
    ],
)
def test_every_wrong_shape_of_a_users_bot_is_one_clear_line(
    mybots: Path, capsys: pytest.CaptureFixture[str], spec: str, message: str
) -> None:
    code, out, err = _run(capsys, "simulate", "--bot", spec)
    assert code == 2 and out == "" and err.startswith("persian-rummy: ") and err.count("\n") == 1, err
    assert message in err, err


def test_a_factory_without_annotations_is_played_as_a_bot_and_says_to_write_bot_factory(
    mybots: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # It is a bot by its shape (a function of one argument): GreedyBot, handed the view for a
    # seed, says what happened and what to write, in one line.
    code, _, err = _run(capsys, "simulate", "--bot", "mybots.shapes:unannotated_factory")
    assert code == 2 and err.count("\n") == 1, err
    assert "was played as a bot (called with the view); give it as BotFactory(function)" in err


def test_a_factory_of_a_seed_in_a_module_plays_as_the_help_spells_it(
    mybots: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 50 item 1: --help offers module:name for a function that makes a bot; given
    def old_factory(seed) -> GreedyBot, each seat's bot is made from its seed: the game the
    name greedy plays, where the factory was once played as a bot and stopped the game."""
    by_name = _run(capsys, "simulate", "--seed", "4", "--bot", "greedy", "random", "--color", "never")[1]
    code, made, err = _run(
        capsys, "simulate", "--seed", "4", "--bot", "mybots.shapes:old_factory", "random", "--color", "never"
    )
    assert code == 0 and err == "" and _game(made) == _game(by_name)
    with pytest.raises(SystemExit):
        main(["simulate", "--help"])
    assert "function of a seed that makes one" in " ".join(capsys.readouterr().out.split())


@pytest.mark.parametrize("command", ["simulate", "play"])
def test_a_factory_whose_bots_take_anything_says_it_returned_a_bot(
    mybots: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, command: str
) -> None:
    # A factory whose parameter is not named seed is a bot by its shape; Loose(view) does not
    # check its argument: the factory's result reaches the game as a move.
    _scripted(monkeypatch, "1\n" * 40 + "quit\n")
    args = ["--seat", "0"] if command == "play" else []
    code, out, err = _run(capsys, command, "--seed", "4", *args, "--bot", "mybots.shapes:loose_factory")
    if command == "play":  # the game is saved, not lost (issue 50 item 4), and the message is the game's
        assert code == 2 and err == "" and "Your game is not lost: persian-rummy play --resume" in out
        err = out.split("The game stopped: ")[1].split("\n")[0] + "\n"
    assert code == 2 and err.count("\n") == 1, err
    assert "(loose_factory) returned " in err and "a bot, not an action" in err
    assert "give it as BotFactory(loose_factory)" in err


def test_a_bundled_bot_class_in_a_module_is_made_from_each_seats_seed(
    mybots: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    by_class = _run(capsys, "simulate", "--seed", "4", "--bot", "persian_rummy.bots:GreedyBot", "random")[1]
    made = _run(capsys, "simulate", "--seed", "4", "--bot", "mybots.tiny:make", "random")[1]
    assert _game(by_class) == _game(made)


def test_the_command_finds_a_bot_in_the_current_folder_without_pythonpath(mybots: Path) -> None:
    """As a newcomer runs it: a fresh process in the folder that holds mybots/, no PYTHONPATH."""
    env = {key: value for key, value in os.environ.items() if key != "PYTHONPATH"}
    root = str(Path(__file__).resolve().parent.parent)
    script = f"import sys; sys.path.insert(1, {root!r}); from persian_rummy.cli import main; sys.exit(main())"
    done = subprocess.run(
        [sys.executable, "-c", script, "simulate", "--games", "2", "--bot", "mybots.tiny2:Cls", "--no-progress"],
        capture_output=True,
        text=True,
        env=env,
        cwd=mybots,
        timeout=120,
    )
    assert done.returncode == 0 and "2 games" in done.stdout, done.stderr


# --- A trained player's file (issue 37) -------------------------------------------------------


@pytest.fixture
def trained(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A folder ``my-player`` holding a policy file, as ``persian-rummy train --out my-player``
    leaves one (the shipped policy's bytes), in the current folder."""
    from persian_rummy.policy import shipped_policy_path

    (tmp_path / "my-player").mkdir()
    (tmp_path / "my-player" / "policy.npz").write_bytes(shipped_policy_path().read_bytes())
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_a_trained_players_file_plays_by_its_path_as_the_policy_in_it(
    trained: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``--bot my-player/policy.npz`` plays the learned player of that file: the same game as
    the shipped policy's, which the file holds."""
    code, by_path, err = _run(capsys, "simulate", "--seed", "5", "--bot", "my-player/policy.npz", "greedy")
    assert code == 0 and err == "", err
    by_name = _run(capsys, "simulate", "--seed", "5", "--bot", "neural", "greedy")[1]
    assert _game(by_path) == _game(by_name)


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("my-player/nothing.npz", "the policy file 'my-player/nothing.npz' cannot be read"),
        ("README.npz", "is not a regular file (a folder"),
    ],
)
def test_a_policy_file_that_is_not_there_is_one_clear_line(
    trained: Path, capsys: pytest.CaptureFixture[str], spec: str, message: str
) -> None:
    (trained / "README.npz").mkdir()  # a folder, not a file
    code, out, err = _run(capsys, "simulate", "--bot", spec)
    assert code == 2 and out == "" and err.startswith("persian-rummy: ") and err.count("\n") == 1, err
    assert message in err, err


def test_a_policy_file_for_other_rules_is_refused_before_the_game(
    trained: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = _run(capsys, "simulate", "--bot", "my-player/policy.npz", "--rules", "deals=1")
    assert code == 2 and out == "" and "trained for the rules 'default', not 'deals=1'" in err, err


# --- A first bot in every spelling (issue 50 items 1-6) --------------------------------------

FIRST_BOTS = (
    "from persian_rummy import legal_actions\nfrom persian_rummy.bots import GreedyBot\n\n"
    "def my_bot(view):\n    return legal_actions(view)[0]\n\n"
    "def factory(seed):\n    return GreedyBot(seed)\n\n"
    "def answers_none(view):\n    return None\n\n"
    "def illegal(view):\n    return 'discard Jk' if view.phase.value == 'draw' else legal_actions(view)[0]\n\n"
    "class Clever:\n    def __init__(self, seed=0):\n        self.bot = GreedyBot(seed)\n\n"
    "    def __call__(self, view):\n        return self.bot(view)\n"
)


@pytest.fixture
def first_bots(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A newcomer's ``mybots.py`` in the current folder (one module, not a package)."""
    (tmp_path / "mybots.py").write_text(FIRST_BOTS, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    monkeypatch.delitem(sys.modules, "mybots", raising=False)
    yield tmp_path
    sys.modules.pop("mybots", None)


def test_the_files_name_spells_its_module(first_bots: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 50 item 2: --bot mybots.py:my_bot, as `python mybots.py` spells the file, plays
    mybots:my_bot; a file that is not there is said to be missing, by its name."""
    by_module = _run(capsys, "simulate", "--seed", "3", "--bot", "mybots:my_bot", "greedy", "--color", "never")
    by_file = _run(capsys, "simulate", "--seed", "3", "--bot", "mybots.py:my_bot", "greedy", "--color", "never")
    assert by_module[0] == by_file[0] == 0 and _game(by_file[1]) == _game(by_module[1])
    code, out, err = _run(capsys, "simulate", "--bot", "mybot.py:my_bot")
    assert code == 2 and out == "" and err.count("\n") == 1
    assert "names the file mybot.py, which is not in the current folder" in err


@pytest.mark.parametrize("spec", ["mybots", "mybots.py"])
def test_a_module_named_as_a_bot_says_to_name_the_bot_in_it(
    first_bots: Path, capsys: pytest.CaptureFixture[str], spec: str
) -> None:
    """Issue 50 item 3: --bot mybots, when mybots.py is in the current folder, says to name the
    bot in it (mybots:NAME), in one line before anything is played; a name that is neither a
    bot nor a module says only what the bots are."""
    code, out, err = _run(capsys, "simulate", "--bot", spec)
    assert code == 2 and out == "" and err.count("\n") == 1
    assert "mybots is a module in the current folder: name the bot in it, as mybots:NAME" in err
    code, _, err = _run(capsys, "simulate", "--bot", "yourbots")
    assert code == 2 and "is not a bot (expected one of" in err and "module" not in err


def test_a_class_that_takes_a_seed_plays_from_the_command_line(
    first_bots: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 50 items 1 and 5 at the command line: mybots:Clever (def __init__(self, seed=0))
    and mybots:factory (def factory(seed)) each make the seat's bot from its seed: the game
    greedy plays."""
    by_name = _game(_run(capsys, "simulate", "--seed", "4", "--bot", "greedy", "random", "--color", "never")[1])
    for spec in ("mybots:Clever", "mybots:factory", "mybots.py:Clever"):
        code, out, err = _run(capsys, "simulate", "--seed", "4", "--bot", spec, "random", "--color", "never")
        assert code == 0 and err == "" and _game(out) == by_name, spec


def test_the_library_takes_the_command_lines_spellings(first_bots: Path) -> None:
    """Issue 50 item 6: wherever the library takes a bot's name (run_match, round_robin,
    build_bot, check_bot_spec) it takes mybots:my_bot and mybots.py:my_bot, in other processes
    too, and refuses a wrong one naming the spec."""
    from persian_rummy.arena import build_bot, check_bot_spec, round_robin, run_match

    by_object = run_match(BotFactory(GreedyBot), "greedy", games=2, seed=1, workers=1)
    for workers in (1, 2):
        match = run_match("mybots:Clever", "greedy", games=2, seed=1, workers=workers)
        assert match.sides == ("mybots:Clever", "greedy") and match.games == by_object.games
    assert run_match("mybots.py:my_bot", "greedy", games=2, workers=1).sides[0] == "mybots.py:my_bot"
    standings = round_robin(["mybots:my_bot", "greedy"], 2, workers=1)
    assert sorted(row.name for row in standings.rows) == ["greedy", "mybots:my_bot"]
    assert repr(build_bot("mybots:factory", 7)) == "GreedyBot(seed=7)"
    assert check_bot_spec("mybots:my_bot") == "mybots:my_bot"
    with pytest.raises(NotationError, match="the module mybots has no 'nobody'"):
        run_match("mybots:nobody", "greedy", games=2, workers=1)
    with pytest.raises(NotationError, match="mybots is a module in the current folder"):
        run_match("mybots", "greedy", games=2, workers=1)


def test_a_bot_that_answers_what_cannot_be_played_is_named_with_its_seat(
    first_bots: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 50 item 4: a bot that answers None or an illegal action stops simulate (and a
    match) with one line that names the bot by its spec, its seat and its answer, then the
    rules' refusal; the exception is the one play raises."""
    from persian_rummy import ArgumentTypeError, IllegalActionError
    from persian_rummy.arena import run_match

    for spec, said in (("mybots:answers_none", "answered None: expected an Action"), ("mybots:illegal", "R12")):
        code, _, err = _run(capsys, "simulate", "--seed", "1", "--bot", "greedy", spec, "--color", "never")
        assert code == 2 and err.count("\n") == 1, err
        assert f"the bot {spec} at seat 1 (East) answered " in err and said in err
    with pytest.raises(ArgumentTypeError, match=r"the bot mybots:answers_none at seat [13] \(\w+\) answered None"):
        run_match("greedy", "mybots:answers_none", games=2, workers=1)
    with pytest.raises(IllegalActionError, match=r"the bot mybots:illegal at seat [13] \(\w+\) answered 'discard Jk'"):
        run_match("greedy", "mybots:illegal", games=2, workers=1)


@pytest.mark.parametrize("save", [None, "mine.prr"])
def test_play_saves_the_game_a_bot_fails_in_and_resumes_it(
    first_bots: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, save: str | None
) -> None:
    """Issue 50 item 4: in play, a bot that answers None does not cost the person the game:
    it is saved (to --save, else to a new file in the current folder), the message says where
    and how to go on, and play --resume goes on with every action played so far."""
    from persian_rummy.record import load

    _scripted(monkeypatch, "1\n" * 30 + "quit\n")
    saving = [] if save is None else ["--save", save]
    code, out, _ = _run(capsys, "play", "--seed", "5", "--bot", "greedy", "mybots:answers_none", *saving)
    path = first_bots / (save or "persian-rummy-5.prr")
    assert code == 2 and path.is_file()
    assert "The game stopped: the bot mybots:answers_none at seat 1 (East) answered None" in out
    assert f"Saved the game record to {path.name}." in out
    resume = f"persian-rummy play --resume {path.name} --bot greedy mybots:answers_none goes on with it"
    assert resume in out
    with path.open(encoding="utf-8") as file:
        saved = load(file)
    _scripted(monkeypatch, "1\n" * 8 + "quit\n")
    code, out, err = _run(capsys, "play", "--resume", path.name, "--bot", "greedy", "--save", "after.prr")
    assert code == 0 and err == "" and "Goodbye." in out, err
    with (first_bots / "after.prr").open(encoding="utf-8") as file:
        after = load(file)
    played, before = after.deals[0].actions, saved.deals[0].actions
    assert len(played) > len(before) and played[: len(before)] == before
    code, _, err = _run(capsys, "play", "--resume", path.name, "--seed", "5")
    assert code == 2 and "give --seed or --resume, not both" in err


def test_play_names_the_level_and_shows_a_bot_thinking(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 50 item 11: play says which level the person plays against (or which bots), and
    on a terminal a line says which bot is thinking while it does, cleared when it answers."""
    from persian_rummy.cli._play import _play

    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    _scripted(monkeypatch, "quit\n")
    code, out, _ = _run(capsys, "play", "--seed", "2", "--level", "easy")
    assert code == 0 and "You play against the easy level; your partner plays it too. Gentle:" in out
    assert "is thinking" not in out  # not a terminal: nothing to clear
    _scripted(monkeypatch, "quit\n")
    assert _run(capsys, "play", "--seed", "2", "--bot", "greedy", "random")[1].count("The bots: North-South") == 1
    _scripted(monkeypatch, "1\nquit\n")
    terminal = Terminal()
    assert _play(2, 2, ["easy"], Rules(), terminal, Style.for_stream(terminal, "never")) == 0
    shown = terminal.getvalue()
    assert "  East is thinking...\r\x1b[K  East draws" in shown  # East plays before South
