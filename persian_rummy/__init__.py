"""persian-rummy: the rules of Persian Rummy as an immutable, typed Python library."""

from persian_rummy.actions import Action, Discard, DrawDiscard, DrawStock, LayOff, MeldCards, Pass
from persian_rummy.cards import DECK, JOKER, Card, Rank, Suit, parse_cards
from persian_rummy.dealing import new_game, next_deal, shuffled_deck
from persian_rummy.engine import (
    discard,
    draw_discard,
    draw_stock,
    is_legal,
    lay_off,
    legal_actions,
    legal_draws,
    meld,
    pass_turn,
    play,
)
from persian_rummy.errors import (
    CardNotInHandError,
    EmptyStockError,
    GameNotOverError,
    IllegalActionError,
    InvalidDrawError,
    InvalidLayOffError,
    InvalidMeldError,
    InvalidRulesError,
    InvalidStateError,
    LastCardError,
    NoSuchMeldError,
    NotationError,
    PassNotAllowedError,
    PersianRummyError,
    ReplayError,
    RoundNotOverError,
    TargetNotUsedError,
    WrongPhaseError,
)
from persian_rummy.hand import Hand
from persian_rummy.melds import Meld, MeldKind
from persian_rummy.partnerships import PartnershipDraw, draw_partnerships
from persian_rummy.rules import PRESETS, Rules
from persian_rummy.scoring import RoundScore, score_round, winner
from persian_rummy.state import GameState, Phase, team_of
from persian_rummy.view import PlayerView, observe

__version__ = "0.1.0"

__all__ = [
    "DECK",
    "JOKER",
    "PRESETS",
    "Action",
    "Card",
    "CardNotInHandError",
    "Discard",
    "DrawDiscard",
    "DrawStock",
    "EmptyStockError",
    "GameNotOverError",
    "GameState",
    "Hand",
    "IllegalActionError",
    "InvalidDrawError",
    "InvalidLayOffError",
    "InvalidMeldError",
    "InvalidRulesError",
    "InvalidStateError",
    "LastCardError",
    "LayOff",
    "Meld",
    "MeldCards",
    "MeldKind",
    "NoSuchMeldError",
    "NotationError",
    "PartnershipDraw",
    "Pass",
    "PassNotAllowedError",
    "PersianRummyError",
    "Phase",
    "PlayerView",
    "Rank",
    "ReplayError",
    "RoundNotOverError",
    "RoundScore",
    "Rules",
    "Suit",
    "TargetNotUsedError",
    "WrongPhaseError",
    "discard",
    "draw_discard",
    "draw_partnerships",
    "draw_stock",
    "is_legal",
    "lay_off",
    "legal_actions",
    "legal_draws",
    "meld",
    "new_game",
    "next_deal",
    "observe",
    "parse_cards",
    "pass_turn",
    "play",
    "score_round",
    "shuffled_deck",
    "team_of",
    "winner",
]
