"""What a seat at a served table may be, and what its bot may cost: a person (``"human"``),
a level the lobby offers (``"easy"``... ``"expert"``) or a bot's name from
:data:`~persian_rummy.bots.BOTS` with whole-number knobs (``"mc:samples=8"``), and nothing
else. A seat kind comes from strangers (the lobby's form, ``POST /api/tables``), so it is read
here by its text alone: it never names a file (the library's
:func:`~persian_rummy.bots.make_bot` also takes a policy file's path; the server never hands
it one), and a refusal says the same whatever is on the server's disk.

A served bot's work is bounded twice (:func:`check_seats`): each decision by
:attr:`Limits.bot_work <persian_rummy.server.quotas.Limits.bot_work>`, and the bots of all
the tables one client address holds by
:attr:`Limits.bot_work_per_client <persian_rummy.server.quotas.Limits.bot_work_per_client>`.
The work of a decision is counted in rollout turns of the Monte Carlo bot
(:func:`decision_work`).

>>> seat_kind(" mc:samples=8 "), seat_kind("expert")
('mc:samples=8', 'expert')
>>> seat_kind("/etc/passwd/x.npz")
Traceback (most recent call last):
...
persian_rummy.errors.NotationError: a seat is 'human', a level (easy, medium, hard, expert) or a bot (random, greedy, montecarlo, mc, neural, expert; mc:samples=8), not '/etc/passwd/x.npz'
"""

from __future__ import annotations

import inspect
import re
from collections.abc import Iterable, Sequence
from typing import Final

from persian_rummy.bots import BOTS, LEVELS, Bot, MonteCarloBot, make_bot
from persian_rummy.errors import InvalidArgumentError, NotationError, excerpt
from persian_rummy.rules import Rules
from persian_rummy.server.protocol import HUMAN
from persian_rummy.server.quotas import CapacityError, Limits

__all__ = ["EXPERT_TURN", "check_seats", "decision_work", "seat_bot", "seat_kind", "table_work"]

#: What one rollout turn of the expert costs beside one of the Monte Carlo bot (the expert's
#: turns each run the learned player's network): about 35 times as much, as measured
#: (``expert`` at 0.6 ms a turn, ``mc`` at 17 microseconds, on one core).
EXPERT_TURN: Final = 32

# A bot's name, then whole-number knobs: letters, digits and _ only, so no path is ever read.
_KNOB: Final = r"\s*[a-z_]{1,20}\s*=\s*\d{1,6}\s*"
_SEAT: Final = re.compile(rf"(?P<name>[a-z]{{1,20}})(?::(?P<knobs>{_KNOB}(?:,{_KNOB})*)?)?", re.ASCII)
_LONGEST: Final = 200


def _refusal(kind: object) -> NotationError:
    text = kind[:80] if isinstance(kind, str) else kind
    message = (
        f"a seat is {HUMAN!r}, a level ({', '.join(LEVELS)}) or a bot ({', '.join(BOTS)}; "
        f"mc:samples=8), not {excerpt(text, 24)}"
    )
    return NotationError(message, reason=message)


def seat_kind(kind: object) -> str:
    """``kind`` as a served table keeps it (without its surrounding spaces): ``"human"``, a
    level of :data:`~persian_rummy.bots.LEVELS` or a name of :data:`~persian_rummy.bots.BOTS`
    with ``knob=number`` pairs after a colon. Anything else (a policy file's path, say) raises
    :class:`~persian_rummy.NotationError`, read from the text alone: no file is looked at.

    >>> seat_kind("human"), seat_kind("greedy"), seat_kind("mc: samples=2, horizon=3")
    ('human', 'greedy', 'mc: samples=2, horizon=3')
    >>> seat_kind("neural.npz")
    Traceback (most recent call last):
    ...
    persian_rummy.errors.NotationError: a seat is 'human', a level (easy, medium, hard, expert) or a bot (random, greedy, montecarlo, mc, neural, expert; mc:samples=8), not 'neural.npz'
    """
    if not isinstance(kind, str) or len(kind) > _LONGEST:
        raise _refusal(kind)
    kind = kind.strip()
    match = _SEAT.fullmatch(kind)
    if kind == HUMAN or (match is not None and (match["name"] in BOTS or match["name"] in LEVELS)):
        return kind
    raise _refusal(kind)


def seat_bot(kind: str, seed: int, rules: Rules) -> Bot | None:
    """The bot that plays a seat of ``kind`` (checked by :func:`seat_kind`), made from
    ``seed`` for ``rules``; ``None`` for a person. Raises what :func:`seat_kind` and
    :func:`~persian_rummy.bots.make_bot` raise (an unknown knob, a bot that cannot play the
    rules).

    >>> seat_bot("easy", 3, Rules()), seat_bot("human", 3, Rules())
    (GreedyBot(seed=3), None)
    """
    kind = seat_kind(kind)
    return None if kind == HUMAN else make_bot(kind, seed, rules=rules)


def _searcher(name: str) -> tuple[dict[str, int], int] | None:
    # The knobs' defaults of a searching bot (a level plays its bot with no knobs), and the
    # weight of one of its rollout turns; None for a bot that does not search.
    spec = LEVELS[name].spec if name not in BOTS and name in LEVELS else name
    cls: type[object]
    if BOTS.get(spec) is MonteCarloBot:
        cls, weight = MonteCarloBot, 1
    elif spec == "expert":
        from persian_rummy.search import ExpertBot

        cls, weight = ExpertBot, EXPERT_TURN
    else:
        return None
    parameters = inspect.signature(cls).parameters
    defaults = {knob: parameters[knob].default for knob in ("samples", "horizon", "candidates")}
    return defaults, weight


def decision_work(kind: str) -> int:
    """The most work one decision of a seat of ``kind`` costs, in rollout turns of the Monte
    Carlo bot: ``samples * candidates * horizon`` for the Monte Carlo bot, the same times
    :data:`EXPERT_TURN` for the expert (a horizon of 0 counts as 1), 1 for a bot that does not
    search and 0 for a person.

    >>> decision_work("human"), decision_work("greedy"), decision_work("mc"), decision_work("mc:samples=32,horizon=32,candidates=32")
    (0, 1, 48, 32768)
    >>> decision_work("expert"), decision_work("expert:horizon=0")
    (5120, 320)
    """
    kind = seat_kind(kind)
    if kind == HUMAN:
        return 0
    name, _, knobs_text = kind.partition(":")
    searcher = _searcher(name.strip())
    if searcher is None:
        return 1
    knobs, weight = searcher
    for pair in knobs_text.split(","):
        key, _, value = pair.partition("=")
        if key.strip() in knobs:
            knobs[key.strip()] = int(value)
    return weight * knobs["samples"] * knobs["candidates"] * max(knobs["horizon"], 1)


def table_work(seats: Iterable[str]) -> int:
    """The most work a table's bots ask for at once: its costliest seat's decision (the seats
    move one at a time).

    >>> table_work(["human", "greedy", "mc", "expert"])
    5120
    """
    return max((decision_work(kind) for kind in seats), default=0)


def check_seats(seats: Sequence[str], limits: Limits, held: Iterable[Sequence[str]] = ()) -> list[str]:
    """The seat kinds of a new table for a client that already holds tables of the seats
    ``held``, each checked by :func:`seat_kind` and within ``limits``: a bot whose decision
    costs more than ``limits.bot_work`` raises :class:`~persian_rummy.InvalidArgumentError`;
    a table that would take the client's tables past ``limits.bot_work_per_client`` (each
    table counting its costliest seat, :func:`table_work`) raises
    :class:`~persian_rummy.server.quotas.CapacityError` (429).

    >>> check_seats(["human", "easy", " mc ", "expert"], Limits())
    ['human', 'easy', 'mc', 'expert']
    >>> check_seats(["human", "expert:samples=32,horizon=32,candidates=32", "easy", "easy"], Limits())
    Traceback (most recent call last):
    ...
    persian_rummy.errors.InvalidArgumentError: a served bot thinks at most 40,000 rollout turns of the Monte Carlo bot a decision (the expert's count 32 each), not 1,048,576 ('expert:samples=32,horizon=32,candidates=32')
    """
    kinds = [seat_kind(kind) for kind in seats]
    for kind in kinds:
        work = decision_work(kind)
        if work > limits.bot_work:
            message = (
                f"a served bot thinks at most {limits.bot_work:,} rollout turns of the Monte Carlo bot a decision "
                f"(the expert's count {EXPERT_TURN} each), not {work:,} ({excerpt(kind[:80])})"
            )
            raise InvalidArgumentError(message, reason=message)
    total = table_work(kinds) + sum(table_work(other) for other in held)
    if total > limits.bot_work_per_client:
        raise CapacityError(
            f"the bots of one client's tables think at most {limits.bot_work_per_client:,} rollout turns at once "
            f"(each table its costliest bot), not {total:,}: finish a game, or choose lighter bots",
            status=429,
        )
    return kinds
