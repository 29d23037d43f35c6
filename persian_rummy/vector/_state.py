"""The batched engine's values: :class:`State` (pgx's public fields) and :class:`GameArrays` (the
game's arrays, ``State._x``), both frozen dataclasses registered as pytrees (internal module;
the names are re-exported by :mod:`persian_rummy.vector`)."""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Mapping
from typing import TYPE_CHECKING, Final, TypeVar

import jax
import jax.numpy as jnp

from persian_rummy.errors import ArgumentTypeError, excerpt
from persian_rummy.rules import Rules

if TYPE_CHECKING:
    from persian_rummy.svg import Theme

__all__ = ["DRAW", "ENV_ID", "GAME_OVER", "MELD", "ROUND_OVER", "GameArrays", "State", "select"]

Array = jax.Array
#: The phases as numbers: :class:`~persian_rummy.Phase` in declaration order.
DRAW, MELD, ROUND_OVER, GAME_OVER = 0, 1, 2, 3
#: The environment's name, as pgx names its games (``State.env_id``, ``Env.id``).
ENV_ID: Final = "persian_rummy"


@dataclasses.dataclass(frozen=True)
class GameArrays:
    """One game's position as fixed-shape arrays, ``-1`` marking an empty slot (``State._x``):

    - ``current_player``: ``int32``, the seat to act (``State.current_player`` is a copy);
    - ``hands``: ``int8[4, 53]``, how many of each card (column = card index, 52 the joker,
      0-4) each seat holds;
    - ``stock``: ``int8[56]``, the stock bottom to top (the top card at ``stock_size - 1``);
      ``stock_size``;
    - ``pile``: ``int8[56]``, the discard pile bottom to top; ``pile_size``;
    - ``meld_id``: ``int16[18]``, the table's melds in table order, each as its number among
      the 371 melds of :data:`~persian_rummy.encoding.MELDS` (a lay-off makes another of
      them); ``meld_seat``: ``int8[18, 53]``, the seat credited with each card of each meld
      (R16; for the joker column, the seat that melded the jokers); ``meld_laid``:
      ``bool[18, 53]``, the cards laid off after the meld was made; ``joker_seat`` and
      ``joker_pos``: ``int8[18]``, the seat that laid off a joker on a set of three jokers and
      the place of that joker among the meld's four; ``num_melds``;
    - ``dealer``, ``phase`` (0 draw, 1 meld, 2 round over, 3 game over), ``must_meld`` (the
      card index to meld next, R14), ``deal_number``, ``scores`` (``int32[2]``, the teams'
      totals), ``passes`` (R20), ``idle_turns`` (R21), ``turn_progress`` (R21) and
      ``went_out`` (R18): the fields of :class:`~persian_rummy.GameState`;
    - ``table_points``: ``int32[2]``, the points of the table credited to each team, the
      doubles of sets of four melded at once included (R16, R23, R24): derived, kept so that a
      deal's end adds the hands and the bonus only;
    - ``key``: ``uint32[2]``, the game's own key: :meth:`Env.step
      <persian_rummy.vector.Env.step>` given no key deals deal ``n`` from
      ``deck(fold_in(key, n))``;
    - ``decks``: ``int8[D, 56]``, those decks for deals 2 to ``D + 1``, drawn when the game
      starts (``D`` is ``Rules.deals - 1``, or 0 when that is above 8 and a step draws each
      deck as it deals), so that a step that deals nothing shuffles nothing.

    A game's arrays are its state's ``_x``, as pgx keeps a game's own fields; the 56 cards of a
    fresh deal are in the hands, the stock and the pile:

    >>> import jax
    >>> from persian_rummy.vector import Env
    >>> arrays = Env().init(jax.random.PRNGKey(0))._x
    >>> arrays.hands.shape, arrays.hands.sum(axis=1).tolist(), int(arrays.stock_size), int(arrays.pile_size)
    ((4, 53), [7, 7, 7, 7], 27, 1)
    """

    current_player: Array
    hands: Array
    stock: Array
    stock_size: Array
    pile: Array
    pile_size: Array
    meld_id: Array
    meld_seat: Array
    meld_laid: Array
    joker_seat: Array
    joker_pos: Array
    num_melds: Array
    dealer: Array
    phase: Array
    must_meld: Array
    deal_number: Array
    scores: Array
    passes: Array
    idle_turns: Array
    turn_progress: Array
    went_out: Array
    table_points: Array
    key: Array
    decks: Array

    def replace(self, **changes: Array) -> GameArrays:
        """A copy with the fields given changed (:class:`~persian_rummy.ArgumentTypeError` for
        a name that is not a field)."""
        return _replaced(self, GAME_ARRAY_FIELDS, changes)


@dataclasses.dataclass(frozen=True)
class State:
    """One game (or, with a leading batch axis, a batch of games) as fixed-shape arrays, with
    pgx's public fields:

    - ``current_player``: ``int32``, the seat to act (after a game's end, the seat that acted
      last);
    - ``observation``: the observation of ``current_player``
      (:meth:`Env.observe <persian_rummy.vector.Env.observe>`, ``float32[30, 53]``, or the
      environment's integer ``observation_dtype``);
    - ``legal_action_mask``: ``bool[1436]``, the :mod:`~persian_rummy.encoding` numbering
      (all True once ``terminated``);
    - ``rewards``: ``float32[4]``, by seat, of the last step;
    - ``terminated``: the game is over; ``truncated``: never set (R21 bounds every deal);
    - ``_ended_deal``: ``int32``, read as :attr:`ended_deal`;
    - ``_step_count``: ``int32``, the steps taken since ``init``;
    - ``_x``: the position (:class:`GameArrays`; read it through :meth:`Env.to_states
      <persian_rummy.vector.Env.to_states>`, whose values are the library's);
    - ``_rules``: the :class:`~persian_rummy.Rules` of the environment that made it, static
      (a pytree's metadata, not an array): the environments refuse a state of other rules,
      and the pictures (:meth:`to_svg`) read the position under them.

    ``env_id`` is ``"persian_rummy"``. As pgx's states, a state draws itself: :meth:`to_svg`,
    :meth:`save_svg`, and ``_repr_html_`` for notebooks.

    >>> from persian_rummy import new_game
    >>> from persian_rummy.vector import Env
    >>> state = Env().from_states([new_game(1)])
    >>> state.env_id, state.observation.shape, state.replace(_step_count=jnp.int32(5))._step_count.tolist()
    ('persian_rummy', (1, 30, 53), 5)
    """

    current_player: Array
    observation: Array
    legal_action_mask: Array
    rewards: Array
    terminated: Array
    truncated: Array
    _ended_deal: Array
    _step_count: Array
    _x: GameArrays
    _rules: Rules = Rules()

    @property
    def env_id(self) -> str:
        """The environment's name, ``"persian_rummy"`` (pgx's ``State.env_id``)."""
        return ENV_ID

    @property
    def ended_deal(self) -> Array:
        """The number (from 1) of the deal that the last step ended, 0 if it ended none
        (``int32``; a batch gives one a row): the step whose ``rewards`` are that deal's scores
        (a deal that ends level gives zero rewards, and this still says it ended). The step
        that ends a deal that is not the last also deals the next one, so :attr:`deal_number`
        is then one more. (A property over the field ``_ended_deal``, so that pgx's check of
        a state's public fields, which allows only its own, passes.)

        >>> from persian_rummy import new_game
        >>> from persian_rummy.vector import Env
        >>> Env().from_states([new_game(1)]).ended_deal.tolist()
        [0]
        """
        return self._ended_deal

    @property
    def deal_number(self) -> Array:
        """The number (from 1) of the deal being played, or of the last one once the game is
        over (``int32``, a copy of ``_x.deal_number``; a batch gives one a row).

        >>> from persian_rummy import new_game
        >>> from persian_rummy.vector import Env
        >>> state = Env().from_states([new_game(1)])
        >>> state.deal_number.tolist(), state.ended_deal.tolist()
        ([1], [0])
        """
        return self._x.deal_number

    def replace(self, **changes: Array | GameArrays | Rules) -> State:
        """A copy with the fields given changed (pgx's ``state.replace``;
        :class:`~persian_rummy.ArgumentTypeError` for a name that is not a field)."""
        return _replaced(self, STATE_FIELDS, changes)

    def to_svg(
        self,
        *,
        seat: int | None = None,
        colors: Theme | Mapping[str, str] | None = None,
        scale: float | None = None,
    ) -> str:
        """The table as an SVG picture (pgx's ``State.to_svg``): the library's own picture
        (:func:`persian_rummy.svg.table`) of the view of ``seat``, by default the seat to
        act's, so it shows that seat's hand and card backs for the others (all hands once the
        deal is over, R23, R27): never a hidden hand. A batch draws each row's table, in a
        grid. ``colors`` as for :func:`~persian_rummy.svg.table`; ``scale`` multiplies the
        size (as pgx's). The state is read as :meth:`Env.to_states
        <persian_rummy.vector.Env.to_states>` reads it, with its checks and errors.

        >>> from persian_rummy import new_game
        >>> from persian_rummy.vector import Env
        >>> picture = Env().from_states([new_game(1)]).to_svg()
        >>> picture.startswith("<svg"), picture.count('class="card back"')
        (True, 24)
        """
        from persian_rummy.vector._picture import picture  # the one hook above this layer

        return picture(self, seat=seat, colors=colors, scale=scale)

    def save_svg(
        self,
        filename: str | os.PathLike[str],
        *,
        seat: int | None = None,
        colors: Theme | Mapping[str, str] | None = None,
        scale: float | None = None,
    ) -> None:
        """Write :meth:`to_svg`'s picture to ``filename`` (pgx's ``State.save_svg``)."""
        if not isinstance(filename, str | os.PathLike):
            raise ArgumentTypeError(f"save_svg: filename must be a path, not {excerpt(filename)}")
        text = self.to_svg(seat=seat, colors=colors, scale=scale)
        with open(filename, "w", encoding="utf-8") as file:
            file.write(text)

    def _repr_html_(self) -> str:
        """:meth:`to_svg`'s picture, as notebooks show it (pgx's)."""
        return self.to_svg()


GAME_ARRAY_FIELDS: Final = tuple(field.name for field in dataclasses.fields(GameArrays))
STATE_FIELDS: Final = tuple(field.name for field in dataclasses.fields(State))
jax.tree_util.register_dataclass(GameArrays, data_fields=list(GAME_ARRAY_FIELDS), meta_fields=[])
jax.tree_util.register_dataclass(
    State, data_fields=[name for name in STATE_FIELDS if name != "_rules"], meta_fields=["_rules"]
)

Tree = TypeVar("Tree", State, GameArrays)


def _replaced(value: Tree, names: tuple[str, ...], changes: Mapping[str, object]) -> Tree:
    unknown = sorted(set(changes) - set(names))
    if unknown:
        raise ArgumentTypeError(
            f"{type(value).__name__}.replace: no field {', '.join(unknown)} (its fields: {', '.join(names)})"
        )
    return dataclasses.replace(value, **changes)  # type: ignore[arg-type]


def select(condition: Array, chosen: Tree, other: Tree) -> Tree:
    """``chosen`` where ``condition`` holds, else ``other``, field by field (a branch as a value)."""
    result: Tree = jax.tree_util.tree_map(lambda a, b: jnp.where(condition, a, b), chosen, other)
    return result
