"""The rules in motion: legal actions and the pure functions that play them (R12-R21).

Every function here takes a :class:`~persian_rummy.GameState` and returns a new one (or a
tuple of actions); none changes its arguments. Each asks the one check of its family of
actions (``persian_rummy._moves``, below the state; see the architecture page) and raises the
refusal it returns: a subclass of :class:`~persian_rummy.IllegalActionError` that names the
rule, and the state passed in stays as it was. Then it makes the next state.

>>> from persian_rummy import new_game, legal_draws, play, DrawStock
>>> state = new_game(1)
>>> legal_draws(state)
(DrawStock(),)
>>> state = play(state, DrawStock())
>>> state.phase, len(state.hand)
(<Phase.MELD: 'meld'>, 8)
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, Final, cast

from persian_rummy._moves import (
    CHECKS,
    Check,
    Refusal,
    goes_out,
    lay_off_verdict,
    seat_verdict,
    take_verdict,
    verdict,
    without,
)
from persian_rummy.actions import (
    DISCARDS,
    DRAW_STOCK,
    PASS,
    Action,
    Discard,
    DrawDiscard,
    DrawStock,
    LayOff,
    MeldCards,
    Pass,
    draw_discard_action,
    lay_off_action,
)
from persian_rummy.cards import JOKER_INDEX, Card
from persian_rummy.errors import (
    ArgumentTypeError,
    NotationError,
    StateRequiredError,
    excerpt,
)
from persian_rummy.hand import Hand, make_hand
from persian_rummy.limits import MELD_LIMIT, PILE_LIMIT
from persian_rummy.melds import Meld
from persian_rummy.scoring import tally
from persian_rummy.state import PLAYERS, GameState, Phase, PlayerView, evolve, turn_actions
from persian_rummy.view import InfoState

__all__ = [
    "discard",
    "draw_discard",
    "draw_stock",
    "info_after",
    "is_legal",
    "lay_off",
    "legal_actions",
    "legal_draws",
    "meld",
    "pass_turn",
    "play",
]


# --- Enumeration -------------------------------------------------------------------------


def legal_draws(state: GameState | PlayerView) -> tuple[Action, ...]:
    """The legal actions of the draw phase, in order: :class:`~persian_rummy.DrawStock` if the
    stock has cards (R12), each :class:`~persian_rummy.DrawDiscard` whose target can be melded
    or laid off at once, from the bottom of the pile up (R13-R14), and
    :class:`~persian_rummy.Pass` when the stock is empty (R20). Empty in any other phase,
    and for a :class:`~persian_rummy.PlayerView` of a seat that is not to move.

    >>> from persian_rummy import GameState
    >>> state = GameState.from_position(["", "5s 6s Kd", "", ""], "4s Qh 9c 7s")
    >>> legal_draws(state)
    (DrawStock(), DrawDiscard(index=0), DrawDiscard(index=3))
    """
    return turn_actions(state, draws_only=True)


def legal_actions(state: GameState | PlayerView) -> tuple[Action, ...]:
    """Every legal action of the player to move, in a deterministic order.

    In the draw phase these are :func:`legal_draws`. After the draw: every meld the hand can
    make (sets by rank, runs by suit from low to high, joker sets), every lay-off (by table
    meld, in table order), every discard (in card order); after a discard-pile draw only the
    melds and lay-offs that use its target (R14). Empty once the round is over. The list is
    authoritative: each action in it can be played, and :func:`play` raises for any other.
    Given a :class:`~persian_rummy.PlayerView`, the same actions for the seat to move, and
    none for the other seats; anything else raises :class:`~persian_rummy.ArgumentTypeError`.

    >>> from persian_rummy import GameState, draw_discard
    >>> state = GameState.from_position(["", "5s 6s 7s 8s", "", ""], "2c 8c 8h", melds=["Kd@0 Qd@0 Jd@0"])
    >>> state = draw_discard(state, 1)  # takes 8c 8h; the 8c must be melded (R14)
    >>> [str(action) for action in legal_actions(state)]
    ['meld 8s 8h 8c']
    >>> [str(action) for action in legal_actions(play(state, "meld 8s 8h 8c"))]
    ['meld 5s 6s 7s', 'discard 5s', 'discard 6s', 'discard 7s']
    """
    return turn_actions(state)


# --- Checks ------------------------------------------------------------------------------
# Each family of actions has its one check in persian_rummy._moves; the engine raises the
# refusal it returns, with the state and the action.


def _require_state(state: object) -> None:
    if isinstance(state, GameState):
        return
    if isinstance(state, PlayerView):
        what = "not a PlayerView: the next state depends on hidden cards; is_legal() and legal_actions() accept a view"
    else:
        what = f"not {excerpt(state)}"
    raise StateRequiredError(f"R27: play() needs the full GameState, {what}")


# --- Transitions -------------------------------------------------------------------------


def _next_turn(
    state: GameState,
    hands: tuple[Hand, ...],
    discard_pile: tuple[Card, ...],
    passed: bool,
) -> GameState:
    """End the current player's turn (discard or pass): count passes and idle turns, end the
    round after four passes (or the first, R20) or eight idle turns (R21), else pass the turn
    to the left."""
    rules = state.rules
    passes = state.consecutive_passes + 1 if passed else 0
    idle = 0 if state.turn_progress else state.idle_turns + 1
    if (passed and passes >= rules.pass_limit) or idle >= rules.idle_limit:
        return _end_round(state, hands, state.melds, discard_pile, None, passes, idle)
    return evolve(
        state,
        hands=hands,
        discard_pile=discard_pile,
        current_player=(state.current_player + 1) % PLAYERS,
        phase=Phase.DRAW,
        must_meld=None,
        consecutive_passes=passes,
        idle_turns=idle,
        turn_progress=False,
    )


def _end_round(
    state: GameState,
    hands: tuple[Hand, ...],
    melds: tuple[Meld, ...],
    discard_pile: tuple[Card, ...],
    went_out: int | None,
    passes: int,
    idle: int,
) -> GameState:
    rules = state.rules
    first, second = tally(melds, hands, went_out=went_out, rules=rules)
    scores = (state.scores[0] + first.total, state.scores[1] + second.total)
    return evolve(
        state,
        hands=hands,
        discard_pile=discard_pile,
        melds=melds,
        phase=Phase.GAME_OVER if state.deal_number >= rules.deals else Phase.ROUND_OVER,
        must_meld=None,
        scores=scores,
        consecutive_passes=passes,
        idle_turns=idle,
        turn_progress=True if went_out is not None else state.turn_progress,
        went_out=went_out,
    )


def _after_table_change(state: GameState, hand: Hand, melds: tuple[Meld, ...]) -> GameState:
    seat = state.current_player
    hands = state.hands[:seat] + (hand,) + state.hands[seat + 1 :]
    if goes_out(hand, state.rules, by_discard=False):
        # R18: a player who empties their hand by melding or laying off goes out at once.
        return _end_round(state, hands, melds, state.discard_pile, seat, state.consecutive_passes, 0)
    return evolve(state, hands=hands, melds=melds, phase=Phase.MELD, must_meld=None, turn_progress=True)


def draw_stock(state: GameState) -> GameState:
    """Take the top card of the stock (R12).

    Raises :class:`~persian_rummy.WrongPhaseError` outside the draw phase and
    :class:`~persian_rummy.EmptyStockError` when the stock is empty.

    >>> from persian_rummy import new_game
    >>> state = new_game(1)
    >>> after = draw_stock(state)
    >>> after.hands[1] == state.hands[1] + Hand([state.stock[-1]]), len(after.stock)
    (True, 26)
    """
    return _play_checked(state, DRAW_STOCK)


def _draw_stock(state: GameState, action: DrawStock, allowed: None) -> GameState:
    seat = state.current_player
    card = state.stock[-1]
    hand = state.hands[seat]
    if card.index == JOKER_INDEX:
        new_hand = make_hand(hand.mask, hand.jokers + 1)
    else:
        new_hand = make_hand(hand.mask | 1 << card.index, hand.jokers)
    return evolve(
        state,
        hands=state.hands[:seat] + (new_hand,) + state.hands[seat + 1 :],
        stock=state.stock[:-1],
        phase=Phase.MELD,
        must_meld=None,
        turn_progress=True,
    )


def draw_discard(state: GameState, index: int) -> GameState:
    """Take ``discard_pile[index]`` and every card above it (R13); that card, the target, must be
    melded or laid off by the next action (R14), so the draw is legal only if that is possible
    now with the hand and all the cards taken. Under ``top_card_must_meld=False`` the top card
    alone may be taken freely.

    Raises :class:`~persian_rummy.WrongPhaseError` outside the draw phase and
    :class:`~persian_rummy.InvalidDrawError` for an index not in the pile or a target that
    cannot be used.

    >>> from persian_rummy import GameState
    >>> state = GameState.from_position(["", "5s 6s Kd", "", ""], "4s Qh 9c 7s")
    >>> after = draw_discard(state, 0)
    >>> after.hand, after.discard_pile, after.must_meld
    (Hand.parse('4s 5s 6s 7s Qh Kd 9c'), (), Card.parse('4s'))
    """
    # Bounded before anything is built from the index (the shared actions are a fixed table).
    action = draw_discard_action(index) if type(index) is int and 0 <= index < PILE_LIMIT else None
    if action is not None:
        return _play_checked(state, action)
    if type(state) is not GameState:
        _require_state(state)
    refusal = take_verdict(state, state.hands[state.current_player], index, None)  # refuses: no such index
    raise cast(Refusal, refusal).exception(state, None)


def _draw_discard(state: GameState, action: DrawDiscard, taken: tuple[int, int, Card | None]) -> GameState:
    seat = state.current_player
    mask, jokers, must = taken
    return evolve(
        state,
        hands=state.hands[:seat] + (make_hand(mask, jokers),) + state.hands[seat + 1 :],
        discard_pile=state.discard_pile[: action.index],
        phase=Phase.MELD,
        must_meld=must,
    )


def meld(state: GameState, cards: str | Iterable[Card | str]) -> GameState:
    """Lay down a set or run from the hand (R8-R11, R15), credited to the player; emptying the
    hand this way goes out and ends the round (R18).

    Raises :class:`~persian_rummy.CardNotInHandError`, :class:`~persian_rummy.InvalidMeldError`,
    :class:`~persian_rummy.TargetNotUsedError` (R14), :class:`~persian_rummy.LastCardError`
    (R19 ``"forbidden"``) or :class:`~persian_rummy.WrongPhaseError`.

    >>> from persian_rummy import GameState, draw_stock
    >>> state = draw_stock(GameState.from_position(["", "5s 6s 7s 8s", "", ""], "2c"))
    >>> after = meld(state, "8s 7s 6s")
    >>> after.melds, after.hand
    ((Meld.parse('6s@1 7s@1 8s@1'),), Hand.parse('5s Jk'))
    """
    return _play_checked(state, MeldCards(cards))


def _meld(state: GameState, action: MeldCards, made: Meld) -> GameState:
    hand = state.hands[state.current_player]
    jokers = len(made) - made.mask.bit_count()  # the new meld's jokers
    left = make_hand(hand.mask & ~made.mask, hand.jokers - jokers)
    return _after_table_change(state, left, state.melds + (made,))


def lay_off(state: GameState, card: Card | str, meld: int) -> GameState:
    """Add ``card`` from the hand to table meld number ``meld`` (own, partner's or an
    opponent's), credited to the player's team, keeping the meld valid (R16); emptying the
    hand this way goes out (R18).

    Raises :class:`~persian_rummy.NoSuchMeldError`, :class:`~persian_rummy.CardNotInHandError`,
    :class:`~persian_rummy.InvalidLayOffError`, :class:`~persian_rummy.TargetNotUsedError`
    (R14), :class:`~persian_rummy.LastCardError` (R19) or
    :class:`~persian_rummy.WrongPhaseError`.

    >>> from persian_rummy import GameState, draw_stock
    >>> state = GameState.from_position(["", "3c 9h", "", ""], "2d", melds=["4c@3 5c@3 6c@3"])
    >>> after = lay_off(draw_stock(state), "3c", 0)
    >>> after.melds[0]
    Meld.parse('3c+1 4c@3 5c@3 6c@3')
    """
    card = Card.parse(card)
    action = lay_off_action(card.index, meld) if type(meld) is int and 0 <= meld < MELD_LIMIT else None
    if action is not None:
        return _play_checked(state, action)
    if type(state) is not GameState:
        _require_state(state)
    refusal = lay_off_verdict(state, state.hands[state.current_player], card, meld, None)  # refuses: no such meld
    raise cast(Refusal, refusal).exception(state, None)


def _lay_off(state: GameState, action: LayOff, extended: Meld) -> GameState:
    hand = state.hands[state.current_player]
    melds = state.melds
    number = action.meld
    mask, jokers = without(hand.mask, hand.jokers, action.card.index)
    return _after_table_change(state, make_hand(mask, jokers), melds[:number] + (extended,) + melds[number + 1 :])


def discard(state: GameState, card: Card | str) -> GameState:
    """Discard ``card`` on top of the discard pile, ending the turn (R17). Discarding the last
    card keeps the player in with an empty hand (R19, default), ends the round as going out
    (``"goes_out"``) or is illegal (``"forbidden"``).

    Raises :class:`~persian_rummy.CardNotInHandError`, :class:`~persian_rummy.TargetNotUsedError`
    (R14), :class:`~persian_rummy.LastCardError` (R19) or
    :class:`~persian_rummy.WrongPhaseError`.

    >>> from persian_rummy import new_game
    >>> state = draw_stock(new_game(1))
    >>> after = discard(state, "Jk")
    >>> after.discard_pile[-1], after.current_player, after.phase
    (Card.parse('Jk'), 2, <Phase.DRAW: 'draw'>)
    """
    return _play_checked(state, DISCARDS[Card.parse(card).index])


def _discard(state: GameState, action: Discard, allowed: None) -> GameState:
    card = action.card
    seat = state.current_player
    hand = state.hands[seat]
    new_hand = make_hand(*without(hand.mask, hand.jokers, card.index))
    hands = state.hands[:seat] + (new_hand,) + state.hands[seat + 1 :]
    pile = state.discard_pile + (card,)
    if goes_out(new_hand, state.rules, by_discard=True):
        return _end_round(state, hands, state.melds, pile, seat, 0, 0)
    return _next_turn(state, hands, pile, passed=False)


def pass_turn(state: GameState) -> GameState:
    """Pass instead of drawing, allowed only when the stock is empty (R20). The round ends
    after four passes in a row (``stock_out_end="all_pass"``) or at the first
    (``"first_pass"``), with no going-out bonus.

    Raises :class:`~persian_rummy.PassNotAllowedError` while the stock has cards and
    :class:`~persian_rummy.WrongPhaseError` outside the draw phase.

    >>> from persian_rummy import GameState, DECK
    >>> state = GameState.from_position([DECK[:13], DECK[13:26], DECK[26:39], DECK[39:52]], "Jk Jk Jk Jk", stock=())
    >>> state = pass_turn(pass_turn(pass_turn(state)))
    >>> state.consecutive_passes, pass_turn(state).phase
    (3, <Phase.ROUND_OVER: 'round_over'>)
    """
    return _play_checked(state, PASS)


def _pass_turn(state: GameState, action: Pass, allowed: None) -> GameState:
    return _next_turn(state, state.hands, state.discard_pile, passed=True)


#: How each kind of action is played: the check of its family (persian_rummy._moves), and how
#: the next state is made from a state and what the check allowed.
_PLAYS: Final[dict[type[object], tuple[Check, Callable[[GameState, Any, Any], GameState]]]] = {
    DrawStock: (CHECKS[DrawStock], _draw_stock),
    DrawDiscard: (CHECKS[DrawDiscard], _draw_discard),
    MeldCards: (CHECKS[MeldCards], _meld),
    LayOff: (CHECKS[LayOff], _lay_off),
    Discard: (CHECKS[Discard], _discard),
    Pass: (CHECKS[Pass], _pass_turn),
}


def _play_checked(state: GameState, action: Action) -> GameState:
    # The one way every action is played: the check of its family, whose refusal is raised,
    # then the next state made from what it allowed. (play inlines it.)
    if type(state) is not GameState:
        _require_state(state)
    check, next_state = _PLAYS[type(action)]
    allowed = check(state, state.hands[state.current_player], len(state.stock), action)
    if isinstance(allowed, Refusal):
        raise allowed.exception(state, action)
    return next_state(state, action, allowed)


def play(state: GameState, action: Action | str, *, seat: int | None = None) -> GameState:
    """Play ``action`` (an :class:`~persian_rummy.Action` or its text) for the player to move
    and return the next state. Raises a subclass of :class:`~persian_rummy.IllegalActionError`
    if the rules forbid it (the state passed in is unchanged), or
    :class:`~persian_rummy.NotationError` for text that is not an action, and
    :class:`~persian_rummy.ArgumentTypeError` for a value that is neither.

    ``seat`` is the seat the action comes from, for a server that takes actions from four
    players: while the round is live, an action from any seat but ``state.current_player``
    raises :class:`~persian_rummy.NotYourTurnError` before the action is looked at. A
    :class:`~persian_rummy.PlayerView` cannot be played forward (the next state depends on
    hidden cards): it raises :class:`~persian_rummy.StateRequiredError`.

    >>> from persian_rummy import new_game
    >>> state = play(new_game(1), "draw")
    >>> play(state, "discard Jk").current_player
    2
    >>> play(state, "discard Jk", seat=2)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    persian_rummy.errors.NotYourTurnError: R6: it is seat 1's turn, not seat 2's [deal 1 of 2, seat 1 to act, ...]
    """
    if seat is not None:
        _require_seat(state, seat, action)
    plays = _PLAYS.get(type(action))
    if plays is not None:  # an action: _play_checked, inlined (the engine's hot path)
        if type(state) is not GameState:
            _require_state(state)
        check, next_state = plays
        allowed = check(state, state.hands[state.current_player], len(state.stock), action)
        if isinstance(allowed, Refusal):
            raise allowed.exception(state, action)
        return next_state(state, action, allowed)
    if isinstance(action, str):
        return play(state, Action.parse(action))
    _require_state(state)
    raise ArgumentTypeError(f"expected an Action or its text, not {excerpt(action)}")


def _require_seat(state: GameState | PlayerView, seat: object, action: object) -> None:
    refusal = seat_verdict(state, seat)
    if refusal is not None:
        shown = action if refusal.rule == "R3" or isinstance(action, Action) else None
        raise refusal.exception(_as_state(state), shown)


def _as_state(state: object) -> GameState | None:
    return state if type(state) is GameState else None


def is_legal(state: GameState | PlayerView, action: Action | str, *, seat: int | None = None) -> bool:
    """Whether ``action`` may be played now (exactly when it is in :func:`legal_actions`), and,
    given ``seat``, whether that seat may play it (it is to move).

    A :class:`~persian_rummy.PlayerView` is answered from what it knows: the seat to move's
    own view knows its whole hand, so the answer is the same as for the full state; every
    other seat's view answers ``False`` (as :func:`legal_actions` lists nothing for it).
    Text that is not an action is not legal; a value that is neither an action nor text raises
    :class:`~persian_rummy.ArgumentTypeError`, as :func:`play` does.

    >>> from persian_rummy import new_game, observe, DrawStock, Pass
    >>> is_legal(new_game(1), DrawStock()), is_legal(new_game(1), Pass())
    (True, False)
    >>> is_legal(new_game(1), "draw", seat=2), is_legal(observe(new_game(1), 1), "draw")
    (False, True)
    """
    if isinstance(action, str):
        try:
            action = Action.parse(action)
        except NotationError:
            return False
    elif not isinstance(action, Action) or type(action) not in _PLAYS:
        raise ArgumentTypeError(f"expected an Action or its text, not {excerpt(action)}")
    if seat is not None and (type(seat) is not int or seat != state.current_player):
        return False
    if isinstance(state, PlayerView):
        # Only the seat to move knows its whole hand; legal_actions lists nothing for others.
        if state.seat != state.current_player:
            return False
        allowed = verdict(state, state.hand, state.stock_size, action)
    else:
        _require_state(state)  # a GameState, or it raises
        allowed = verdict(state, state.hands[state.current_player], len(state.stock), action)
    return not isinstance(allowed, Refusal)


def info_after(state: GameState, actions: Iterable[Action | str], *, seat: int) -> InfoState:
    """Play ``actions`` from ``state`` and return ``seat``'s information state at the end: its
    view and every public event of the actions, as it saw them (R27). Raises what
    :func:`play` raises for an illegal action, and :class:`~persian_rummy.ArgumentTypeError`
    for ``actions`` that are not a sequence of actions (one action's text alone is not).

    >>> from persian_rummy import new_game
    >>> info_after(new_game(1), ["draw"], seat=1).history[0].cards
    (Card.parse('Ad'),)
    """
    if isinstance(actions, str) or not isinstance(actions, Iterable):
        raise ArgumentTypeError(f"expected actions or their texts, in order, not {excerpt(actions)}")
    info = InfoState.start(state, seat)
    for action in actions:
        if isinstance(action, str):
            action = Action.parse(action)
        state = play(state, action)
        info = info.update(action, state)
    return info
