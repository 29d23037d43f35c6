"""Hints: what the strongest bot here would play for a seat to move, asked for with a
``{"type": "hint"}`` message. The bot is the learned player (:data:`HINT_BOT`, the expert
level of :func:`~persian_rummy.server.levels.levels`), and it is shown the seat's own
:class:`~persian_rummy.PlayerView` only, never another hand (R27). A hint taken is
written in the table's log for everyone (its action for the seat alone).

Each answer costs one decision of that bot (a pass through a small network, well under a
millisecond), at most once per seat and action number: asked again, the same answer is sent
from memory and nothing more is logged. Hint messages count against the connection's message
rate like any other. The server has no rated games; hints are off at a table whose rules the
learned player was not trained for (:func:`hints_off` says why).

>>> from persian_rummy import Rules
>>> table = Table.new(seats=("human",) * 4, seed=1, rules=Rules(deals=1))
>>> hints_off(table)
'hints come from the learned player (neural), which does not play these rules'
"""

from __future__ import annotations

import asyncio
import functools
from collections import OrderedDict
from typing import Final

from persian_rummy.actions import Action
from persian_rummy.bots import Bot, make_bot
from persian_rummy.errors import PersianRummyError
from persian_rummy.rules import Rules
from persian_rummy.server.connections import Connection, send_in_turn
from persian_rummy.server.live import LiveTable
from persian_rummy.server.protocol import ErrorFrame, HintFrame, RequestId
from persian_rummy.server.tables import Table, offer_text

__all__ = ["HINTS_KEPT", "HINT_BOT", "Hints", "hint_bot", "hints_off"]

#: The bot that gives hints: the learned player, whose one decision is a pass through a small
#: network, so a hint's cost is bounded (a search bot's would not be).
HINT_BOT: Final = "neural"

#: How many answers the server keeps (per table, action number and seat) to answer again.
HINTS_KEPT: Final = 4096


@functools.lru_cache(maxsize=8)
def hint_bot(rules: Rules) -> Bot | None:
    """The bot that gives hints under ``rules`` (:data:`HINT_BOT`), or ``None`` when it does
    not play those rules. Made once per rules.

    >>> hint_bot(Rules())
    NeuralBot(seed=0, temperature=0.0)
    """
    try:
        return make_bot(HINT_BOT, 0, rules=rules)
    except PersianRummyError:
        return None


def hints_off(table: Table) -> str | None:
    """Why a seat at ``table`` may not ask for hints, or ``None`` when it may.

    >>> hints_off(Table.new(seats=("human",) * 4)) is None
    True
    """
    if hint_bot(table.rules) is None:
        return f"hints come from the learned player ({HINT_BOT}), which does not play these rules"
    return None


class Hints:
    """The server's hints: each answer worked out once per table, action number and seat
    (the latest :data:`HINTS_KEPT` kept).

    >>> Hints().kept
    0
    """

    def __init__(self) -> None:
        self._answers: OrderedDict[tuple[str, int, int], Action] = OrderedDict()

    @property
    def kept(self) -> int:
        """How many answers are kept."""
        return len(self._answers)

    async def answer(self, live: LiveTable, connection: Connection, request_id: RequestId) -> None:
        """Answer a seat's hint message (under the table's lock, as an action is played): the
        hint frame to the seat (``action`` and, in words, ``text``), and, the first time at
        this action number, the log's new entry to every connection; or an error frame that
        says why not (hints off at the table, or not the seat's turn)."""
        seat, table = connection.seat, live.table
        assert seat is not None  # a spectator's hint is refused when the message is parsed
        off = await asyncio.to_thread(hints_off, table)  # the first time, it loads the learned player
        if off is not None:
            await connection.send(ErrorFrame("hints_off", off, id=request_id))
            return
        state = table.state
        if not state.phase.is_live or state.current_player != seat:
            await connection.send(ErrorFrame("not_your_turn", "a hint is for your own turn", id=request_id))
            return
        view = state.view(seat)  # the seat's own view: nothing of another hand (R27)
        key = (table.id, table.seq, seat)
        action = self._answers.get(key)
        if action is None:
            bot = hint_bot(table.rules)
            assert bot is not None  # hints_off said so
            action = await asyncio.to_thread(bot, view)
            if live.ended:
                return
            self._answers[key] = action
            if len(self._answers) > HINTS_KEPT:
                self._answers.popitem(last=False)
            logged = len(table.entries)
            table.note_hint(seat, action)
            await send_in_turn(live.frames((logged, len(table.entries))))
        await connection.send(HintFrame(request_id, table.seq, str(action), offer_text(view, action)))
