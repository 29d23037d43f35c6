"""Position strings: a whole state (or a player's view) on one line, like a chess FEN.

A position string names every card and every counter of a :class:`~persian_rummy.GameState`,
so it parses back to an equal state: use it in tests, bug reports and puzzles.
``repr(state)`` is ``GameState.parse('<position>')`` and pastes back as code.

>>> from persian_rummy import GameState, new_game
>>> state = new_game(1)
>>> text = state.position()
>>> text  # doctest: +NORMALIZE_WHITESPACE
'3s6sTsQs3h8h8c/Js2dJdQdTcJkJk/9sKsJh4d9d7cKc/As4h6hAh5dTd3c
 5s7h9hKd5cJkAcKhQc2c5h4c9c2hQhJk4s7s6d7d3d6c8s8dThJcAd 2s -
 turn=1 phase=draw must=- dealer=0 deal=1 scores=0,0 passes=0 idle=0 progress=0 out=- rules=default'
>>> GameState.parse(text) == state
True

The fields, separated by single spaces (EBNF)::

    position = hands " " stock " " pile " " melds [ " seat=" seat ]
               " turn=" seat " phase=" phase " must=" ( card | "-" )
               " dealer=" seat " deal=" number " scores=" integer "," integer
               " passes=" number " idle=" number " progress=" ( "0" | "1" )
               " out=" ( seat | "-" ) " rules=" rules ;
    hands    = hand "/" hand "/" hand "/" hand ;      (* seats 0, 1, 2, 3 *)
    hand     = cards | hidden ;
    stock    = cards | hidden ;                       (* bottom to top: the last is drawn next *)
    pile     = cards ;                                (* bottom to top: the last is the top card *)
    cards    = "-" | card { card } ;                  (* no spaces: "4s5sJk" *)
    hidden   = "?" number ;                           (* views only: how many hidden cards *)
    card     = rank suit | "Jk" ;
    rank     = "2" | ... | "9" | "T" | "J" | "Q" | "K" | "A" ;
    suit     = "s" | "h" | "d" | "c" ;
    melds    = "-" | meld { "/" meld } ;              (* in table order: lay-offs name them 0, 1, ... *)
    meld     = seat ":" placed { placed } ;           (* the seat that laid the meld down *)
    placed   = card [ "+" seat ] ;                    (* "+s": laid off later, credited to seat s *)
    phase    = "draw" | "meld" | "round_over" | "game_over" ;
    seat     = "0" | "1" | "2" | "3" ;
    rules    = "default" | knob { "," knob } ;         (* Rules text, "," between knobs *)

``turn`` is ``current_player``, ``must`` the card that must be melded (R14), ``passes``,
``idle`` and ``progress`` the counters of R20-R21, ``out`` the seat that went out (R18).
Canonical strings list hands in canonical order; hands may be given in any order.

**Decision:** error messages do not include the position string. It names every hidden card
(the other hands and the stock order), and servers forward error messages to players (R27).
An :class:`~persian_rummy.IllegalActionError` carries the state itself: for a bug report,
``error.state.position()`` reproduces it exactly.

A view's position (:meth:`~persian_rummy.PlayerView.position`) has ``seat=`` after the melds,
writes each hidden hand and the stock as ``?`` and a count (``?7``), and shows every hand once
the round is over (they are public then, R23):

>>> new_game(1).view(2).position()  # doctest: +ELLIPSIS
'?7/?7/9sKsJh4d9d7cKc/?7 ?27 2s - seat=2 turn=1 phase=draw must=- ...'
"""

from __future__ import annotations

from persian_rummy.state import GameState
from persian_rummy.view import PlayerView

__all__ = ["format_position", "parse_position", "parse_view_position"]


def format_position(value: GameState | PlayerView) -> str:
    """The position string of a state or a view (see the module documentation).

    >>> from persian_rummy import GameState
    >>> format_position(GameState.from_position(["", "4s 5s", "", ""], "9h", melds=["7s@0 7h@0 7d@0 7c+1"]))  # doctest: +ELLIPSIS
    '-/4s5s/-/- 2s3s6s8s9s...JkJkJk 9h 0:7s7h7d7c+1 turn=1 phase=draw must=- dealer=0 ...'
    """
    return value.position()


def parse_position(text: str) -> GameState:
    """Parse a state's position string (see the module documentation); same as
    :meth:`GameState.parse <persian_rummy.GameState.parse>`.

    Raises :class:`~persian_rummy.NotationError` for text that is not a position string and
    :class:`~persian_rummy.InvalidStateError` for a position that cannot occur.

    >>> parse_position("-/-/-/- - - - turn=0 phase=draw must=- dealer=0 deal=1 scores=0,0 passes=0 idle=0 progress=0 out=- rules=default")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    persian_rummy.errors.InvalidStateError: R1: the position must hold exactly the 56 cards of the deck; missing: 2s 3s ... Ac Jk
    """
    return GameState.parse(text)


def parse_view_position(text: str) -> PlayerView:
    """Parse a view's position string (see the module documentation); same as
    :meth:`PlayerView.parse <persian_rummy.PlayerView.parse>`.

    Raises :class:`~persian_rummy.NotationError` for text that is not a view's position
    string and :class:`~persian_rummy.InvalidStateError` for a view that cannot occur.

    >>> from persian_rummy import new_game
    >>> view = new_game(1).view(2)
    >>> parse_view_position(view.position()) == view
    True
    """
    return PlayerView.parse(text)
