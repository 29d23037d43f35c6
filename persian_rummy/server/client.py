"""A bot that plays one seat of a table server over its WebSocket, as any remote program
would: it reads its frames, rebuilds its :class:`~persian_rummy.PlayerView` from the view's
JSON and answers with its bot's action when the frame offers legal actions.

Each :class:`SeatClient` keeps what it measured and received: the acknowledged actions by
number (``acks``), the time from sending each action to its acknowledgement (``latencies``,
seconds), the number of actions played when each connection began (``joined``: a reconnect
shows where the table resumed) and, when asked, every message received, byte for byte
(``messages``), for tests that check what crossed the wire, and the table's log as its seat
reads it (``log``, one entry a line: every action in words, each deal's heading and score).
It speaks protocol :data:`~persian_rummy.server.protocol.PROTOCOL` and refuses a frame of another
(:class:`~persian_rummy.InvalidArgumentError`). It keeps within the server's message rate
(:class:`~persian_rummy.server.quotas.Limits`, the defaults unless it is told the server's):
a bot answers at once, faster than the rate allows once a game goes quickly, so the client
waits for its turn to send, at nine tenths of the rate in bursts of half the server's, so
that no timing of the network takes it over. Should the server still refuse a message for
the rate (its rate is lower than the client was told), the client halves its pace and sends
the message again when that allows, so that it never waits for a frame that cannot come. An
action the server could not store (``unavailable``: its database is away) is sent again after
a pause that grows while the database stays away. Its pace is measured by ``clock`` and kept
by ``sleep`` (``time.monotonic`` and ``asyncio.sleep`` unless given): a test gives a clock
that only its ``sleep`` moves, so the pace depends on the messages alone, not on how fast the
machine plays.

>>> client = SeatClient("ws://127.0.0.1:8000/ws/TOKEN", "greedy")
>>> client.acks, client.finished, client.log
({}, False, [])
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Awaitable, Callable
from typing import Any

from persian_rummy.arena import BotSpec, build_bot
from persian_rummy.errors import ArgumentTypeError, InvalidArgumentError, PersianRummyError, excerpt
from persian_rummy.server.protocol import PROTOCOL, ActionMessage, encode_frame
from persian_rummy.server.quotas import DEFAULT_LIMITS, Limits, TokenBucket
from persian_rummy.view import PlayerView

__all__ = ["PROTOCOL", "SeatClient"]


class SeatClient:
    """Plays the seat a WebSocket ``url`` (``ws://host:port/ws/<token>``) opens with ``bot``, a
    bot spec as the arena takes one (a bot's name, a bot, a class or a
    :class:`~persian_rummy.arena.BotFactory`, made with ``seed``; see
    :func:`~persian_rummy.arena.build_bot`). :meth:`run` returns when the game is over or the
    connection closes; run it again to reconnect and carry on.
    """

    def __init__(
        self,
        url: str,
        bot: BotSpec,
        *,
        seed: int = 0,
        keep: bool = False,
        limits: Limits = DEFAULT_LIMITS,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
    ) -> None:
        for name, given in (("clock", clock), ("sleep", sleep)):
            if not callable(given):
                raise ArgumentTypeError(f"SeatClient's {name} must be a function, not {excerpt(given)}")
        self.url = url
        self.bot = build_bot(bot, seed)
        self.keep = keep
        self.messages: list[str] = []
        self.acks: dict[int, str] = {}
        self.latencies: list[float] = []
        self.errors: list[dict[str, Any]] = []
        self.seq = -1
        self.joined: list[int] = []
        self.finished = False
        self.log: list[str] = []
        self._sent: dict[int, float] = {}
        self._requests = 0
        # Within the server's rate with room to spare (see the module's docstring).
        self._clock, self._sleep = clock, sleep
        self._bucket = TokenBucket(0.9 * limits.rate, max(1.0, limits.burst / 2), clock=clock)
        self._last: str | None = None
        self._pause = 0.1

    async def run(self) -> None:
        """Play until the game is over or the server closes the connection (or goes away)."""
        import websockets

        first = True
        try:
            async with websockets.connect(self.url, max_size=2**22, open_timeout=20) as socket:
                async for message in socket:
                    text = message if isinstance(message, str) else message.decode()
                    if self.keep:
                        self.messages.append(text)
                    frame = json.loads(text)
                    if first and frame.get("type") == "state":
                        self.joined.append(frame["seq"])
                        self.log = []  # a connection's first frame holds the whole log
                        first = False
                    reply = self._answer(frame)
                    if frame.get("type") == "error" and frame.get("code") == "rate_limited" and self._last:
                        # Refused for the rate, so not played: the server's rate is lower than
                        # the client was told. Halve the pace, empty the bucket, send it again.
                        bucket = self._bucket
                        self._bucket = TokenBucket(bucket.rate / 2, max(1.0, bucket.burst / 2), clock=self._clock)
                        self._bucket.level = 0.0
                        reply = self._last
                    if frame.get("type") == "error" and frame.get("code") == "unavailable" and self._last:
                        # Not stored, so not played: send it again once the database may be back.
                        await self._sleep(self._pause)
                        self._pause = min(self._pause * 2, 5.0)
                        reply = self._last
                    elif frame.get("type") == "ack":
                        self._pause = 0.1
                    if reply is not None:
                        await self._send(socket, reply)
                    if self.finished:
                        return
        except (OSError, websockets.exceptions.ConnectionClosed, TimeoutError):
            return

    async def _send(self, socket: Any, text: str) -> None:
        # Wait until the rate allows one more message, then send it.
        while not self._bucket.take():
            await self._sleep(max(self._bucket.delay(), 0.001))
        self._last = text
        await socket.send(text)

    def _answer(self, frame: dict[str, Any]) -> str | None:
        kind = frame.get("type")
        if kind in ("welcome", "state") and frame.get("protocol") != PROTOCOL:
            raise InvalidArgumentError(
                f"this client speaks protocol {PROTOCOL}, the server's {kind} frame {frame.get('protocol')!r}"
            )
        if kind == "ack":
            self.acks[frame["seq"]] = frame["action"]
            sent = self._sent.pop(frame["id"], None)
            if sent is not None:
                self.latencies.append(time.perf_counter() - sent)
            return None
        if kind == "error":
            self.errors.append(frame)
            if frame.get("code") == "refused":
                raise PersianRummyError(f"the server refused the bot's action: {frame}")
            return None
        if kind != "state":
            return None
        self.seq = frame["seq"]
        self.log += [entry["text"] for entry in frame["log"]]
        if frame["phase"] == "game_over":
            self.finished = True
            return None
        if not frame["legal"]:
            return None
        action = self.bot(PlayerView.from_json(json.dumps(frame["view"])))
        self._requests += 1
        self._sent[self._requests] = time.perf_counter()
        return encode_frame(ActionMessage(action, self._requests))
