"""Training a player: masked PPO self-play on the batched engine (needs the ``[train]`` extra).

:func:`train` plays many whole games (every deal, R7) side by side on
:mod:`persian_rummy.vector` and improves one policy network by proximal policy optimisation.
A share of the games is pure self-play: the current policy plays all four seats, each from its
own seat's observation (R27), and every decision is learnt from. In the others one team is the
current policy, which learns, and the other one of the earlier snapshots kept in a league, so
that the policy does not forget how to beat older play. The illegal actions are masked out of
every choice, so none is ever played. A team's reward is each deal's margin over 100 and, at the
game's end, ``win_bonus`` for a win (its opposite for a loss); the value head learns each
team's return, and the advantages follow each team's own decisions (GAE).

Everything the run needs to go on (the network, the optimiser, the league, the games in play and
the random key) is one typed tree of arrays, :class:`TrainState`: :func:`train` writes it
atomically to ``checkpoint.npz`` (named arrays and a JSON header, never a pickle) and, with
``resume=True``, reads it back and goes on exactly as if it had not stopped. The games are
split over every device JAX sees (:mod:`jax.sharding`), so the same run uses a GPU, or several.
The current policy plays the scalar bots through :func:`~persian_rummy.arena.run_match`
(paired deals, Wilson intervals) during the run and at its end, each evaluation a line of
``log.jsonl``; ``policy.npz`` is the final policy, a :class:`~persian_rummy.policy.Policy`
file with its value head.

>>> config = TrainConfig(hidden=(8,), envs=2, horizon=4)
>>> config.samples_per_iteration
8
"""

from __future__ import annotations

from persian_rummy._extras import needs_extra

with needs_extra("train", __name__):
    import jax  # noqa: F401
    import optax  # noqa: F401

from persian_rummy.learning._checkpoint import CHECKPOINT_VERSION, checkpoint_config, load_checkpoint, save_checkpoint
from persian_rummy.learning._config import TrainConfig
from persian_rummy.learning._network import Dense, Network, export_policy, forward, init_params
from persian_rummy.learning._run import CHECKPOINT, COMPACT, Evaluation, Progress, evaluate, train
from persian_rummy.learning._trainer import Metrics, Trainer, TrainState, Transition

__all__ = [
    "CHECKPOINT",
    "CHECKPOINT_VERSION",
    "COMPACT",
    "Dense",
    "Evaluation",
    "Metrics",
    "Network",
    "Progress",
    "TrainConfig",
    "TrainState",
    "Trainer",
    "Transition",
    "checkpoint_config",
    "evaluate",
    "export_policy",
    "forward",
    "init_params",
    "load_checkpoint",
    "save_checkpoint",
    "train",
]
