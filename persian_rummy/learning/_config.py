"""The knobs of a training run (:class:`TrainConfig`)."""

from __future__ import annotations

import json
import math
from typing import Any

import attrs

from persian_rummy.errors import InvalidArgumentError, excerpt
from persian_rummy.rules import Rules

__all__ = ["TrainConfig"]


def _positive(_instance: object, attribute: attrs.Attribute[Any], value: object) -> None:
    if isinstance(value, bool) or not isinstance(value, int | float) or not value > 0 or not math.isfinite(value):
        raise InvalidArgumentError(f"{attribute.name} must be a number above 0, not {excerpt(value)}")


def _whole(_instance: object, attribute: attrs.Attribute[Any], value: object) -> None:
    if type(value) is not int or value < 1:
        raise InvalidArgumentError(f"{attribute.name} must be a whole number of at least 1, not {excerpt(value)}")


def _share(_instance: object, attribute: attrs.Attribute[Any], value: object) -> None:
    if isinstance(value, bool) or not isinstance(value, int | float) or not 0 <= value <= 1:
        raise InvalidArgumentError(f"{attribute.name} must be a number from 0 to 1, not {excerpt(value)}")


def _widths(_instance: object, attribute: attrs.Attribute[Any], value: object) -> None:
    if not isinstance(value, tuple) or not value or not all(type(v) is int and 1 <= v <= 4096 for v in value):
        raise InvalidArgumentError(f"hidden must be a tuple of widths 1-4096, not {excerpt(value)}")


@attrs.frozen
class TrainConfig:
    """The knobs of a training run; a checkpoint records them and a resumed run must match.

    - ``hidden``: the network's hidden widths (ReLU layers; a policy head of one logit per
      action and a value head on the last of them).
    - ``envs`` games are played side by side, ``horizon`` actions each per iteration, then
      ``epochs`` passes of ``minibatches`` PPO updates (``learning_rate``, ``clip``,
      ``entropy``, ``value_coef``; advantages by GAE with ``gamma`` and ``gae_lambda``).
    - A share ``self_play`` of the games is pure self-play, where every seat's decision is
      trained on; the others are split evenly among ``league_size`` earlier snapshots (one
      taken every ``snapshot_every`` iterations, the oldest replaced), which play one team
      while the current policy plays and learns the other. Until a snapshot is taken, its
      games are self-play too.
    - A finished game is replaced by a fresh one every ``reset_every`` actions (a fresh deal
      costs a step of every game, so it is not done after each action).
    - The reward is each deal's margin over 100 and, at the game's end, ``win_bonus`` for a
      win (its opposite for a loss).

    >>> config = TrainConfig(hidden=(8,), envs=2, horizon=4)
    >>> config.samples_per_iteration
    8
    >>> TrainConfig(envs=0)
    Traceback (most recent call last):
    ...
    persian_rummy.errors.InvalidArgumentError: envs must be a whole number of at least 1, not 0
    """

    rules: Rules = attrs.field(default=Rules(), validator=attrs.validators.instance_of(Rules))
    seed: int = attrs.field(default=0, validator=attrs.validators.instance_of(int))
    hidden: tuple[int, ...] = attrs.field(default=(128, 128), validator=_widths)
    envs: int = attrs.field(default=256, validator=_whole)
    horizon: int = attrs.field(default=32, validator=_whole)
    epochs: int = attrs.field(default=2, validator=_whole)
    minibatches: int = attrs.field(default=4, validator=_whole)
    learning_rate: float = attrs.field(default=3e-4, validator=_positive)
    gamma: float = attrs.field(default=1.0, validator=_share)
    gae_lambda: float = attrs.field(default=0.95, validator=_share)
    clip: float = attrs.field(default=0.2, validator=_positive)
    entropy: float = attrs.field(default=0.01, validator=_share)
    value_coef: float = attrs.field(default=0.5, validator=_positive)
    league_size: int = attrs.field(default=4, validator=_whole)
    snapshot_every: int = attrs.field(default=25, validator=_whole)
    self_play: float = attrs.field(default=0.5, validator=_share)
    reset_every: int = attrs.field(default=16, validator=_whole)
    win_bonus: float = attrs.field(default=1.0, validator=_share)

    @property
    def samples_per_iteration(self) -> int:
        """Actions played per iteration."""
        return self.envs * self.horizon

    def differences(self, other: TrainConfig) -> list[str]:
        """The knobs that differ from ``other``'s, each as ``name: mine, not theirs``.

        >>> TrainConfig(envs=8).differences(TrainConfig(envs=4, seed=1))
        ['seed: 0, not 1', 'envs: 8, not 4']
        """
        return [
            f"{field.name}: {_shown(getattr(self, field.name))}, not {_shown(getattr(other, field.name))}"
            for field in attrs.fields(TrainConfig)
            if getattr(self, field.name) != getattr(other, field.name)
        ]

    def to_json(self) -> str:
        """The knobs as JSON (the rules as their text).

        >>> TrainConfig.from_json(TrainConfig(envs=8).to_json()) == TrainConfig(envs=8)
        True
        """
        fields = attrs.asdict(self, recurse=False)
        fields["rules"] = str(self.rules)
        fields["hidden"] = list(self.hidden)
        return json.dumps(fields, sort_keys=True)

    @classmethod
    def from_json(cls, text: str) -> TrainConfig:
        """Read :meth:`to_json` back; a knob this version does not know is refused by name."""
        fields = json.loads(text)
        if not isinstance(fields, dict):
            raise InvalidArgumentError(f"a training configuration is a JSON object, not {excerpt(text)}")
        unknown = sorted(set(fields) - {field.name for field in attrs.fields(TrainConfig)})
        if unknown:
            raise InvalidArgumentError(f"a training configuration has no knob {', '.join(unknown)}")
        fields["rules"] = Rules.parse(fields.get("rules", "default"))
        if isinstance(fields.get("hidden"), list):
            fields["hidden"] = tuple(fields["hidden"])
        return cls(**fields)


def _shown(value: object) -> str:
    return f"{str(value)!r}" if isinstance(value, Rules) else repr(value)
