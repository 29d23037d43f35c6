"""Game records: whole games as text (``.prr`` files), saved, loaded and replayed exactly.

A record holds the rules, the players and teams, and for each deal the dealer, the seed or the
full deck order, every action in order (each with an optional comment) and the scores at the
end of the deal. :func:`load`, :func:`loads`, :func:`dump` and :func:`dumps` work like
:mod:`json`'s. Make records while playing with a :class:`Recorder`, or afterwards with
:meth:`GameRecord.from_actions`; iterate a record (or call :meth:`GameRecord.states`) for
every intermediate state. :func:`loads` checks what it reads by replaying it, so a record that
loads is a legal game with the scores it states.

The text format is PGN-like: tags in square brackets, then one action per line::

    [Format "persian-rummy record 1"]
    [Rules "default"]
    [Seat0 "North"]
    ...
    [Scores [82, 130]]

    [Deal 1]
    [Dealer 0]
    [Seed 1]
    [Scores [-17, 32]]
    E draw
    E discard Jk ; a joker, thrown away
    S take 0
    ...

Grammar (EBNF; ``json`` is one JSON value on the line, ``action`` is the text form of
:class:`~persian_rummy.Action`, ``text`` runs to the end of the line)::

    record      = { blank } header { blank } { deal } ;
    header      = { tag } ;                          (* Format first *)
    deal        = deal-tag { tag } { action-line | blank } ;
    deal-tag    = "[Deal " integer "]" NL ;
    tag         = "[" name " " json "]" NL ;
    action-line = seat " " action [ " ;" [ " " text ] ] NL ;
    seat        = "N" | "E" | "S" | "W" ;            (* seats 0, 1, 2, 3 *)
    blank       = { " " } NL ;

Game tags: ``Format`` (``"persian-rummy record 1"``, required, first), ``Rules`` (the text
of :class:`~persian_rummy.Rules`), ``Seat0``-``Seat3`` (player names), ``Team0``/``Team1``
(team names; team 0 is seats 0 and 2, R3), ``Viewer`` (only in a redacted record: the seat
it was redacted for) and ``Scores`` (the final totals, once the game is over). Deal tags:
``Dealer`` (a seat), ``Seed`` (a whole number or a string, see
:func:`~persian_rummy.shuffled_deck`) and/or ``Deck`` (the 56 cards in dealing order, see
:meth:`~persian_rummy.GameState.from_deck`; ``??`` for a card hidden from the viewer),
``Scores`` (the cumulative totals once the deal is over) and, in redacted records only,
``Hands`` (the four hands at the end of the deal, public then: R23).

A redacted record (:meth:`GameRecord.redact`) is what one seat saw: every card it did not
see is written ``??``, the seed is dropped, and it replays as that seat's views
(:meth:`GameRecord.views`).

>>> from persian_rummy import legal_actions
>>> recorder = Recorder()
>>> state = recorder.deal(seed=1)
>>> while not state.is_deal_over:
...     state = recorder.play(legal_actions(state)[0])
>>> record = recorder.record()
>>> text = dumps(record)
>>> print(text[:text.index("[Deal")])
[Format "persian-rummy record 1"]
[Rules "default"]
[Seat0 "North"]
[Seat1 "East"]
[Seat2 "South"]
[Seat3 "West"]
[Team0 "North-South"]
[Team1 "East-West"]
<BLANKLINE>
>>> loads(text) == record, list(loads(text))[-1] == state
(True, True)
"""

from persian_rummy.record._deal import DEFAULT_PLAYERS, DEFAULT_TEAMS, DealRecord, RecordedAction
from persian_rummy.record._game import GameRecord, Replay
from persian_rummy.record._recorder import Recorder
from persian_rummy.record._text import FORMAT, dump, dumps, load, loads

__all__ = [
    "DEFAULT_PLAYERS",
    "DEFAULT_TEAMS",
    "FORMAT",
    "DealRecord",
    "GameRecord",
    "RecordedAction",
    "Recorder",
    "Replay",
    "dump",
    "dumps",
    "load",
    "loads",
]
