"""What the table server and its clients agree on, written once: the protocol's version
(:data:`PROTOCOL`), how the page writes cards (:data:`WEB_STYLE`), the codes a WebSocket is
closed with (:data:`CLOSE_CODES`), one typed value per kind of frame (the server's:
:class:`Welcome`, :class:`StateFrame`, :class:`Ack`, :class:`Pong`, :class:`HintFrame`,
:class:`ErrorFrame`; the clients': :class:`ActionMessage`, :class:`PingMessage`,
:class:`HintMessage`), the one encoder every frame goes through (:func:`encode_frame`), the
one decoder of a client's message (:func:`parse_message`), and :func:`page_protocol`: the
names and numbers the page's script reads from its page instead of keeping a copy of its own.
No other module builds a frame.

>>> names = page_protocol()
>>> names["protocol"], names["seats"][2], names["teams"][1], names["suits"][0]
(2, 'South', 'East-West', {'letter': 's', 'symbol': '♠', 'name': 'spades'})
>>> encode_frame(Pong("♣"))
'{"type":"pong","id":"♣"}'
"""

from __future__ import annotations

import enum
import json
from collections.abc import Mapping
from typing import Any, Final, Literal

import attrs

from persian_rummy.actions import Action
from persian_rummy.cards import JOKER, Card, Rank, Suit
from persian_rummy.errors import NotationError, PersianRummyError
from persian_rummy.melds import Meld
from persian_rummy.presentation import Style
from persian_rummy.server.levels import levels
from persian_rummy.state import SEAT_NAMES, TEAM_NAMES

__all__ = [
    "CLOSE_CODES",
    "HUMAN",
    "NO_ID",
    "PROTOCOL",
    "WEB_STYLE",
    "Ack",
    "ActionMessage",
    "BadMessage",
    "ClientMessage",
    "ErrorFrame",
    "HintFrame",
    "HintMessage",
    "PingMessage",
    "Pong",
    "RequestId",
    "ServerFrame",
    "StateFrame",
    "Welcome",
    "encode_frame",
    "encode_value",
    "has_lone_surrogate",
    "page_protocol",
    "parse_message",
]

#: The version of the frames' protocol (the ``protocol`` field of the welcome and state
#: frames): 2 sends the view, the legal actions and the log, and no picture.
PROTOCOL: Final = 2

#: The seat kind of a person (any other kind is a bot's name, see :func:`~persian_rummy.bots.make_bot`).
HUMAN: Final = "human"

#: The codes the server closes a WebSocket with, by the error frame's ``code`` that says why.
CLOSE_CODES: Final = {
    "unknown_token": 4404,
    "superseded": 4409,
    "expired": 4410,
    "too_many_connections": 4429,
    # The server cannot reach its database: WebSocket's own "try again later" (the page does).
    "unavailable": 1013,
}


class _WebStyle(Style):
    """Cards as a person reads them on the page: ``10♣`` (as on the card faces), ``Joker``."""

    def rank(self, rank: Rank) -> str:
        """A rank as the card faces show it: ``10`` for a ten, else its letter.

        >>> WEB_STYLE.rank(Rank.TEN), WEB_STYLE.rank(Rank.QUEEN)
        ('10', 'Q')
        """
        return "10" if rank is Rank.TEN else rank.letter

    def card(self, card: Card) -> str:
        """A card as the page and the log write it.

        >>> WEB_STYLE.card(Card.parse("Tc")), WEB_STYLE.card(JOKER)
        ('10♣', 'Joker')
        """
        return "Joker" if card.is_joker else self.rank(card.natural_rank) + card.natural_suit.symbol


#: How the table's log and its page write cards.
WEB_STYLE: Final = _WebStyle()

#: A client's request id, echoed in the answer: a number or a short text (or none).
RequestId = int | str | None


class _Unset(enum.Enum):
    UNSET = "unset"


#: An error frame's ``id`` when the frame answers no message whose id was read.
NO_ID: Final = _Unset.UNSET


@attrs.frozen
class Welcome:
    """The first frame of a connection: the protocol, the table, the seat (``None``: a
    spectator) and the players' names.

    >>> encode_frame(Welcome("t1", None, ("N", "E", "S", "W")))
    '{"type":"welcome","protocol":2,"table":"t1","seat":null,"role":"spectator","names":["N","E","S","W"]}'
    """

    table: str
    seat: int | None
    names: tuple[str, ...]

    def value(self) -> dict[str, Any]:
        """The frame as a JSON-ready value."""
        role = "spectator" if self.seat is None else "player"
        return {"type": "welcome", "protocol": PROTOCOL, "table": self.table, "seat": self.seat, "role": role,
                "names": list(self.names)}  # fmt: skip


@attrs.frozen
class StateFrame:
    """The table as one connection may see it (``seat``; ``None``: a spectator), after
    joining and after every accepted action: built by
    :meth:`~persian_rummy.server.tables.Table.state_frames`. ``public`` is what every frame
    on the same state says alike (the deal, the turn, the scores, each team's points on the
    table, the names, the seats and the score sheet), ``view`` the seat's view as
    :meth:`~persian_rummy.PlayerView.to_json` writes it, ``log`` the log's new entries as the
    seat may read them; ``legal`` and ``legal_text`` the seat's legal actions, when it is to move.

    >>> frame = StateFrame(3, None, {"deal": 1}, (), (), (), {"seat": None})
    >>> encode_frame(frame)
    '{"type":"state","protocol":2,"seq":3,"seat":null,"deal":1,"legal":[],"legal_text":[],"log":[],"view":{"seat":null}}'
    """

    seq: int
    seat: int | None
    public: Mapping[str, Any]
    legal: tuple[str, ...]
    legal_text: tuple[str, ...]
    log: tuple[Mapping[str, Any], ...]
    view: Mapping[str, Any]

    def value(self) -> dict[str, Any]:
        """The frame as a JSON-ready value."""
        return {"type": "state", "protocol": PROTOCOL, "seq": self.seq, "seat": self.seat, **self.public,
                "legal": list(self.legal), "legal_text": list(self.legal_text), "log": list(self.log),
                "view": self.view}  # fmt: skip


@attrs.frozen
class Ack:
    """The acknowledgement, to its sender, of accepted action number ``seq`` (its text).

    >>> encode_frame(Ack(3, "draw", 7))
    '{"type":"ack","seq":3,"action":"draw","id":7}'
    """

    seq: int
    action: str
    id: RequestId

    def value(self) -> dict[str, Any]:
        """The frame as a JSON-ready value."""
        return {"type": "ack", "seq": self.seq, "action": self.action, "id": self.id}


@attrs.frozen
class Pong:
    """The answer to a ping, with its id.

    >>> encode_frame(Pong("a"))
    '{"type":"pong","id":"a"}'
    """

    id: RequestId

    def value(self) -> dict[str, Any]:
        """The frame as a JSON-ready value."""
        return {"type": "pong", "id": self.id}


@attrs.frozen
class HintFrame:
    """A hint, to the seat that asked: the action and, in words, ``text``.

    >>> encode_frame(HintFrame(4, 0, "draw", "draw from the stock"))
    '{"type":"hint","id":4,"seq":0,"action":"draw","text":"draw from the stock"}'
    """

    id: RequestId
    seq: int
    action: str
    text: str

    def value(self) -> dict[str, Any]:
        """The frame as a JSON-ready value."""
        return {"type": "hint", "id": self.id, "seq": self.seq, "action": self.action, "text": self.text}


@attrs.frozen
class ErrorFrame:
    """What was refused (``code``), why, in words, the id of the message it answers (left out
    when none was read: :data:`NO_ID`) and the action refused, if any. A code that closes the
    connection has its close code in :data:`CLOSE_CODES`.

    >>> encode_frame(ErrorFrame("bad_frame", "a message is one JSON object"))
    '{"type":"error","code":"bad_frame","reason":"a message is one JSON object"}'
    >>> encode_frame(ErrorFrame("refused", "R12: draw first", id=2, action="meld 2s 3s 4s"))
    '{"type":"error","code":"refused","reason":"R12: draw first","id":2,"action":"meld 2s 3s 4s"}'
    """

    code: str
    reason: str
    id: RequestId | Literal[_Unset.UNSET] = NO_ID
    action: str | None = None

    def value(self) -> dict[str, Any]:
        """The frame as a JSON-ready value."""
        value: dict[str, Any] = {"type": "error", "code": self.code, "reason": self.reason}
        if self.id is not NO_ID:
            value["id"] = self.id
        if self.action is not None:
            value["action"] = self.action
        return value


@attrs.frozen
class ActionMessage:
    """A client's message that plays ``action`` (its text when sent, parsed when received).

    >>> encode_frame(ActionMessage(Action.parse("draw"), 1))
    '{"type":"action","action":"draw","id":1}'
    """

    action: Action
    id: RequestId = None

    def value(self) -> dict[str, Any]:
        """The message as a JSON-ready value."""
        return {"type": "action", "action": str(self.action), "id": self.id}


@attrs.frozen
class PingMessage:
    """A client's ping, answered with a :class:`Pong` of the same id.

    >>> encode_frame(PingMessage("a"))
    '{"type":"ping","id":"a"}'
    """

    id: RequestId = None

    def value(self) -> dict[str, Any]:
        """The message as a JSON-ready value."""
        return {"type": "ping", "id": self.id}


@attrs.frozen
class HintMessage:
    """A seat's request for a hint, answered with a :class:`HintFrame` (or an error frame).

    >>> encode_frame(HintMessage(4))
    '{"type":"hint","id":4}'
    """

    id: RequestId = None

    def value(self) -> dict[str, Any]:
        """The message as a JSON-ready value."""
        return {"type": "hint", "id": self.id}


#: Every frame the server sends.
ServerFrame = Welcome | StateFrame | Ack | Pong | HintFrame | ErrorFrame
#: Every message a client sends, as :func:`parse_message` reads it.
ClientMessage = ActionMessage | PingMessage | HintMessage

# One encoder for every frame (json.dumps with options builds a new one at each call); the
# second for a text that holds a lone surrogate, which is not UTF-8: written as its escape.
_ENCODE: Final = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False).encode
_ENCODE_ASCII: Final = json.JSONEncoder(separators=(",", ":"), ensure_ascii=True).encode


def encode_frame(frame: ServerFrame | ClientMessage) -> str:
    """A frame as the text sent: compact, with every character as it is; a text that would
    not be UTF-8 (a lone surrogate) is written as its JSON escape, so whatever a frame holds
    it can be sent.

    >>> encode_frame(Pong("10♣"))
    '{"type":"pong","id":"10♣"}'
    >>> encode_frame(Pong("\\ud800"))
    '{"type":"pong","id":"\\\\ud800"}'
    """
    return encode_value(frame.value())


def encode_value(value: Any) -> str:
    """A JSON-ready value (a frame's, or a part of one, as a log entry) as JSON text, as
    :func:`encode_frame` writes it.

    >>> encode_value({"log": [{"text": "10♣"}], "seat": None})
    '{"log":[{"text":"10♣"}],"seat":null}'
    """
    text = _ENCODE(value)
    if not text.isascii():
        try:
            text.encode("utf-8")
        except UnicodeEncodeError:
            return _ENCODE_ASCII(value)
    return text


class BadMessage(PersianRummyError, ValueError):
    """A message refused before any table sees it: ``code`` and ``reason`` go into the error
    frame (:meth:`frame`), with the message's ``id`` when it had a good one.

    >>> encode_frame(BadMessage("bad_frame", "a message is one JSON object").frame())
    '{"type":"error","code":"bad_frame","reason":"a message is one JSON object"}'
    """

    message_is_public = True

    def __init__(self, code: str, reason: str, *request_id: RequestId) -> None:
        super().__init__(reason, reason=reason)
        # The id, once the message's was read and found good (it may be None).
        self.code, self.request_id = code, request_id

    def frame(self) -> ErrorFrame:
        """The error frame that answers the message."""
        return ErrorFrame(self.code, self.reason, id=self.request_id[0] if self.request_id else NO_ID)


def has_lone_surrogate(value: object) -> bool:
    """Whether a parsed JSON value holds a text (a key or a string) with a lone surrogate:
    valid JSON (``"\\ud800"`` writes one) but not Unicode text, so it can be neither sent
    back in UTF-8 nor stored. The server refuses such a message or request.

    >>> has_lone_surrogate(json.loads('{"id": "\\ud800"}')), has_lone_surrogate({"id": ["10♣"]})
    (True, False)
    """
    if isinstance(value, str):
        return not value.isascii() and any("\ud800" <= char <= "\udfff" for char in value)
    if isinstance(value, dict):
        return any(has_lone_surrogate(key) or has_lone_surrogate(item) for key, item in value.items())
    if isinstance(value, list):
        return any(map(has_lone_surrogate, value))
    return False


def parse_message(text: str | None, limit: int, *, spectator: bool) -> ClientMessage:
    """The one decoder of a client's WebSocket message (its text, ``None`` for a binary one)
    of at most ``limit`` bytes; raises :class:`BadMessage` saying what is wrong with it. A
    spectator's connection may only ping.

    >>> parse_message('{"type": "action", "action": "draw", "id": 3}', 4096, spectator=False)
    ActionMessage(action=DrawStock(), id=3)
    >>> parse_message('{"type": "hint", "id": 4}', 4096, spectator=False)
    HintMessage(id=4)
    >>> parse_message('{"type": "ping", "id": "a"}', 4096, spectator=True)
    PingMessage(id='a')
    >>> parse_message('{"type": "action", "action": "draw"}', 4096, spectator=True)
    Traceback (most recent call last):
    ...
    persian_rummy.server.protocol.BadMessage: a spectator link cannot play
    """
    if text is None:
        raise BadMessage("bad_frame", "messages are JSON text, not binary")
    if len(text) > limit or len(text.encode("utf-8", "surrogatepass")) > limit:
        raise BadMessage("too_large", f"a message is at most {limit} bytes")
    try:
        frame = json.loads(text)
    except (ValueError, RecursionError):
        raise BadMessage("bad_frame", "a message is one JSON object") from None
    if has_lone_surrogate(frame):
        # Valid JSON ("\\ud800") but not Unicode text: it could be neither echoed nor stored.
        raise BadMessage("bad_frame", "a message's texts are Unicode text (no lone surrogate)")
    if not isinstance(frame, dict) or frame.get("type") not in ("action", "ping", "hint"):
        raise BadMessage(
            "bad_frame", 'a message is {"type": "action", "action": "..."}, {"type": "hint"} or {"type": "ping"}'
        )
    request_id = frame.get("id")
    if not (request_id is None or (isinstance(request_id, int | str) and len(str(request_id)) <= 40)):
        raise BadMessage("bad_frame", "an id is a number or a short text")
    if frame["type"] == "ping":
        return PingMessage(request_id)
    if spectator:
        raise BadMessage("spectator", "a spectator link cannot play", request_id)
    if frame["type"] == "hint":
        return HintMessage(request_id)
    text_action = frame.get("action")
    if not isinstance(text_action, str):
        raise BadMessage("bad_frame", 'an action is its text, such as "draw"', request_id)
    try:
        return ActionMessage(Action.parse(text_action), request_id)
    except NotationError as error:
        raise BadMessage("bad_action", error.reason, request_id) from None


def page_protocol() -> dict[str, Any]:
    """The protocol's names and numbers for the page's script, from the library's own: the
    protocol's version, the seats' and the teams' names, the seat kind of a person, the
    close codes, the cards' notation (each suit's letter, symbol and name in the library's
    order, each rank's letter, face and spoken name from low to high, the joker's text), how a
    meld's text marks each card's seat (melded by it, or laid off and credited to it: R16),
    and the bots' levels (:func:`~persian_rummy.server.levels.levels`). The page of a seat
    carries it (:func:`~persian_rummy.server.pages.table_page`).

    >>> names = page_protocol()
    >>> [rank["face"] for rank in names["ranks"]][-5:], names["ranks"][-1]["name"], names["joker"]
    (['10', 'J', 'Q', 'K', 'A'], 'ace', {'text': 'Jk', 'face': 'Joker', 'name': 'joker'})
    >>> names["meld_marks"], names["levels"][0]["name"]
    ({'melded': '@', 'laid_off': '+'}, 'easy')
    """
    return {
        "protocol": PROTOCOL,
        "seats": list(SEAT_NAMES),
        "teams": list(TEAM_NAMES),
        "human": HUMAN,
        "close_codes": dict(CLOSE_CODES),
        "suits": [{"letter": suit.letter, "symbol": suit.symbol, "name": suit.name.lower()} for suit in Suit],
        "ranks": [
            {
                "letter": rank.letter,
                "face": WEB_STYLE.rank(rank),
                # Numbers are said as written; the court cards and the ace by name.
                "name": WEB_STYLE.rank(rank) if rank <= Rank.TEN else rank.name.lower(),
            }
            for rank in Rank
        ],
        "joker": {"text": str(JOKER), "face": WEB_STYLE.card(JOKER), "name": "joker"},
        "meld_marks": {"melded": _mark(laid_off=False), "laid_off": _mark(laid_off=True)},
        "levels": [level.value() for level in levels()],
    }


def _mark(*, laid_off: bool) -> str:
    """The mark between a card and its seat in a meld's text: a card of the meld as it was laid
    down, or one laid off later (R16), as the library writes them."""
    text = str(Meld.parse("2s 3s 4s", seat=1).lay_off("5s", seat=1))
    return text.split()[-1 if laid_off else 0][2:-1]
