"""JSON for states, views and rules: lossless, versioned and validated on the way in.

:meth:`GameState.to_json <persian_rummy.GameState.to_json>`,
:meth:`PlayerView.to_json <persian_rummy.PlayerView.to_json>` and
:meth:`Rules.to_json <persian_rummy.Rules.to_json>` write one JSON object whose first two keys
are ``format`` (``"persian-rummy state"``, ``"persian-rummy view"`` or ``"persian-rummy
rules"``) and ``version`` (:data:`VERSION`), followed by the value's fields by name. Cards are
their text (``"7h"``, ``"Jk"``); a hand, the stock and the discard pile are one string of cards
separated by spaces (bottom to top for the stock and the pile); a meld is its text with seats
(``"7s@0 7h@0 7d@0 7c+1"``); the phase is its value (``"draw"``); the rules are an object of
knobs. The (un)structuring is done by `cattrs <https://catt.rs>`_ with strict hooks for our
value types.

>>> from persian_rummy import GameState, Rules, new_game
>>> text = new_game(1).view(2).to_json()
>>> text[:120]
'{"format": "persian-rummy view", "version": 1, "seat": 2, "hand": "9s Ks Jh 4d 9d 7c Kc", "hand_sizes": [7, 7, 7, 7], "s'
>>> Rules.from_json(Rules(deals=1).to_json()) == Rules(deals=1)
True

Reading validates everything: the JSON syntax, the format and version, every field's type
(a whole number is never a string, a float or a boolean; no field is missing or unknown), each
card, hand and meld, the rules, and then the whole value (56 cards, no duplicates, seats 0-3, a
phase consistent with the counters: :meth:`GameState.validate
<persian_rummy.GameState.validate>`). Whatever it is given, :func:`from_json` raises only
:class:`~persian_rummy.NotationError` (not JSON, or not this kind of value; the message gives
the path of every bad field, like ``$.hands[2]``) or :class:`~persian_rummy.InvalidStateError`
(a well-formed value that cannot occur):

>>> GameState.from_json(b"\\xff")
Traceback (most recent call last):
...
persian_rummy.errors.NotationError: not JSON text: 'utf-8' codec can't decode byte 0xff in position 0: invalid start byte
>>> GameState.from_json('{"format": "persian-rummy state", "version": 1, "current_player": "1"}')
Traceback (most recent call last):
...
persian_rummy.errors.NotationError: the JSON does not describe a state: required field missing @ $.hands; required field missing @ $.stock; required field missing @ $.discard_pile; required field missing @ $.melds; expected a whole number, not str @ $.current_player; and 6 more
"""

from __future__ import annotations

import enum
import json
import typing
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, Final, TypeVar

import attrs

from persian_rummy._cache import identity_cached
from persian_rummy.cards import Card, parse_cards
from persian_rummy.errors import (
    InvalidArgumentError,
    InvalidRulesError,
    NotationError,
    PersianRummyError,
    excerpt,
)
from persian_rummy.hand import Hand
from persian_rummy.limits import JSON_LIMIT, PILE_LIMIT, SCORE_LIMIT
from persian_rummy.melds import Meld

if TYPE_CHECKING:
    import cattrs

__all__ = ["VERSION", "from_json", "make_converter", "to_json", "views_to_json"]

#: The version of the JSON format this library writes (and the only one it reads).
VERSION: Final = 1
# The classes with a JSON format: the value of the "format" key, and the words that name a
# value in messages. Rules, GameState and PlayerView register themselves (register_format),
# so this module needs none of them: it sits below them in the layers of the package.
_FORMATS: Final[dict[type, str]] = {}
_KINDS: Final[dict[type, str]] = {}
T = TypeVar("T")


def register_format(kind: type, format_name: str, words: str) -> None:
    """Give the attrs class ``kind`` a JSON format named ``format_name``; ``words`` name one
    such value in messages ("a state"). Internal: the library's classes call it once.

    >>> from persian_rummy import GameState
    >>> _FORMATS[GameState], _KINDS[GameState]
    ('persian-rummy state', 'a state')
    """
    _FORMATS[kind] = format_name
    _KINDS[kind] = words


def _type_name(value: object) -> str:
    return "null" if value is None else type(value).__name__


def _structure_int(value: Any, _: type) -> int:
    if type(value) is not int:
        raise NotationError(f"expected a whole number, not {_type_name(value)}")
    if not -SCORE_LIMIT < value < SCORE_LIMIT:  # no counter of a valid value is this large
        raise NotationError(f"expected a whole number below {SCORE_LIMIT} in size, not {excerpt(value)}")
    return value


def _structure_bool(value: Any, _: type) -> bool:
    if type(value) is not bool:
        raise NotationError(f"expected true or false, not {_type_name(value)}")
    return value


def _structure_str(value: Any, _: type) -> str:
    if type(value) is not str:
        raise NotationError(f"expected a string, not {_type_name(value)}")
    return value


def _structure_card(value: Any, _: type) -> Card:
    return Card.parse(_structure_str(value, str))


def _structure_cards(value: Any, _: type) -> tuple[Card, ...]:
    return parse_cards(_structure_str(value, str))


def _structure_hand(value: Any, _: type) -> Hand:
    return Hand(_structure_str(value, str))


def _structure_meld(value: Any, _: type) -> Meld:
    text = _structure_str(value, str)
    try:
        return Meld.parse(text)
    except InvalidArgumentError as error:
        raise NotationError(f"{excerpt(text)} is not a meld: {error}") from None


def _is_enum(kind: Any) -> bool:
    return isinstance(kind, type) and issubclass(kind, enum.Enum)


def _enum_hook(kind: type[enum.Enum]) -> Callable[[Any, Any], enum.Enum]:
    # An enumeration (the phase) is its value: "draw".
    def structure(value: Any, _: Any) -> enum.Enum:
        text = _structure_str(value, str)
        for member in kind:
            if member.value == text:
                return member
        choices = ", ".join(str(member.value) for member in kind)
        raise NotationError(f"expected a {kind.__name__.lower()} ({choices}), not {excerpt(text)}")

    return structure


def _is_card_tuple(kind: Any) -> bool:
    return bool(kind == tuple[Card, ...])


def _is_homogeneous_tuple(kind: Any) -> bool:
    args = typing.get_args(kind)
    return typing.get_origin(kind) is tuple and len(args) == 2 and args[1] is Ellipsis and kind != tuple[Card, ...]


def _is_fixed_tuple(kind: Any) -> bool:
    args = typing.get_args(kind)
    return typing.get_origin(kind) is tuple and Ellipsis not in args and len(args) > 0


def _list(value: Any) -> list[Any]:
    if type(value) is not list:
        raise NotationError(f"expected a list, not {_type_name(value)}")
    return value


def _structure_items(items: list[Any], kinds: list[Any]) -> tuple[Any, ...]:
    from cattrs.errors import IterableValidationError, IterableValidationNote

    out = []
    errors: list[Exception] = []
    for index, (item, kind) in enumerate(zip(items, kinds, strict=True)):
        try:
            out.append(_converter().structure(item, kind))
        except Exception as error:
            note = IterableValidationNote(f"Structuring a list @ index {index}", index, kind)
            error.__notes__ = [*getattr(error, "__notes__", []), note]  # type: ignore[attr-defined]
            errors.append(error)
    if errors:
        raise IterableValidationError("while structuring a list", errors, tuple)
    return tuple(out)


def _homogeneous_hook(kind: Any) -> Callable[[Any, Any], tuple[Any, ...]]:
    item_kind = typing.get_args(kind)[0]

    def structure(value: Any, _: Any) -> tuple[Any, ...]:
        items = _list(value)
        if len(items) > PILE_LIMIT:  # no list of a valid value is longer than the deck
            raise NotationError(f"expected a list of at most {PILE_LIMIT} items, not {len(items)}")
        return _structure_items(items, [item_kind] * len(items))

    return structure


def _fixed_hook(kind: Any) -> Callable[[Any, Any], tuple[Any, ...]]:
    kinds = list(typing.get_args(kind))

    def structure(value: Any, _: Any) -> tuple[Any, ...]:
        items = _list(value)
        if len(items) != len(kinds):
            raise NotationError(f"expected a list of {len(kinds)} items, not {len(items)}")
        return _structure_items(items, kinds)

    return structure


@identity_cached(4096)  # per melds tuple, which states and views share until the table changes
def _meld_texts(melds: tuple[Meld, ...], _: int) -> tuple[str, ...]:
    return tuple(map(str, melds))


_STRUCTURE_HOOKS: Final[tuple[tuple[type, Callable[[Any, Any], Any]], ...]] = (
    (int, _structure_int),
    (bool, _structure_bool),
    (str, _structure_str),
    (Card, _structure_card),
    (Hand, _structure_hand),
    (Meld, _structure_meld),
)
# The cattrs converter behind the JSON format, built at its first use: a program that never
# reads or writes JSON never imports cattrs (``import persian_rummy`` stays light). It stays
# private, so that hooks registered by a user can never change how this module reads JSON;
# make_converter() hands out copies.
_BUILT: Final[list[cattrs.Converter]] = []


def _converter() -> cattrs.Converter:
    if _BUILT:
        return _BUILT[0]
    import cattrs

    converter = cattrs.Converter(forbid_extra_keys=True, detailed_validation=True)
    for kind, hook in _STRUCTURE_HOOKS:
        converter.register_structure_hook(kind, hook)
        if kind in (Card, Hand, Meld):  # each is its text
            converter.register_unstructure_hook(kind, str)
    converter.register_structure_hook_factory(_is_enum, _enum_hook)
    converter.register_structure_hook_func(_is_card_tuple, _structure_cards)
    converter.register_structure_hook_factory(_is_homogeneous_tuple, _homogeneous_hook)
    converter.register_structure_hook_factory(_is_fixed_tuple, _fixed_hook)
    converter.register_unstructure_hook_func(_is_enum, lambda member: member.value)
    converter.register_unstructure_hook_func(_is_card_tuple, lambda cards: " ".join(map(str, cards)))
    converter.register_unstructure_hook_func(
        lambda kind: kind == tuple[Meld, ...], lambda melds: list(_meld_texts(melds, 0))
    )
    _BUILT.append(converter)
    return converter


def make_converter() -> cattrs.Converter:
    """A copy of the cattrs converter behind the JSON format, to embed our values in your own
    attrs classes: cards, hands and melds (un)structure to their text, states, views and rules
    to JSON-ready dictionaries (structuring reads what :func:`json.loads` gives, and does not
    run :meth:`~persian_rummy.GameState.validate`: :func:`from_json` does). Hooks you register on the copy
    leave this module's JSON as it is.

    >>> import json
    >>> from persian_rummy import GameState, new_game
    >>> converter = make_converter()
    >>> fields = converter.unstructure(new_game(1))
    >>> fields["hands"][1], fields["phase"]
    ('Js 2d Jd Qd Tc Jk Jk', 'draw')
    >>> converter.structure(json.loads(json.dumps(fields)), GameState) == new_game(1)
    True
    """
    return _converter().copy()


# One encoder for every text written (json.dumps with options builds a new one at each call).
_ENCODER: Final = json.JSONEncoder(ensure_ascii=False)


def to_json(value: object) -> str:
    """The JSON text of a state, a view or rules (see the module documentation).

    >>> from persian_rummy import Rules
    >>> to_json(Rules())
    '{"format": "persian-rummy rules", "version": 1, "deals": 2, "ace_in_runs": "high", "top_card_must_meld": true, "pickup_use": "meld_or_lay_off", "last_card_discard": "stays_in", "stock_out_end": "all_pass", "double_four_jokers": true, "going_out_bonus": 25}'
    """
    kind = type(value)
    if kind not in _FORMATS:
        raise NotationError(f"to_json writes a GameState, a PlayerView or Rules, not {kind.__name__}")
    fields = _converter().unstructure(value, kind)
    return _ENCODER.encode({"format": _FORMATS[kind], "version": VERSION, **fields})


def views_to_json(views: Sequence[object]) -> list[str]:
    """``[to_json(view) for view in views]`` for views of one position (a table's seats
    after an action, as the table server sends them): the views differ in their seat and hand
    only, so every other field is written once for them all.

    >>> from persian_rummy import new_game
    >>> state = new_game(1)
    >>> views = [state.view(seat) for seat in range(4)]
    >>> views_to_json(views) == [to_json(view) for view in views]
    True
    """
    texts = []
    written: list[tuple[tuple[Any, ...], str]] = []  # the fields after the hand, and their text
    for view in views:
        kind: type[Any] = type(view)
        if _FORMATS.get(kind) != "persian-rummy view":
            raise NotationError(f"views_to_json writes PlayerViews, not {kind.__name__}")
        names = _later_fields(kind)
        shared = tuple(getattr(view, name) for name in names)
        # The views of one position hold the very same objects, which compare at once.
        rest = next((text for fields, text in written if fields == shared), None)
        if rest is None:
            fields = _converter().unstructure(view, kind)
            rest = _ENCODER.encode({name: fields[name] for name in names})[1:]
            written.append((shared, rest))
        fields_of: Any = view
        hand = _ENCODER.encode(str(fields_of.hand))
        texts.append(
            f'{{"format": "persian-rummy view", "version": {VERSION}, "seat": {fields_of.seat}, "hand": {hand}, {rest}'
        )
    return texts


def _later_fields(kind: type[Any]) -> tuple[str, ...]:
    """A view's fields after its first two, the seat and the hand (the only ones that
    differ between the views of one position)."""
    names = _LATER_FIELDS.get(kind)
    if names is None:
        names = tuple(field.name for field in attrs.fields(kind))
        if names[:2] != ("seat", "hand"):  # pragma: no cover - a view's fields start so
            raise NotationError(f"a view's first fields are its seat and hand, not {names[:2]}")
        names = _LATER_FIELDS[kind] = names[2:]
    return names


_LATER_FIELDS: Final[dict[type[Any], tuple[str, ...]]] = {}


def _messages(error: BaseException) -> str:
    import cattrs
    from cattrs.errors import ForbiddenExtraKeysError

    def describe(exception: BaseException, _: type | None) -> str:
        if isinstance(exception, PersianRummyError):
            return str(exception)
        if isinstance(exception, ForbiddenExtraKeysError):
            return f"unknown field(s) {', '.join(sorted(exception.extra_fields))}"
        if isinstance(exception, KeyError):
            return "required field missing"
        if isinstance(exception, TypeError | AttributeError) and not isinstance(exception, PersianRummyError):
            return "expected an object"
        return f"{type(exception).__name__}: {exception}"

    messages = cattrs.transform_error(error, format_exception=describe)
    more = f"; and {len(messages) - 5} more" if len(messages) > 5 else ""
    return "; ".join(excerpt(message, 200).strip("'\"") for message in messages[:5]) + more


def from_json(text: str | bytes, kind: type[T]) -> T:
    """Read a :class:`~persian_rummy.GameState`, :class:`~persian_rummy.PlayerView` or
    :class:`~persian_rummy.Rules` (``kind``) from JSON text (or UTF-8 bytes), validating
    everything (see the module documentation).

    >>> from persian_rummy import GameState, new_game
    >>> from_json(new_game(1).to_json(), GameState) == new_game(1)
    True
    >>> from_json('{"format": "persian-rummy state", "version": 2}', GameState)
    Traceback (most recent call last):
    ...
    persian_rummy.errors.NotationError: $.version: this library reads version 1 of the JSON format, not 2
    """
    name = _KINDS.get(kind)
    if name is None:
        raise NotationError(f"from_json reads a GameState, a PlayerView or Rules, not {excerpt(kind)}")
    if isinstance(text, bytes | bytearray | memoryview):
        if len(text) > JSON_LIMIT:
            raise NotationError(f"the JSON of {name} has at most {JSON_LIMIT} bytes, not {len(text)}")
        try:
            text = bytes(text).decode("utf-8")
        except UnicodeDecodeError as error:
            raise NotationError(f"not JSON text: {error}") from None
    if not isinstance(text, str):
        raise NotationError(f"expected JSON text, not {_type_name(text)}")
    if len(text) > JSON_LIMIT:
        raise NotationError(f"the JSON of {name} has at most {JSON_LIMIT} characters, not {len(text)}")
    # A byte-order mark, as some editors write, is not part of the text.
    text = text.removeprefix("\ufeff")
    try:
        data = json.loads(text)
    except RecursionError:
        raise NotationError("not JSON text: nested too deeply") from None
    except ValueError as error:
        raise NotationError(f"not JSON text: {error}") from None
    if type(data) is not dict:
        raise NotationError(f"$: expected a JSON object for {name}, not {_type_name(data)}")
    if data.get("format") != _FORMATS[kind]:
        raise NotationError(f"$.format: expected {excerpt(_FORMATS[kind])}, not {excerpt(data.get('format'))}")
    if data.get("version") != VERSION or type(data.get("version")) is not int:
        raise NotationError(
            f"$.version: this library reads version {VERSION} of the JSON format, not {excerpt(data.get('version'))}"
        )
    fields = {key: value for key, value in data.items() if key not in ("format", "version")}
    converter = _converter()
    from cattrs.errors import ClassValidationError, IterableValidationError

    try:
        value = converter.structure(fields, kind)
    except (ClassValidationError, IterableValidationError) as error:
        raise NotationError(f"the JSON does not describe {name}: {_messages(error)}") from None
    except InvalidRulesError as error:
        where = "$.rules" if "rules" in attrs.fields_dict(typing.cast("type[attrs.AttrsInstance]", kind)) else "$"
        raise NotationError(f"{where}: {error}") from None
    validate = getattr(value, "validate", None)
    if validate is not None:  # states and views; rules are validated as they are built
        validate()
    return value
