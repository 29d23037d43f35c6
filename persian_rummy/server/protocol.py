"""What the table server and its clients agree on, written once: the protocol's version
(:data:`PROTOCOL`), how the page writes cards (:data:`WEB_STYLE`), the codes a WebSocket is
closed with (:data:`CLOSE_CODES`), the one encoder every frame goes through
(:func:`encode_frame`), and :func:`page_protocol`: the names and numbers the page's script
reads from its page instead of keeping a copy of its own.

>>> names = page_protocol()
>>> names["protocol"], names["seats"][2], names["teams"][1], names["suits"][0]
(2, 'South', 'East-West', {'letter': 's', 'symbol': '♠', 'name': 'spades'})
>>> encode_frame({"type": "pong", "id": "♣"})
'{"type":"pong","id":"♣"}'
"""

from __future__ import annotations

import json
from typing import Any, Final

from persian_rummy.cards import JOKER, Card, Rank, Suit
from persian_rummy.melds import Meld
from persian_rummy.presentation import Style
from persian_rummy.server.levels import levels
from persian_rummy.state import SEAT_NAMES, TEAM_NAMES

__all__ = ["CLOSE_CODES", "HUMAN", "PROTOCOL", "WEB_STYLE", "encode_frame", "page_protocol"]

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

# One encoder for every frame (json.dumps with options builds a new one at each call).
_ENCODE: Final = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False).encode


def encode_frame(frame: Any) -> str:
    """A frame (a JSON-ready value) as the text sent: compact, with every character as it is.

    >>> encode_frame({"log": [{"text": "10♣"}], "seat": None})
    '{"log":[{"text":"10♣"}],"seat":null}'
    """
    return _ENCODE(frame)


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
