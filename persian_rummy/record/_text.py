"""The ``.prr`` text format of game records (internal; see :mod:`persian_rummy.record`)."""

from __future__ import annotations

import contextlib
import json
import re
from collections.abc import Iterator
from typing import IO, Final

from persian_rummy.dealing import Seed, shuffled_deck
from persian_rummy.errors import (
    InvalidArgumentError,
    InvalidRulesError,
    InvalidStateError,
    NotationError,
    PersianRummyError,
    ReplayError,
    excerpt,
)
from persian_rummy.hand import Hand
from persian_rummy.limits import ACTIONS_PER_DEAL, DEALS_LIMIT, record_limit
from persian_rummy.record._deal import DEFAULT_PLAYERS, DEFAULT_TEAMS, DealRecord, RecordedAction, parse_deck
from persian_rummy.record._game import GameRecord
from persian_rummy.rules import Rules
from persian_rummy.state import PLAYERS

#: The value of the ``Format`` tag this version writes and reads.
FORMAT: Final = "persian-rummy record 1"


def _tag(name: str, value: object) -> str:
    return f"[{name} {json.dumps(value, ensure_ascii=False)}]"


def dumps(record: GameRecord) -> str:
    """The ``.prr`` text of a record (see the module documentation for the format).

    >>> text = dumps(GameRecord.from_actions([(5, ["draw", "discard 2c ; why not"])]))
    >>> text.splitlines()[:2]
    ['[Format "persian-rummy record 1"]', '[Rules "default"]']
    >>> print(text[text.index("[Deal 1]") :])
    [Deal 1]
    [Dealer 0]
    [Seed 5]
    E draw
    E discard 2c ; why not
    <BLANKLINE>
    """
    lines = [_tag("Format", FORMAT), _tag("Rules", str(record.rules))]
    lines += [_tag(f"Seat{seat}", name) for seat, name in enumerate(record.players)]
    lines += [_tag(f"Team{team}", name) for team, name in enumerate(record.teams)]
    if record.viewer is not None:
        lines.append(_tag("Viewer", record.viewer))
    if record.scores is not None:
        lines.append(_tag("Scores", list(record.scores)))
    for deal in record.deals:
        lines += ["", _tag("Deal", deal.number), _tag("Dealer", deal.dealer)]
        if deal.seed is not None:
            lines.append(_tag("Seed", deal.seed))
        if deal.seed is None or shuffled_deck(deal.seed) != deal.deck:
            lines.append(_tag("Deck", " ".join("??" if card is None else str(card) for card in deal.deck)))
        if deal.final_hands is not None:
            lines.append(_tag("Hands", " / ".join(str(hand) for hand in deal.final_hands)))
        if deal.scores is not None:
            lines.append(_tag("Scores", list(deal.scores)))
        lines += [str(item) for item in deal.actions]
    return "\n".join(lines) + "\n"


def dump(record: GameRecord, fp: IO[str]) -> None:
    """Write the ``.prr`` text of ``record`` to the text file ``fp``.

    >>> import io
    >>> out = io.StringIO()
    >>> dump(GameRecord.from_actions([(1, [])]), out)
    >>> out.getvalue().splitlines()[0]
    '[Format "persian-rummy record 1"]'
    """
    fp.write(dumps(record))


def load(fp: IO[str], *, check: bool = True) -> GameRecord:
    """Read a record from the text file ``fp`` (see :func:`loads`).

    >>> import io
    >>> load(io.StringIO(dumps(GameRecord.from_actions([(1, ["draw"])])))).deals[0].actions[0].action
    DrawStock()
    """
    return loads(fp.read(), check=check)


_GAME_TAGS: Final = frozenset(
    {"Format", "Rules", "Seat0", "Seat1", "Seat2", "Seat3", "Team0", "Team1", "Viewer", "Scores"}
)
_DEAL_TAGS: Final = frozenset({"Dealer", "Seed", "Deck", "Hands", "Scores"})


def loads(text: str | bytes, *, check: bool = True) -> GameRecord:
    """Parse the ``.prr`` text of a record. Raises :class:`~persian_rummy.NotationError` for
    text that is not a record (naming the line) and :class:`~persian_rummy.InvalidStateError`
    for a deck that is not the 56-card deck. With ``check`` (the default) the record is also
    replayed in strict mode (a redacted one as its viewer's views), so a record that loads is
    a legal game with the scores it states, else :class:`~persian_rummy.ReplayError` names the
    line, the deal and the action; ``check=False`` only parses, for a lenient
    :meth:`GameRecord.replay` of a damaged record.

    >>> record = loads('[Format "persian-rummy record 1"]\\n[Deal 1]\\n[Dealer 0]\\n[Seed 1]\\nE draw ; first!\\n')
    >>> record.deals[0].actions
    (RecordedAction(seat=1, action=DrawStock(), comment='first!'),)
    >>> loads("[Deal 1]")
    Traceback (most recent call last):
    ...
    persian_rummy.errors.NotationError: line 1: a record starts with [Format "persian-rummy record 1"]
    >>> loads('[Format "persian-rummy record 1"]\\n[Deal 1]\\n[Dealer 0]\\n[Seed 1]\\nE pass\\n')
    Traceback (most recent call last):
    ...
    persian_rummy.errors.ReplayError: line 5, deal 1, action 0: R20: seat 1 may pass only when the stock is empty (27 cards left) [deal 1 of 2, seat 1 to act, phase DRAW, hand Js 2d Jd Qd Tc Jk Jk, discard pile 2s, stock 27, 0 melds]
    >>> len(loads('[Format "persian-rummy record 1"]\\n[Deal 1]\\n[Dealer 0]\\n[Seed 1]\\nE pass\\n', check=False).deals)
    1
    """
    reader = _Reader(_decoded(text))
    # Only "\n" ends a line: names and comments may hold other line separators (like U+2028).
    for number, line in enumerate(_lines(reader.text), start=1):
        try:
            reader.read(number, line)
        except (NotationError, InvalidArgumentError) as error:  # e.g. a comment that is not one line
            raise NotationError(f"line {number}: {error}") from None
        except InvalidStateError as error:
            raise InvalidStateError(f"line {number}: {error}") from None
    if not reader.saw_format:
        raise NotationError(f'line 1: a record starts with [Format "{FORMAT}"]')
    record = _build(reader.game, reader.deals)
    if check:
        _replay_checked(record, reader.lines)
    return record


def _decoded(text: object) -> str:
    """The text of a record given as text or UTF-8 bytes, without a byte-order mark."""
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError as error:
            raise NotationError(f"a record is UTF-8 text: {error}") from None
    if not isinstance(text, str):
        raise NotationError(f"expected the text of a record, not {type(text).__name__}")
    # A byte-order mark, as some editors write, is not part of the text.
    return text.removeprefix("\ufeff")


class _Reader:
    """What :func:`loads` has read so far: the game's tags, each deal's tags and actions, and
    where each deal's [Deal] tag and each of its actions stand (for replay errors)."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.most_deals = _check_size(text)
        self.game: dict[str, object] = {}
        self.deals: list[tuple[dict[str, object], list[RecordedAction]]] = []
        self.lines: list[tuple[int, list[int]]] = []
        self.saw_format = False

    def read(self, number: int, line: str) -> None:
        """Read line ``number``: a tag, an action or a blank line."""
        stripped = line.strip()
        if not stripped:
            return
        if stripped.startswith("["):
            self._tag(number, *_parse_tag(stripped))
            return
        if not self.saw_format:
            raise NotationError(f'a record starts with [Format "{FORMAT}"]')
        if not self.deals:
            raise NotationError("an action comes before the first [Deal ...] tag")
        if len(self.deals[-1][1]) >= ACTIONS_PER_DEAL:
            raise NotationError(f"R21: no deal has more than {ACTIONS_PER_DEAL} actions")
        self.deals[-1][1].append(RecordedAction.parse(line))
        self.lines[-1][1].append(number)

    def _tag(self, number: int, name: str, value: object) -> None:
        deals = self.deals
        if not self.saw_format:
            if name != "Format":
                raise NotationError(f'a record starts with [Format "{FORMAT}"]')
            if value != FORMAT:
                raise NotationError(f"this library reads the format {excerpt(FORMAT)}, not {excerpt(value)}")
            self.saw_format = True
            return
        if name == "Deal":
            if len(deals) >= self.most_deals:
                raise NotationError(f"R7: a game of these rules has {self.most_deals} deals, so a record no more")
            deals.append(({"Deal": value}, []))
            self.lines.append((number, []))
            return
        target = deals[-1][0] if deals else self.game
        allowed = _DEAL_TAGS if deals else _GAME_TAGS - {"Format"}
        if name not in allowed:
            where = "a deal's" if deals else "the game's"
            raise NotationError(f"{excerpt(name)} is not one of {where} tags ({', '.join(sorted(allowed))})")
        if name in target:
            raise NotationError(f"the tag {name} is given twice")
        if deals and deals[-1][1]:
            raise NotationError("a deal's tags come before its actions")
        target[name] = value


def _replay_checked(record: GameRecord, lines: list[tuple[int, list[int]]]) -> None:
    """Replay ``record`` in strict mode (a redacted one as its viewer's views); a replay error
    names the line of the action that fails."""
    try:
        if record.viewer is None:
            record.replay()
        else:
            for _ in record.views():
                pass
    except ReplayError as error:
        line_number = _line_of(record, lines, error)
        if line_number is None:
            raise
        raise error.at_line(line_number) from error.cause


def _lines(text: str) -> Iterator[str]:
    """The lines of ``text`` one at a time, so a record refused at its first lines costs no
    copy of the rest."""
    start = 0
    while True:
        end = text.find("\n", start)
        if end < 0:
            yield text[start:]
            return
        yield text[start:end]
        start = end + 1


_RULES_TAG: Final = re.compile(r'^[ \t]*\[Rules ("(?:[^"\\\n]|\\.){0,1024}")\][ \t]*$', re.MULTILINE)


def _check_size(text: str) -> int:
    """Refuse a record longer than any valid record of its rules' deals before reading it line
    by line, and return how many deals it may have: the game's tags, the rules among them,
    come before the first deal, so the rules are found by one search of the text up to there."""
    end = text.find("[Deal ")
    match = _RULES_TAG.search(text, 0, len(text) if end < 0 else end)
    # No Rules tag: the default rules; one this search cannot read: the most any rules allow.
    deals = DEALS_LIMIT if text.find("[Rules ", 0, len(text) if end < 0 else end) >= 0 else Rules().deals
    if match is not None:
        # A bad Rules tag is refused, with a better message, when the tag is read.
        with contextlib.suppress(PersianRummyError, ValueError):
            deals = Rules.parse(json.loads(match.group(1))).deals
    if len(text) > record_limit(deals):
        raise NotationError(f"a record of {deals} deals has at most {record_limit(deals)} characters, not {len(text)}")
    return deals


def _line_of(record: GameRecord, lines: list[tuple[int, list[int]]], error: ReplayError) -> int | None:
    """The line a replay error is about: its action's, else its deal's [Deal] tag."""
    for deal, (tag_line, action_lines) in zip(record.deals, lines, strict=True):
        if deal.number == error.deal:
            if error.index is not None and error.index < len(action_lines):
                return action_lines[error.index]
            return tag_line
    return None


def _parse_tag(line: str) -> tuple[str, object]:
    if not line.endswith("]"):
        raise NotationError(f"{excerpt(line)} is not a tag (expected [Name value])")
    name, _, value = line[1:-1].partition(" ")
    if not name.isascii() or not name.isalnum():
        raise NotationError(f"{excerpt(line)} is not a tag (expected [Name value])")
    try:
        parsed = json.loads(value)
    except (ValueError, RecursionError):
        raise NotationError(f"the value of the tag {name} is not a JSON value: {excerpt(value)}") from None
    return name, parsed


def _string(value: object, name: str) -> str:
    if not isinstance(value, str):
        raise NotationError(f"the tag {name} takes a string, not {excerpt(value)}")
    return value


def _integer(value: object, name: str, low: int, high: int | None = None) -> int:
    if type(value) is not int or value < low or (high is not None and value > high):
        bound = f"{low}-{high}" if high is not None else f"at least {low}"
        raise NotationError(f"the tag {name} takes a whole number {bound}, not {excerpt(value)}")
    return value


def _scores(value: object, name: str) -> tuple[int, int]:
    if not isinstance(value, list) or len(value) != 2 or not all(type(score) is int for score in value):
        raise NotationError(f"the tag {name} takes two whole numbers like [82, 130], not {excerpt(value)}")
    return (value[0], value[1])


def _build(game: dict[str, object], deals: list[tuple[dict[str, object], list[RecordedAction]]]) -> GameRecord:
    try:
        rules = Rules.parse(_string(game.get("Rules", "default"), "Rules"))
    except InvalidRulesError as error:
        raise NotationError(f"the tag Rules: {error}") from None
    players = tuple(_string(game.get(f"Seat{seat}", DEFAULT_PLAYERS[seat]), f"Seat{seat}") for seat in range(PLAYERS))
    teams = tuple(_string(game.get(f"Team{team}", DEFAULT_TEAMS[team]), f"Team{team}") for team in range(2))
    viewer = _integer(game["Viewer"], "Viewer", 0, PLAYERS - 1) if "Viewer" in game else None
    scores = _scores(game["Scores"], "Scores") if "Scores" in game else None
    built = []
    for tags, actions in deals:
        number = _integer(tags["Deal"], "Deal", 1, rules.deals)
        try:
            dealer = _integer(tags.get("Dealer"), "Dealer", 0, PLAYERS - 1)
            raw_seed = tags.get("Seed")
            if raw_seed is not None and (isinstance(raw_seed, bool) or not isinstance(raw_seed, int | str)):
                raise NotationError(f"the tag Seed takes a whole number or a string, not {excerpt(raw_seed)}")
            seed: Seed | None = raw_seed if isinstance(raw_seed, int | str) else None
            if "Deck" in tags:
                deck = parse_deck(_string(tags["Deck"], "Deck"), number)
                if seed is not None and shuffled_deck(seed) != deck:
                    raise NotationError(
                        f"the tags Seed and Deck disagree: seed {excerpt(seed)} does not shuffle to that deck"
                    )
            elif seed is not None:
                deck = shuffled_deck(seed)
            else:
                raise NotationError("a deal needs a Seed or a Deck tag")
            if (None in deck) != (viewer is not None):
                raise NotationError("hidden cards (??) belong to redacted records (with a Viewer tag) only")
            if viewer is not None and seed is not None:
                raise NotationError("a redacted record has no seeds: a seed reveals every card")
            final = None
            if "Hands" in tags:
                if viewer is None:
                    raise NotationError("the tag Hands belongs to redacted records only")
                parts = _string(tags["Hands"], "Hands").split("/")
                if len(parts) != PLAYERS:
                    raise NotationError(f"R3: the tag Hands lists 4 hands separated by '/', not {len(parts)}")
                final = tuple(Hand(part) for part in parts)
            deal_scores = _scores(tags["Scores"], "Scores") if "Scores" in tags else None
            built.append(
                DealRecord(
                    number=number,
                    dealer=dealer,
                    deck=deck,
                    seed=seed,
                    actions=tuple(actions),
                    scores=deal_scores,
                    final_hands=final,
                )
            )
        except (NotationError, InvalidArgumentError) as error:  # e.g. a card twice in the Hands tag
            raise NotationError(f"deal {number}: {error}") from None
    return GameRecord(tuple(built), rules, players, teams, scores, viewer)
