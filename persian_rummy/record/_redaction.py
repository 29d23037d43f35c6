"""Redaction: a record as one seat saw it, and the hidden cards placed back so that it
replays (internal; see :meth:`persian_rummy.record.GameRecord.redact` and
:meth:`~persian_rummy.record.GameRecord.views`)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

import attrs

from persian_rummy._moves import meld_partners
from persian_rummy.actions import Discard, DrawDiscard, DrawStock, LayOff, MeldCards
from persian_rummy.cards import DECK_COUNTS, Card
from persian_rummy.errors import ReplayError
from persian_rummy.record._deal import DEALT, DealRecord
from persian_rummy.state import PLAYERS, GameState
from persian_rummy.worlds import cards_to_complete, fill_hidden, unseen_cards


def check_final_hands(deals: Sequence[DealRecord], states: Sequence[GameState]) -> None:
    """The Hands tags of a redacted record are the hands its replay ends each deal with (R23):
    a card missing from a tag, or a finished deal with no tag, would otherwise show hands made
    up from the unseen cards."""
    end = -1
    for deal in deals:
        end += 1 + len(deal.actions)  # a strict replay has the first state and one per action
        if deal.final_hands is None:
            if states[end].is_deal_over:
                raise ReplayError(
                    "R23: a finished deal of a redacted record shows the hands (tag Hands)", deal=deal.number
                )
            continue
        if not states[end].is_deal_over or states[end].hands != deal.final_hands:
            raise ReplayError(
                "R23: the tag Hands is not the four hands at the end of the deal (the deal is not over, "
                "or the hands shown do not add up with the actions)",
                deal=deal.number,
            )


def fill_deck(deal: DealRecord, viewer: int, oldest_first: bool = True) -> tuple[Card, ...]:
    """A full deck for a redacted deal, consistent with everything public: each card another
    seat played (or held at the end) is placed at one of the deck positions that seat had
    received by then; the cards nobody saw fill the rest."""
    deck = list(deal.deck)
    # Deck positions each seat has received and not yet matched with a card, oldest first.
    open_slots: list[list[int]] = [[] for _ in range(PLAYERS)]
    from_pile: list[Counter[Card]] = [Counter() for _ in range(PLAYERS)]
    for position in range(DEALT):
        seat = (position + deal.dealer + 1) % PLAYERS
        if seat != viewer:
            open_slots[seat].append(position)
    if deck[DEALT] is None:
        raise ReplayError("the card turned up to start the discard pile is public, but it is hidden", deal=deal.number)
    pile: list[Card] = [deck[DEALT]]  # type: ignore[list-item]
    taken: list[Card] = pile[:1]
    drawn = 0

    def place(seat: int, card: Card, index: int | None) -> None:
        if seat == viewer:
            return
        if from_pile[seat][card] > 0:
            from_pile[seat][card] -= 1
            return
        if not open_slots[seat]:
            raise ReplayError(f"seat {seat} plays {card}, which it cannot hold", deal=deal.number, index=index)
        deck[open_slots[seat].pop(0 if oldest_first else -1)] = card

    for index, item in enumerate(deal.actions):
        action, seat = item.action, item.seat
        if type(action) is DrawStock:
            position = DEALT + 1 + drawn
            drawn += 1
            if position >= len(deck):
                raise ReplayError("the stock has only 27 cards", deal=deal.number, index=index)
            if seat != viewer:
                open_slots[seat].append(position)
        elif type(action) is DrawDiscard:
            taken = pile[action.index :] or taken
            del pile[action.index :]
            from_pile[seat].update(taken)
        elif type(action) is MeldCards:
            for card in action.cards:
                place(seat, card, index)
        elif type(action) is LayOff:
            place(seat, action.card, index)
        elif type(action) is Discard:
            place(seat, action.card, index)
            pile.append(action.card)
    if deal.final_hands is not None:
        for seat, hand in enumerate(deal.final_hands):
            for card in hand:
                place(seat, card, None)
    known = [card for card in deck if card is not None]
    if Counter(known) - DECK_COUNTS:
        raise ReplayError("the record names more cards than the deck holds", deal=deal.number)
    unseen = unseen_cards(known)
    last = deal.actions[-1] if deal.actions else None
    if last is not None and type(last.action) is DrawDiscard and last.seat != viewer and deal.final_hands is None:
        # The record stops right after another seat took from the pile: that take was legal
        # (R14), so the seat held cards that meld the target; place some unseen ones that do.
        slots = open_slots[last.seat]
        held = list(from_pile[last.seat].elements())
        held.remove(taken[0])  # the target itself is not its own partner
        need = cards_to_complete(meld_partners(taken[0]), held, unseen, len(slots))
        for card in need or ():
            deck[slots.pop(0)] = card
            unseen.remove(card)
    if deck.count(None) != len(unseen):
        # A crafted record can place a card where it was already known: then the hidden
        # positions and the unseen cards no longer match.
        raise ReplayError(
            "the record's hidden cards and the cards nobody saw do not add up to the deck", deal=deal.number
        )
    # The cards nobody saw, in card order.
    return fill_hidden(deck, unseen)


def redacted_deals(deals_in: Sequence[DealRecord], states: Sequence[GameState], seat: int) -> tuple[DealRecord, ...]:
    """The deals of a record as ``seat`` saw them, given every state of its strict replay:
    see :meth:`GameRecord.redact <persian_rummy.record.GameRecord.redact>`."""
    deals = []
    position = 0
    for deal in deals_in:
        start = states[position]
        seen = [((p + deal.dealer + 1) % PLAYERS == seat) for p in range(DEALT)] + [True] + [False] * 27
        state = start
        drawn = 0
        for item in deal.actions:
            if type(item.action) is DrawStock:
                if item.seat == seat:
                    seen[DEALT + 1 + drawn] = True
                drawn += 1
            position += 1
            state = states[position]
        position += 1
        deck = tuple(card if visible else None for card, visible in zip(deal.deck, seen, strict=True))
        final = state.hands if state.is_deal_over else None
        actions = tuple(
            item if item.seat == seat or not item.comment else attrs.evolve(item, comment="") for item in deal.actions
        )
        deals.append(attrs.evolve(deal, deck=deck, seed=None, final_hands=final, actions=actions))
    return tuple(deals)
