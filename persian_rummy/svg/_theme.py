"""The colours of the pictures as one value, :class:`Theme`, that a caller can override (as
python-chess's ``colors=``).

The pieces are drawn and cached in the default colours; a picture in another theme is the
same picture with each default colour of a ``fill`` or ``stroke`` replaced by the theme's
colour for that role, so the default theme's pictures are exactly the cached pieces and a
theme never changes the layout."""

from __future__ import annotations

import functools
import re
from collections.abc import Mapping
from typing import Final

import attrs

from persian_rummy.errors import ArgumentTypeError, InvalidArgumentError, excerpt

#: A colour a theme may name: ``#rgb``, ``#rrggbb`` or a CSS colour keyword (letters only), so
#: nothing but a colour can reach the picture's attributes.
_COLOUR: Final = re.compile(r"#[0-9a-fA-F]{3}|#[0-9a-fA-F]{6}|[a-z]{3,20}")


def _colour(instance: object, attribute: attrs.Attribute[str], value: object) -> None:
    if not isinstance(value, str) or not _COLOUR.fullmatch(value):
        raise InvalidArgumentError(
            f"the colour {attribute.name} is #rgb, #rrggbb or a CSS colour name, not {excerpt(value)}"
        )


def _role(default: str) -> str:
    return attrs.field(default=default, validator=_colour)


@attrs.frozen
class Theme:
    """The colours of a picture, by role; every one defaults to the library's own.

    >>> Theme().felt
    '#2e7d4f'
    >>> Theme(felt="#203040", red="crimson").red
    'crimson'
    >>> Theme(felt="url(#x)")
    Traceback (most recent call last):
    ...
    persian_rummy.errors.InvalidArgumentError: the colour felt is #rgb, #rrggbb or a CSS colour name, not 'url(#x)'
    """

    #: The table's felt.
    felt: str = _role("#2e7d4f")
    #: The band behind the header.
    header: str = _role("#1b3d2a")
    #: North-South's colour (badges, labels, the score sheet).
    north_south: str = _role("#1565c0")
    #: East-West's colour.
    east_west: str = _role("#e65100")
    #: North-South's pale colour (a seat's label).
    north_south_light: str = _role("#e3f2fd")
    #: East-West's pale colour.
    east_west_light: str = _role("#fff3e0")
    #: The hearts and diamonds.
    red: str = _role("#c62828")
    #: The spades and clubs, and the score sheet's text.
    black: str = _role("#1b1b1b")
    #: The joker.
    joker: str = _role("#6a1b9a")
    #: A card's face and the score sheet's paper.
    paper: str = _role("#fffdf7")
    #: A card's border and the score sheet's.
    border: str = _role("#9e9e9e")
    #: A laid-off card's dashed border and the score sheet's column names.
    muted: str = _role("#555")
    #: The outline of the cards the last action moved.
    marked: str = _role("#00e5ff")
    #: The outline of the card that must be melded (R14).
    must_meld: str = _role("#ffb300")
    #: Light text on the felt (the title, a count, a badge's letter) and a card back's edge.
    light: str = _role("#fff")
    #: Text that stands out on the felt (whose turn, a status, a pile index, a double).
    accent: str = _role("#fff59d")
    #: Quiet text on the felt (the centre's titles, the legend).
    pale: str = _role("#e8f5e9")
    #: The label of the seat to act.
    to_move: str = _role("#ffe082")
    #: The outline of an empty stock.
    stock_outline: str = _role("#a5d6a7")
    #: The card back's two stripes.
    back: str = _role("#283f8c")
    back_stripe: str = _role("#3553b0")


#: The library's own colours.
DEFAULT_THEME: Final = Theme()


def theme_of(colors: Theme | Mapping[str, str] | None) -> Theme:
    """The theme ``colors`` names: a :class:`Theme`, a mapping of roles to colours (the other
    roles keep their defaults), or ``None`` for the default."""
    if colors is None:
        return DEFAULT_THEME
    if isinstance(colors, Theme):
        return colors
    if not isinstance(colors, Mapping):
        raise ArgumentTypeError(f"colors is a Theme or a mapping of roles to colours, not {type(colors).__name__}")
    roles = attrs.fields_dict(Theme)
    unknown = sorted(str(name) for name in colors if name not in roles)
    if unknown:
        raise InvalidArgumentError(f"a theme has no colour {excerpt(unknown[0])} (its roles: {', '.join(roles)})")
    return Theme(**colors)


#: A colour in a ``fill`` or ``stroke`` attribute of a piece.
_PAINT: Final = re.compile(r'(fill|stroke)="(#[0-9a-f]{3,6})"')


@functools.lru_cache(maxsize=64)
def _changes(theme: Theme) -> dict[str, str]:
    # Each default colour to the theme's colour of the same role.
    return {
        getattr(DEFAULT_THEME, name): getattr(theme, name)
        for name in attrs.fields_dict(Theme)
        if getattr(theme, name) != getattr(DEFAULT_THEME, name)
    }


@functools.lru_cache(maxsize=8192)
def recolour(piece: str, theme: Theme) -> str:
    """``piece`` (drawn in the default colours) in ``theme``'s colours; the same string for
    the default theme."""
    changes = _changes(theme)
    if not changes:
        return piece
    return _PAINT.sub(lambda match: f'{match[1]}="{changes.get(match[2], match[2])}"', piece)
