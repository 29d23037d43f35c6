"""An OpenSpiel game: importing this module registers ``python_persian_rummy`` (needs ``[rl]``).

>>> import pyspiel
>>> game = pyspiel.load_game("python_persian_rummy")
>>> game.num_players(), game.num_distinct_actions(), game.max_chance_outcomes()
(4, 1436, 53)
>>> state = game.new_initial_state()
>>> state.is_chance_node(), len(state.chance_outcomes())
(True, 53)

The model:

- Four players, the seats 0-3 (team 0 is players 0 and 2, R3). Player actions are the
  :mod:`~persian_rummy.encoding` indices; ``legal_actions()`` is
  :func:`~persian_rummy.encoding.legal_indices`.
- Chance is explicit. Each deal starts with 29 chance nodes that deal one card each, in the
  order of :meth:`~persian_rummy.GameState.from_deck` (one card at a time to each player from
  the dealer's left, then the face-up card, R5); an outcome is a card number 0-52
  (:attr:`~persian_rummy.Card.index`), with probability its count among the cards not dealt
  yet. The stock stays an unordered set of cards: a stock draw (``draw``, R12) is followed by
  a chance node that picks the card among the stock's. So two histories that one player
  cannot tell apart lead to the same information state, exactly (R27).
- ``information_state_string(player)`` is everything the player has seen in the game: for
  each deal, its view at the start of the deal, then every public event (each
  :class:`~persian_rummy.Observation`, with the card of a stock draw only for the player who
  drew it), then its view now (the position string, hidden hands as counts).
  ``observation_string(player)`` is the view now; ``observation_tensor(player)`` the
  :func:`~persian_rummy.observation.observation_tensor` of the view now (shape ``(30, 53)``,
  1,590 values). There is no information-state tensor (the history has no fixed length; the
  string is exact): ``information_state_tensor`` raises :class:`InformationStateTensorError`,
  a ``pyspiel.SpielError``, as OpenSpiel's own games without one do.
- The observers (``make_observation`` with a ``pyspiel.IIGObservationType``) honour
  ``public_info`` and ``private_info``: the default (public and the player's own) is the
  above; public only (``private_info=NONE``) shows the player's own hand as a count and no
  card of any stock draw, in the string and the tensor (the hand plane is zeros), until the
  round is over and every hand is shown (R23); neither gives an empty string and tensor.
  Other players' private information (``ALL_PLAYERS``), or the private part alone, is not
  offered (:class:`~persian_rummy.InvalidArgumentError`).
  An observer's ``dict`` gives the tensor's named pieces, as OpenSpiel's own games do:
  ``hand``, ``melds``, ``credited``, ``laid_off``, ``must_meld``, ``discard_pile``,
  ``revealed_hands`` and ``scalars``, the planes of :mod:`~persian_rummy.observation` (so
  OpenSpiel reports the tensor's shape flat, ``[1590]``).
- Returns, at the end of the game only: +1 for the players of the winning team, -1 for the
  others, 0 each for a draw (R26), with the parameter ``utility="win"`` (the default); with
  ``utility="margin"``, each team's final score margin / 1000 (R23).
- The parameters are the knobs of :class:`~persian_rummy.Rules` (``deals``, ``ace_in_runs``
  …, with their defaults) and ``utility``; a name the game does not have, or a value of
  another type than the default's, is refused.
- Every node checks what it is given: a player node takes its ``legal_actions()`` only, a
  chance node the outcomes ``chance_outcomes()`` lists only; anything else raises
  :class:`~persian_rummy.InvalidArgumentError` and changes nothing, so no state is ever
  stuck. ``action_to_string`` refuses an action no node has.
- A state's text (:meth:`PersianRummyState.serialize`) is its history: the game's name and
  parameters, then every chance outcome and action. :meth:`PersianRummyGame.deserialize_state`
  replays it through the rules with every step checked; a malformed, truncated or foreign
  text raises :class:`~persian_rummy.NotationError`. Nothing is unpickled. OpenSpiel's own
  text of a state (``pyspiel.serialize_game_and_state``) holds a pickle of the state's
  attributes; for this game that pickle holds only a mark that says "replay the history", so
  OpenSpiel's reader (``pyspiel.deserialize_game_and_state``) reads this game's own texts
  back by replaying their history, checked as ours is. :func:`deserialize_game_and_state`
  reads OpenSpiel's text without unpickling anything (it compares the pickle with the bytes
  this game writes) and without handing any of it to OpenSpiel (it parses the game's string
  itself), and raises only the library's errors: the reader for text from outside. OpenSpiel's
  reader unpickles the state part of a text, in C++, before the game sees it; the pickle guard
  (``_guard``), installed at the first state of this game a process makes (never on import),
  refuses a pickle in this game's text that names any code but the replay mark.
- :meth:`PersianRummyState.resample_from_infostate` deals the cards the player has not seen
  at random, keeping in each other hand the cards it is known to hold because it took them
  from the discard pile (:func:`persian_rummy.worlds.determinize` on the player's
  :class:`~persian_rummy.InfoState`); OpenSpiel's IS-MCTS samples its worlds with it. The
  sampled state is made from the player's information alone: nothing in it depends on a card
  the player has not seen (R27).

The package's modules, each one job: the pickle guard (``_guard``), the game and its state (``_game``), a node of the
game as one value, the checks of what it is given and the mark a node is pickled as
(``_node``), the texts of a state and their readers (``_text``), the observer
(``_observer``), and the IS-MCTS player with its evaluator (``_search``).
"""

from __future__ import annotations

from persian_rummy._extras import needs_extra

with needs_extra("rl", __name__):
    import pyspiel

from persian_rummy.openspiel._game import (
    GAME_TYPE,
    PersianRummyGame,
    PersianRummyState,
    deserialize_game_and_state,
    state_from_info,
)

# Private by name, imported on purpose: OpenSpiel's text of a state calls
# persian_rummy.openspiel._replay (see _node), so the name must be found here.
from persian_rummy.openspiel._node import _replay
from persian_rummy.openspiel._observer import InformationStateTensorError
from persian_rummy.openspiel._search import ISMCTSPlayer, RolloutEvaluator

__all__ = [
    "GAME_TYPE",
    "ISMCTSPlayer",
    "InformationStateTensorError",
    "PersianRummyGame",
    "PersianRummyState",
    "RolloutEvaluator",
    "deserialize_game_and_state",
    "state_from_info",
]

# The public names are this package's, wherever their code lives: their documentation, their
# errors' tracebacks and their repr say persian_rummy.openspiel.
for _public in (
    ISMCTSPlayer,
    InformationStateTensorError,
    PersianRummyGame,
    PersianRummyState,
    RolloutEvaluator,
    deserialize_game_and_state,
    state_from_info,
):
    _public.__module__ = __name__
del _public

# A state's pickle (in OpenSpiel's text of a state) names persian_rummy.openspiel._replay (see
# _node): it must stay importable from here.
assert _replay.__module__ == __name__

pyspiel.register_game(GAME_TYPE, PersianRummyGame)
