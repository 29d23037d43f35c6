"""A batch's pictures, as pgx's states draw themselves (internal; :meth:`State.to_svg
<persian_rummy.vector.State.to_svg>` calls :func:`picture`): each row read as
:meth:`Env.to_states <persian_rummy.vector.Env.to_states>` reads it and drawn by the library's
own :func:`persian_rummy.svg.table`, as a seat sees it."""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from typing import Any, Final

import numpy as np

from persian_rummy.errors import ArgumentTypeError, InvalidArgumentError, excerpt
from persian_rummy.rules import Rules
from persian_rummy.svg import Theme, table
from persian_rummy.vector._checks import check_number
from persian_rummy.vector._env import Env
from persian_rummy.vector._state import State

__all__ = ["picture"]

_SIZE: Final = re.compile(r'^<svg [^>]*?width="([0-9.]+)" height="([0-9.]+)"')
_SVG: Final = "http://www.w3.org/2000/svg"
# The environments that read states for pictures, by rules and observation dtype.
_READERS: dict[tuple[Rules, np.dtype[Any]], Env] = {}


def picture(
    state: object, *, seat: object = None, colors: Theme | Mapping[str, str] | None = None, scale: object = None
) -> str:
    """The SVG picture of one game's table, or of a batch's tables in a grid (row by row, as
    many columns as the square root of the rows, rounded up; no rows, an empty picture): each
    as ``seat`` sees it (None: each row's seat to act), ``scale`` times the size."""
    if not isinstance(state, State):
        raise ArgumentTypeError(f"to_svg draws a State, not {excerpt(state)}")
    if seat is not None and (isinstance(seat, bool) or not isinstance(seat, int | np.integer)):
        raise ArgumentTypeError(f"to_svg: seat must be a seat 0-3 or None (the seat to act), not {excerpt(seat)}")
    if seat is not None and not 0 <= int(seat) < 4:
        raise InvalidArgumentError(f"R3: to_svg: seat must be a seat 0-3 or None (the seat to act), not {int(seat)}")
    factor = 1.0 if scale is None else check_number("scale", scale)
    if not 0 < factor < math.inf:
        raise InvalidArgumentError(f"to_svg: scale must be above 0, not {excerpt(scale)}")
    games = _reader(state).to_states(state)
    tables = [table(game.view(game.current_player if seat is None else int(seat)), colors=colors) for game in games]
    if np.ndim(state.current_player) == 0 and factor == 1.0:
        return tables[0]
    sizes = [_size(text) for text in tables]
    columns = max(1, math.ceil(math.sqrt(len(tables))))
    placed, y, width = [], 0.0, 0.0
    for first in range(0, len(tables), columns):
        x, height = 0.0, 0.0
        for text, (w, h) in zip(tables[first : first + columns], sizes[first : first + columns], strict=True):
            placed.append(text.replace("<svg ", f'<svg x="{x:g}" y="{y:g}" ', 1))
            x, height = x + w, max(height, h)
        y, width = y + height, max(width, x)
    return (
        f'<svg xmlns="{_SVG}" width="{width * factor:g}" height="{y * factor:g}" viewBox="0 0 {width:g} {y:g}">'
        + "".join(placed)
        + "</svg>"
    )


def _reader(state: State) -> Env:
    # An environment of the state's rules and observation dtype, to read it with its checks.
    rules = state._rules
    if type(rules) is not Rules:
        raise ArgumentTypeError(f"to_svg: State._rules must be a Rules value, not {excerpt(rules)}")
    try:
        dtype = np.dtype(state.observation.dtype)
    except (AttributeError, TypeError):
        raise ArgumentTypeError(
            f"to_svg: State.observation must be an array, not {excerpt(state.observation)}"
        ) from None
    found = _READERS.get((rules, dtype))
    if found is None:
        found = _READERS.setdefault((rules, dtype), Env(rules, observation_dtype=dtype))
    return found


def _size(text: str) -> tuple[float, float]:
    match = _SIZE.match(text)
    assert match is not None, "the library's pictures start with their size"
    return float(match.group(1)), float(match.group(2))
