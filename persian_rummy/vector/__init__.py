"""An exact vectorized engine in JAX: thousands of games per call (needs the ``[jax]`` extra).

In the idiom of pgx, every function of :class:`Env` plays **one** game, as pure functions of
fixed-shape arrays; users batch with ``jax.vmap`` and compile with ``jax.jit``, and a loop
written for pgx's API runs on it unchanged:

>>> import jax
>>> env = Env()
>>> init, step = jax.jit(jax.vmap(env.init)), jax.jit(jax.vmap(env.step))
>>> keys = jax.random.split(jax.random.PRNGKey(0), 2)
>>> state = init(keys)
>>> state.current_player.tolist(), state.observation.shape, state.legal_action_mask.shape
([1, 1], (2, 30, 53), (2, 1436))
>>> state = step(state, jax.numpy.zeros(2, jax.numpy.int32))  # draw from the stock
>>> state.legal_action_mask.sum(axis=1).tolist() == [int(m.sum()) for m in state.legal_action_mask]
True

Every row is exactly the scalar engine's position: :meth:`Env.to_states` gives the
:class:`~persian_rummy.GameState` of each row and :meth:`Env.from_states` the rows of given
states, ``legal_action_mask`` is :func:`~persian_rummy.encoding.legal_flags`,
``observation`` is :func:`~persian_rummy.observation.observation_tensor` of the mover's view
and :meth:`Env.step` is :func:`~persian_rummy.play` (see the docs' "Vectorized engine" page for
the conventions at a deal's end, a game's end and an illegal action, and where they differ
from pgx's). :func:`sample_legal` and :func:`sample_policy` draw an action from the mask, or
from a policy's logits over it, more cheaply than ``jax.random.categorical``;
:func:`greedy_action` is the action :class:`~persian_rummy.bots.GreedyBot` plays in a row's
position, exactly, so that an evaluation against greedy stays on the device.

The modules, by job as pgx splits its games: the values (``_state``), the game (``_game``:
the deck, the deal, the transitions, the scores), the mask (``_mask``), the observation
(``_observe``), the conversions (``_convert``), the fixed and the rules' tables (``_tables``,
``_knobs``), the checks of what enters (``_checks``), the environment (``_env``), the greedy
player (``_greedy``) and the pictures a state draws of itself (``_picture``, as pgx's
``State.to_svg``).
"""

from __future__ import annotations

from persian_rummy._extras import needs_extra
from persian_rummy._moved import moved_names

with needs_extra("jax", __name__):
    import jax  # noqa: F401

from persian_rummy.vector._env import Env
from persian_rummy.vector._export import export_policy
from persian_rummy.vector._greedy import greedy_action
from persian_rummy.vector._returns import team_gae
from persian_rummy.vector._sample import sample_legal, sample_policy
from persian_rummy.vector._state import GameArrays, State

__all__ = [
    "Env",
    "GameArrays",
    "State",
    "export_policy",
    "greedy_action",
    "sample_legal",
    "sample_policy",
    "team_gae",
]


_MOVED = moved_names(
    __name__,
    {
        "Position": (
            GameArrays,
            "persian_rummy.vector.GameArrays (the library's positions are GameState values and their position strings)",
        )
    },
)


def __getattr__(name: str) -> object:
    # Deprecated names, each still given with a warning that names its new one.
    return _MOVED(name)
