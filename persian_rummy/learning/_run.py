"""A training run: iterate, checkpoint, evaluate, stop cleanly on Ctrl-C."""

from __future__ import annotations

import functools
import json
import math
import os
import signal
import textwrap
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from types import FrameType
from typing import Any, Final, NamedTuple

import attrs
import jax

from persian_rummy.arena import BotFactory, run_match
from persian_rummy.errors import InvalidArgumentError, counted, excerpt
from persian_rummy.learning._checkpoint import load_checkpoint, save_checkpoint
from persian_rummy.learning._config import TrainConfig
from persian_rummy.learning._network import export_policy
from persian_rummy.learning._trainer import Metrics, Trainer, TrainState
from persian_rummy.policy import NeuralBot, Policy
from persian_rummy.rules import Rules

__all__ = ["CHECKPOINT", "COMPACT", "Evaluation", "Progress", "evaluate", "train"]

#: The name of a run folder's checkpoint: everything, so that a resumed run is the run that
#: did not stop.
CHECKPOINT = "checkpoint.npz"
#: The name of a run folder's compact checkpoint: no games in play, a few megabytes, for
#: carrying a run to another machine or day.
COMPACT = "resume.npz"


class Evaluation(NamedTuple):
    """A policy's results against one opponent: paired deals, the share of games won with its
    95% Wilson interval, and the mean margin per game."""

    opponent: str
    games: int
    win_rate: float
    low: float
    high: float
    margin: float

    def __str__(self) -> str:
        return f"{self.opponent} {self.win_rate:.3f} [{self.low:.3f}, {self.high:.3f}]"


@attrs.frozen
class Progress:
    """How far a run has come, kept in its checkpoint: iterations, games finished, the wall and
    CPU seconds of every session of it, each session's command, the devices it ran on, and the
    last evaluation's summary."""

    iteration: int = 0
    games: int = 0
    wall_seconds: float = 0.0
    cpu_seconds: float = 0.0
    commands: tuple[str, ...] = ()
    device: str = ""
    latest: str = "none yet"

    def to_json(self) -> dict[str, Any]:
        """The progress as a JSON object (for the checkpoint's header)."""
        fields = attrs.asdict(self)
        fields["commands"] = list(self.commands)
        return fields

    @classmethod
    def from_json(cls, fields: dict[str, Any]) -> Progress:
        """Read :meth:`to_json` back."""
        return cls(**{**fields, "commands": tuple(fields["commands"])})

    def provenance(self, seed: int) -> dict[str, Any]:
        """The policy file's training record: every session's command, joined as one shell line."""
        return {
            "command": " && ".join(command for command in self.commands if command),
            "seed": seed,
            "steps": self.iteration,
            "games": self.games,
            "wall_seconds": round(self.wall_seconds, 1),
            "device": self.device,
        }


def evaluate(
    policy: Policy, opponents: Sequence[str], games: int, rules: Rules, seed: int | str = "evaluation"
) -> list[Evaluation]:
    """The policy's results against each opponent (a bot name): ``games`` games each on paired
    deals (each deal played twice, the sides trading seats) from ``seed``."""
    results = []
    for name in opponents:
        match = run_match(
            BotFactory(functools.partial(NeuralBot, policy), name="policy"),
            name,
            games,
            seed=seed,
            rules=rules,
            workers=1,
            progress=False,
        )
        rate, low, high = match.win_rate(0)
        results.append(Evaluation(name, games, rate, low, high, match.margin[0]))
    return results


def _device() -> str:
    devices = jax.devices()
    first = devices[0]
    kind = f"cpu ({os.cpu_count()} cores)" if first.platform == "cpu" else str(first.device_kind)
    return kind if len(devices) == 1 else f"{len(devices)} x {kind}"


def _check_length(steps: object, minutes: object) -> None:
    # How long train runs, checked before anything is compiled.
    if steps is None and minutes is None:
        raise InvalidArgumentError("say how long to train: steps, minutes or both")
    if steps is not None and (type(steps) is not int or steps < 0):
        raise InvalidArgumentError(f"steps must be a whole number of at least 0, not {excerpt(steps)}")
    if minutes is not None and (isinstance(minutes, bool) or not isinstance(minutes, int | float) or not minutes >= 0):
        raise InvalidArgumentError(f"minutes must be a number of at least 0, not {excerpt(minutes)}")


class _Interrupts:
    """Ctrl-C while training: the first asks the run to stop after the iteration in hand (or
    once compiling ends), save and exit; a second stops at once. Only the main thread can
    take signals, so elsewhere nothing is installed."""

    def __init__(self) -> None:
        self.requested = False

    def _handle(self, _signal: int, _frame: FrameType | None) -> None:
        if self.requested:
            raise KeyboardInterrupt
        self.requested = True

    @contextmanager
    def installed(self) -> Iterator[_Interrupts]:
        if threading.current_thread() is not threading.main_thread():
            yield self
            return
        previous = signal.signal(signal.SIGINT, self._handle)
        try:
            yield self
        finally:
            signal.signal(signal.SIGINT, previous)


#: The widest line the training prints; a longer one wraps, its later lines indented.
_LOG_WIDTH: Final = 99


def _line(progress: Progress, metrics: Metrics, seconds: float) -> str:
    """An iteration's report, in lines of at most 99 characters: the games, the league, the
    latest evaluation (wrapped).

    >>> import numpy as np
    >>> metrics = Metrics(*(np.float32(1) for _ in Metrics._fields))
    >>> print(_line(Progress(iteration=3, games=1), metrics, 2.0))
    iteration 3 (2.0 s): 1 game ended, 1 in all; entropy 1.000
      league: the learner won 1 of 1 game against past snapshots
      last evaluation: none yet
    """
    won, played = int(metrics.league_wins), int(metrics.league_games)
    league = f"the learner won {won} of {counted(played, 'game')} against past snapshots" if played else "none ended"
    lines = [
        f"iteration {progress.iteration} ({seconds:.1f} s): {counted(int(metrics.games), 'game')} ended, "
        f"{progress.games} in all; entropy {float(metrics.entropy):.3f}",
        f"  league: {league}",
        f"  last evaluation: {progress.latest}",
    ]
    return "\n".join(
        textwrap.fill(line, _LOG_WIDTH, subsequent_indent="    ", break_on_hyphens=False) for line in lines
    )


def _start(
    trainer: Trainer, folder: Path, resume: bool, command: str, report: Callable[[str], None]
) -> tuple[TrainState, Progress]:
    checkpoint, compact = folder / CHECKPOINT, folder / COMPACT
    if resume:
        if not checkpoint.exists() and not compact.exists():
            raise InvalidArgumentError(
                f"{folder} holds no checkpoint to resume from: train without resume to start a run there"
            )
        state, meta = load_checkpoint(checkpoint if checkpoint.exists() else compact, trainer)
        progress = Progress.from_json(meta)
        report(
            f"resumed at iteration {progress.iteration} ({counted(progress.games, 'game')}, {progress.wall_seconds:.0f} s)"
        )
        return state, attrs.evolve(progress, commands=(*progress.commands, command), device=_device())
    if checkpoint.exists() or compact.exists():
        raise InvalidArgumentError(
            f"{folder} already holds a run's checkpoint: resume it, or train into another folder"
        )
    report(f"compiling the training for {len(trainer.devices)} device(s): {_device()}")
    return trainer.start(), Progress(commands=(command,), device=_device())


def _advanced(progress: Progress, state: TrainState, zero: tuple[float, float]) -> Progress:
    """The progress after an iteration: the state's counts, the seconds since ``zero`` (the
    wall clock's and the processor's readings at which the run would have read 0 seconds)."""
    return attrs.evolve(
        progress,
        iteration=int(state.iteration),
        games=int(state.finished),
        wall_seconds=time.monotonic() - zero[0],
        cpu_seconds=time.process_time() - zero[1],
    )


def _save(folder: Path, config: TrainConfig, state: TrainState, progress: Progress) -> None:
    """Write the checkpoint, and its compact copy without the games' state."""
    save_checkpoint(folder / CHECKPOINT, config, state, progress.to_json())
    save_checkpoint(folder / COMPACT, config, state, progress.to_json(), games=False)


def _evaluation(
    folder: Path,
    config: TrainConfig,
    state: TrainState,
    progress: Progress,
    opponents: Sequence[str],
    games: int,
    report: Callable[[str], None],
) -> Progress:
    """Play the network as it is now against each opponent, append the results to the log and
    report them; the progress then carries them as its latest evaluation."""
    policy = export_policy(state.network, config.rules, progress.provenance(config.seed))
    results = evaluate(policy, opponents, games, config.rules)
    line = {
        "iteration": progress.iteration,
        "games": progress.games,
        "wall_seconds": round(progress.wall_seconds, 1),
        "cpu_seconds": round(progress.cpu_seconds, 1),
        "device": progress.device,
        **{result.opponent: result._asdict() for result in results},
    }
    with open(folder / "log.jsonl", "a", encoding="utf-8") as log:
        log.write(json.dumps(line, sort_keys=True) + "\n")
    latest = ", ".join(str(result) for result in results)
    text = f"evaluation at iteration {progress.iteration} ({counted(games, 'game')} each): {latest}"
    report(textwrap.fill(text, _LOG_WIDTH, subsequent_indent="    ", break_on_hyphens=False))
    return attrs.evolve(progress, latest=latest)


def train(
    config: TrainConfig,
    out: str | os.PathLike[str],
    *,
    steps: int | None = None,
    minutes: float | None = None,
    resume: bool = False,
    checkpoint_seconds: float = 120.0,
    evaluate_seconds: float = 600.0,
    evaluation_games: int = 100,
    opponents: Sequence[str] = ("greedy",),
    command: str = "",
    report: Callable[[str], None] = print,
) -> Policy:
    """Train until ``steps`` iterations in all or ``minutes`` more minutes (whichever comes
    first), writing into ``out`` the checkpoint (every ``checkpoint_seconds``), the evaluation
    log ``log.jsonl`` (an evaluation every ``evaluate_seconds`` and one at the end, of
    ``evaluation_games`` games against each of ``opponents``) and the final ``policy.npz``.

    Ctrl-C stops the run after the iteration in hand (or once compiling ends): the checkpoint
    and the policy are saved, then :class:`KeyboardInterrupt` is raised (the command line exits
    130); a second Ctrl-C stops at once, keeping the last checkpoint. ``resume=True`` goes on
    from the checkpoint in ``out`` (refused if there is none, or if it was made with other
    settings); without it, a folder that holds a checkpoint is refused.

    ``train(TrainConfig(), "my-player", minutes=10)`` is ``persian-rummy train --minutes 10
    --out my-player``; the length is checked before anything is compiled:

    >>> train(TrainConfig(), "my-player")
    Traceback (most recent call last):
    ...
    persian_rummy.errors.InvalidArgumentError: say how long to train: steps, minutes or both
    """
    _check_length(steps, minutes)
    folder = Path(out)
    folder.mkdir(parents=True, exist_ok=True)

    started, cpu_started = time.monotonic(), time.process_time()
    deadline = math.inf if minutes is None else started + 60.0 * minutes
    limit = math.inf if steps is None else steps
    interrupts = _Interrupts()
    with interrupts.installed():
        trainer = Trainer(config)
        state, progress = _start(trainer, folder, resume, command, report)
        # the clocks' readings at which this run's progress would read zero seconds
        zero = (started - progress.wall_seconds, cpu_started - progress.cpu_seconds)
        last_checkpoint = last_evaluation = time.monotonic()
        evaluated_at = -1

        while progress.iteration < limit and time.monotonic() < deadline and not interrupts.requested:
            before = time.monotonic()
            state, metrics = trainer.iterate(state)
            progress = _advanced(progress, state, zero)
            report(_line(progress, metrics, time.monotonic() - before))
            if interrupts.requested:
                break
            now = time.monotonic()
            if now - last_checkpoint >= checkpoint_seconds:
                _save(folder, config, state, progress)
                last_checkpoint = now
            if evaluation_games > 0 and now - last_evaluation >= evaluate_seconds:
                progress = _evaluation(folder, config, state, progress, opponents, evaluation_games, report)
                last_evaluation, evaluated_at = time.monotonic(), progress.iteration
        progress = _advanced(progress, state, zero)
        # every run ends with an evaluation of what it made
        if not interrupts.requested and evaluation_games > 0 and evaluated_at != progress.iteration:
            progress = _evaluation(folder, config, state, progress, opponents, evaluation_games, report)
        _save(folder, config, state, progress)
        policy = export_policy(state.network, config.rules, progress.provenance(config.seed))
        policy.save(folder / "policy.npz")
        if interrupts.requested:
            report(f"stopped at iteration {progress.iteration}: saved {CHECKPOINT}, {COMPACT} and policy.npz")
            raise KeyboardInterrupt
    return policy
