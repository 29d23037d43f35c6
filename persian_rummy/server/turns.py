"""The bots' turns at the tables in play here (:class:`BotTurns`): after each stored action, the
bot to move plays after the bots' delay. Where several workers serve a table, the worker
that stored its last action plays its bots' next move; the others stand by, and play it
themselves if that worker has not after :data:`BOT_STANDBY` seconds (it may have died): the
database keeps one move a turn.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import Final

from persian_rummy.actions import Action
from persian_rummy.bots import Bot, Player
from persian_rummy.game import Game
from persian_rummy.server.keeper import Tasks
from persian_rummy.server.live import LiveTable
from persian_rummy.server.storage import StoreUnavailable

__all__ = ["BOT_STANDBY", "BotTurns"]

#: Seconds (beyond the bots' delay) a worker that did not store a table's last action waits
#: for the bot's move from the worker that did, before playing it itself.
BOT_STANDBY: Final = 3.0
# Seconds before a bot's move that was not stored is tried again.
_RETRY: Final = 2.0
_LOG: Final = logging.getLogger("persian_rummy.server")


class BotTurns:
    """Plays the bots' moves: ``delay`` seconds after the action before each (so people can
    follow the game; tests use 0), each move handed to ``accept`` (the commit protocol,
    :meth:`~persian_rummy.server.commits.Commits.accept`) as a seat's move with no sender.

    >>> turns = BotTurns(Tasks(), 0.4, accept=lambda live, seat, action: asyncio.sleep(0))
    >>> turns.delay
    0.4
    """

    def __init__(self, tasks: Tasks, delay: float, accept: Callable[[LiveTable, int, Action], Awaitable[None]]) -> None:
        self.tasks = tasks
        self.delay = delay
        self.accept = accept

    def start(self, live: LiveTable, drive: bool) -> None:
        """Start a bot's move if one is to move: at once when this process stored the last
        action (``drive``), else, as a stand-by for the worker that did, only if that worker
        has not moved after a while (it may have died)."""
        state = live.table.state
        if state.phase.is_live and live.table.bots[state.current_player] is not None and Tasks.loop_running():
            self.tasks.spawn(self._drive(live, self.delay + (0.0 if drive else BOT_STANDBY)))

    async def _drive(self, live: LiveTable, wait: float) -> None:
        """Play the bot's move at ``live`` after ``wait`` seconds, unless the table moved on
        meanwhile (one driver per move: each move stored starts the next)."""
        seq = live.table.seq
        if wait:
            await asyncio.sleep(wait)
        if live.ended or live.table.seq != seq:
            return  # let go, or played, meanwhile
        async with live.lock:
            table = live.table
            state = table.state
            seat = state.current_player
            bot = table.bots[seat]
            if bot is None or not state.phase.is_live or live.ended or table.seq != seq:
                return
            action = await asyncio.to_thread(_choose, bot, table.game, seat)
            if table.state is not state or live.ended:
                return
            try:
                await self.accept(live, seat, action)
            except StoreUnavailable as error:
                _LOG.warning("table %s: a bot's move was not stored (%s): trying again", live.id, error)
                self.tasks.spawn(self._drive(live, _RETRY))


def _choose(bot: Bot, game: Game, seat: int) -> Action:
    """``bot``'s move for ``seat``, asked through its :class:`~persian_rummy.bots.Player`: a
    bot that reads the public history (the expert level) is handed its information state, as
    the arena hands it; the others their view (R27)."""
    player = Player.of(bot)
    return player.choose(game.info_state(seat) if player.reads_history else game.view(seat))
