"""A bot that plays one seat of a table server over its WebSocket, as any remote program
would: it reads its frames, rebuilds its :class:`~persian_rummy.PlayerView` from the view's
JSON and answers with its bot's action when the frame offers legal actions.

Each :class:`SeatClient` keeps what it measured and received: the acknowledged actions by
number (``acks``), the time from sending each action to its acknowledgement (``latencies``,
seconds), the number of actions played when each connection began (``joined``: a reconnect
shows where the table resumed) and, when asked, every message received, byte for byte
(``messages``), for tests that check what crossed the wire, and the latest picture it was
sent (``picture``, the SVG text :class:`Pictures` rebuilds).

>>> client = SeatClient("ws://127.0.0.1:8000/ws/TOKEN", "greedy")
>>> client.acks, client.finished
({}, False)
"""

from __future__ import annotations

import json
import time
from typing import Any

from persian_rummy.bots import Bot, make_bot
from persian_rummy.errors import InvalidArgumentError, PersianRummyError
from persian_rummy.view import PlayerView

__all__ = ["Pictures", "SeatClient"]


class Pictures:
    """The pictures of one connection's state frames, rebuilt as a client must: each frame's
    ``picture`` lists the picture's pieces, each a string (its SVG text) or the index of an
    equal piece in the picture of the frame before it on the same connection
    (:class:`~persian_rummy.server.tables.StateFrame`). Use one for each connection: a new
    connection's first frame writes every piece out.

    >>> pictures = Pictures()
    >>> pictures.read({"picture": ["<svg>", "<g/>", "</svg>"]})
    '<svg><g/></svg>'
    >>> pictures.read({"picture": [0, "<rect/>", 2]})
    '<svg><rect/></svg>'
    >>> pictures.read({"picture": [5]})
    Traceback (most recent call last):
      ...
    persian_rummy.errors.InvalidArgumentError: a frame's picture refers to piece 5 of the last picture, which has 3 pieces
    """

    def __init__(self) -> None:
        self.pieces: tuple[str, ...] = ()

    def read(self, frame: dict[str, Any]) -> str:
        """The SVG text of ``frame``'s picture (a state frame as JSON gives it), which the next
        frame's numbers refer to."""
        if not isinstance(frame, dict):
            raise InvalidArgumentError(f"a state frame with a picture is a JSON object, not {type(frame).__name__}")
        pieces = frame.get("picture")
        if not isinstance(pieces, list):
            raise InvalidArgumentError(f"a state frame's picture is a list of pieces, not {type(pieces).__name__}")
        rebuilt = []
        for piece in pieces:
            if isinstance(piece, str):
                rebuilt.append(piece)
            elif type(piece) is int and 0 <= piece < len(self.pieces):
                rebuilt.append(self.pieces[piece])
            else:
                raise InvalidArgumentError(
                    f"a frame's picture refers to piece {piece!r} of the last picture, which has {len(self.pieces)} pieces"
                )
        self.pieces = tuple(rebuilt)
        return "".join(rebuilt)


class SeatClient:
    """Plays the seat a WebSocket ``url`` (``ws://host:port/ws/<token>``) opens with ``bot``
    (a bot or a bot's name). :meth:`run` returns when the game is over or the connection
    closes; run it again to reconnect and carry on.
    """

    def __init__(self, url: str, bot: Bot | str, *, seed: int = 0, keep: bool = False) -> None:
        self.url = url
        self.bot = make_bot(bot, seed) if isinstance(bot, str) else bot
        self.keep = keep
        self.messages: list[str] = []
        self.acks: dict[int, str] = {}
        self.latencies: list[float] = []
        self.errors: list[dict[str, Any]] = []
        self.seq = -1
        self.joined: list[int] = []
        self.finished = False
        self.picture = ""
        self._pictures = Pictures()
        self._sent: dict[int, float] = {}
        self._requests = 0

    async def run(self) -> None:
        """Play until the game is over or the server closes the connection (or goes away)."""
        import websockets

        first = True
        self._pictures = Pictures()  # a new connection's first frame writes its picture whole
        try:
            async with websockets.connect(self.url, max_size=2**22, open_timeout=20) as socket:
                async for message in socket:
                    text = message if isinstance(message, str) else message.decode()
                    if self.keep:
                        self.messages.append(text)
                    frame = json.loads(text)
                    if first and frame.get("type") == "state":
                        self.joined.append(frame["seq"])
                        first = False
                    reply = self._answer(frame)
                    if reply is not None:
                        await socket.send(reply)
                    if self.finished:
                        return
        except (OSError, websockets.exceptions.ConnectionClosed, TimeoutError):
            return

    def _answer(self, frame: dict[str, Any]) -> str | None:
        kind = frame.get("type")
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
        self.picture = self._pictures.read(frame)
        if frame["phase"] == "game_over":
            self.finished = True
            return None
        if not frame["legal"]:
            return None
        action = self.bot(PlayerView.from_json(json.dumps(frame["view"])))
        self._requests += 1
        self._sent[self._requests] = time.perf_counter()
        return json.dumps({"type": "action", "action": str(action), "id": self._requests})
