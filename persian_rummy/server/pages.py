"""The server's HTML pages: the lobby (create a table), the links of a new table, and the
page of a seat or spectator (filled in by ``static/table.js`` from the WebSocket frames).

Every value put into a page is escaped; pages load no script but the server's own.

>>> "<form" in lobby(), "persian-rummy" in problem("x")
(True, True)
"""

from __future__ import annotations

import hashlib
import json
from html import escape
from importlib import resources
from typing import Any, Final

from persian_rummy.bots import DEFAULT_LEVEL
from persian_rummy.rules import PRESETS
from persian_rummy.server.hints import hints_off
from persian_rummy.server.levels import Level, level_of, levels
from persian_rummy.server.protocol import HUMAN, PROTOCOL, page_protocol
from persian_rummy.server.tables import Table
from persian_rummy.state import SEAT_NAMES, TEAM_NAMES, team_of

__all__ = ["DEFAULT_PACE", "PACES", "created", "lobby", "problem", "table_page"]

# The protocol's names and numbers, as the table's page carries them for its script (an
# attribute's text: escaped like every value in a page).
_PROTOCOL_TEXT: Final = escape(json.dumps(page_protocol(), ensure_ascii=False, separators=(",", ":")))
# The page's script and style sheet are asked for by their contents' digest too, so a browser
# holding an older copy (they are cached for minutes) fetches the new one.
_STATIC: Final = resources.files("persian_rummy.server").joinpath("static")
_VERSION: Final = hashlib.sha256(
    b"".join(_STATIC.joinpath(name).read_bytes() for name in ("table.js", "table.css"))
).hexdigest()[:12]


def _page(title: str, body: str, *, page: str = "lobby") -> str:
    return (
        "<!doctype html>\n"
        f'<html lang="en"><head><meta charset="utf-8"><title>{escape(title)} · persian-rummy</title>'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        '<link rel="icon" href="/static/favicon.svg" type="image/svg+xml">'
        f'<link rel="stylesheet" href="/static/table.css?v={_VERSION}"></head>'
        f'<body class="{page}">{body}</body></html>\n'
    )


def _bot_words(kind: str) -> str:
    """A bot seat's kind as a person reads it: ``the medium bot (mc)``, its bot named once
    (``the expert bot``, not ``the expert bot (expert)``).

    >>> _bot_words("mc"), _bot_words("expert"), _bot_words("mc:samples=8")
    ('the medium bot (mc)', 'the expert bot', 'the mc:samples=8 bot')
    """
    level = level_of(kind)
    if level is None or level.name == kind:
        return f"the {kind} bot"
    return f"the {level.name} bot ({kind})"


def _level_words(level: Level) -> str:
    """A level's heading in the lobby's list: ``Medium (mc bot)``, its bot named once.

    >>> [_level_words(level) for level in levels()][1:]
    ['Medium (mc bot)', 'Hard (neural bot)', 'Expert']
    """
    name = level.name.capitalize()
    return name if level.bot == level.name else f"{name} ({level.bot} bot)"


def problem(message: str) -> str:
    """A page that says what went wrong (the message is escaped).

    >>> "&lt;b&gt;" in problem("<b>")
    True
    """
    return _page(
        "Problem",
        f'<main><h1>persian-rummy</h1><p role="alert">{escape(message)}</p><p><a href="/">Back</a></p></main>',
    )


def lobby() -> str:
    """The form that creates a table: who plays each seat (a person, or a bot by its level's
    name, :func:`~persian_rummy.server.levels.levels`, each level's description in the list
    below the form, which describes each choice) with a name, and the rules.

    >>> page = lobby()
    >>> page.count('<select name="seat'), '<option value="expert">Expert</option>' in page
    (4, True)
    """
    choices = [(HUMAN, "a person")] + [(level.bot, level.name.capitalize()) for level in levels()]
    # The strongest level that answers within a second (the command line's default too).
    default_bot = next(level.bot for level in levels() if level.name == DEFAULT_LEVEL)
    seats = []
    for seat, name in enumerate(SEAT_NAMES):
        default = HUMAN if seat == 2 else default_bot
        options = "".join(
            f'<option value="{escape(value)}"{" selected" if value == default else ""}>{escape(label)}</option>'
            for value, label in choices
        )
        seats.append(
            f"<fieldset><legend>{name} (seat {seat}, {TEAM_NAMES[team_of(seat)]})</legend>"
            f'<label>Plays: <select name="seat{seat}" aria-describedby="levels">{options}</select></label> '
            f'<label>Name: <input name="name{seat}" value="{name}" maxlength="40"></label></fieldset>'
        )
    presets = "".join(f'<option value="{name}">{name}</option>' for name in PRESETS)
    described = "".join(
        f"<dt>{escape(_level_words(level))}</dt><dd>{escape(level.description)}</dd>" for level in levels()
    )
    return _page(
        "New table",
        "<main><h1>Persian Rummy: a new table</h1>"
        '<form method="post" action="/tables">'
        + "".join(seats)
        + f'<fieldset><legend>Rules</legend><label>Preset: <select name="preset">{presets}</select></label> '
        '<label>or knobs: <input name="knobs" placeholder="deals=1 going_out_bonus=50" maxlength="400"></label>'
        "</fieldset>"
        '<p><button type="submit">Create the table</button></p></form>'
        f'<h2>The bots\' levels</h2><dl id="levels">{described}</dl>'
        "<p>Each person gets a secret link to their seat; anyone with the spectator link sees the public table "
        "only. Bots play the other seats.</p></main>",
    )


def _who(table: Table, seat: int) -> str:
    """A seat as a person reads it: ``South`` or ``South (Tess)`` (a colon after it starts
    what is said of it: ``South (Tess): the link``)."""
    name = table.names[seat]
    return SEAT_NAMES[seat] if name == SEAT_NAMES[seat] else f"{SEAT_NAMES[seat]} ({name})"


def created(table: Table, tokens: dict[str, Any], base: str) -> str:
    """The page listing a new table's secret links: one per person's seat, with a button that
    opens the first one here, and a spectator link.

    >>> table = Table.new(seats=("greedy", "greedy", "human", "greedy"), names=("N", "E", "Tess", "W"))
    >>> page = created(table, {"seats": [(2, "tok")], "spectator": "watch"}, "http://x")
    >>> 'id="open-seat" href="/play/tok"' in page, "South (Tess): <a" in page
    (True, True)
    """
    rows = "".join(
        f'<li>{escape(_who(table, seat))}: <a href="/play/{token}">{escape(base)}/play/{token}</a></li>'
        for seat, token in tokens["seats"]
    )
    bots = "".join(
        f"<li>{escape(_who(table, seat))}: {escape(_bot_words(kind))}</li>"
        for seat, kind in enumerate(table.seats)
        if kind != HUMAN
    )
    watch = tokens["spectator"]
    first = tokens["seats"][0] if tokens["seats"] else None
    opener = (
        f'<p><a class="button" id="open-seat" href="/play/{first[1]}">Open my seat: {escape(_who(table, first[0]))}</a></p>'
        if first is not None
        else ""
    )
    return _page(
        "Table created",
        f"<main><h1>Table {escape(table.id)} is ready</h1>{opener}"
        "<p>Give each other person their own link: it is the only key to that seat, and it is shown only now.</p>"
        f'<ul class="links">{rows}</ul>'
        + (f"<p>Bots:</p><ul>{bots}</ul>" if bots else "")
        + f'<p>Spectators: <a href="/watch/{watch}">{escape(base)}/watch/{watch}</a></p>'
        '<p><a href="/">Back to the lobby</a></p></main>',
    )


#: The paces a seat's page shows the other seats' moves at, as the person picks one under
#: "More" (the browser keeps it): the milliseconds a card of each move travels; the page pauses
#: a third of that after each move to let it be read (where motion is reduced, it waits the
#: travel's time too, still), so a move takes four thirds of it. The page reads them from its
#: ``#pace`` options.
PACES: Final = {"instant": 0, "quick": 250, "steady": 700, "slow": 1400}
#: The pace of a person who has picked none: a third of a second a move, so a round of the
#: three others (six to ten moves) shows in two to four seconds.
DEFAULT_PACE: Final = "quick"


def _pace() -> str:
    options = "".join(
        f'<option value="{name}" data-ms="{ms}"{" selected" if name == DEFAULT_PACE else ""}>{name}</option>'
        for name, ms in PACES.items()
    )
    return f'<label>Others\' moves: <select id="pace">{options}</select></label>'


def _help(seat: int | None, hints: bool) -> str:
    if seat is None:
        return "You are watching: only the public table is shown."
    return (
        "Tap the stock or Draw to draw, or a discard-pile card to take it and every card above it. "
        "Tap your cards to select them (they lift), then Meld; select one card and tap a lit meld to lay it off; "
        "select one card and press Discard to end your turn. Lit cards and buttons are what you may do now; "
        "a button you may not press says why under its name. "
        + ("Hint shows what the strongest bot would play. " if hints else "")
        + "Drag cards, or Alt+arrow keys, to arrange your hand; arrow keys move between its cards. "
        "Every control is a button: Tab to it, Enter or Space presses it."
    )


def _more(seat: int | None, hints: bool) -> str:
    """The settings and the rest, folded under "More" (on a phone, in the room the table leaves)."""
    person = seat is not None
    arrange = (
        '<div id="arrange" role="toolbar" aria-label="Arrange">'
        '<button id="clear" type="button" class="quiet" disabled>Clear selection</button>'
        '<button id="by-suit" type="button" class="quiet">Sort by suit</button>'
        '<button id="by-rank" type="button" class="quiet">Sort by rank</button>'
        '<button id="sound" type="button" class="quiet" aria-pressed="false">Sound: off</button></div>'
    )
    typed = (
        '<form id="typed"><label>Type an action: <input id="action" list="legal" autocomplete="off" '
        'placeholder="draw, take 2, meld 4s 5s 6s, layoff 7c 1, discard Jk, help"></label>'
        '<datalist id="legal"></datalist><button type="submit" class="quiet">Play</button></form>'
    )
    return (
        '<details id="more"><summary>More: arrange, pace, type a move, help</summary>'
        + (arrange if person else "")
        + f'<p class="setting">{_pace()}</p>'
        + (typed if person else "")
        + f'<p id="help">{_help(seat, hints)}</p>'
        + ('<p><a id="record" href="">Download the game record</a></p>' if person else "")
        + "</details>"
    )


def _action(name: str, label: str) -> str:
    """An action's button: disabled until a frame allows it, and a line under its name saying
    why not (read to a screen reader as its description)."""
    return (
        f'<button id="{name}" type="button" disabled aria-describedby="{name}-why">{label}'
        f'<small class="why" id="{name}-why" aria-hidden="true"></small></button>'
    )


def _mine(seat: int | None, hints: bool) -> str:
    """The seat's own part at the bottom: the hand, the actions and "More" (a spectator's: "More")."""
    if seat is None:
        return f'<section id="mine" aria-label="Settings">{_more(seat, hints)}</section>'
    return (
        '<section id="mine" aria-label="Your hand and actions"><p id="tip" aria-live="polite"></p>'
        '<div id="hand" role="group" aria-label="Your hand: select cards"></div>'
        '<div id="controls" role="group" aria-label="Actions">'
        + "".join(_action(name, name.capitalize()) for name in ("draw", "meld", "discard", "pass"))
        + ('<button id="hint" type="button" class="quiet" disabled>Hint</button>' if hints else "")
        + f"</div>{_more(seat, hints)}</section>"
    )


def _header(table: Table, seat: int | None) -> str:
    who = "watching" if seat is None else _who(table, seat)
    return (
        f"<header><h1>Persian Rummy · {escape(who)}</h1>"
        '<p id="status" role="status" aria-live="polite">Connecting…</p>'
        '<button id="retake" type="button" hidden>Take the seat back here</button>'
        '<p id="scores"></p>'
        '<div id="end" role="group" aria-label="The game is over" hidden>'
        + ('<button id="rematch" type="button">Rematch</button>' if seat is not None else "")
        + '<a class="button" id="lobby" href="/">New game</a>'
        '<button id="show-sheet" type="button" class="quiet">Score sheet</button></div></header>'
    )


# The table between the header and the seat's own part: the other seats, the stock and the
# pile, the melds; the log beside it (under it on a phone).
_BOARD: Final = (
    '<section id="board" aria-label="The table"><div id="seats"></div>'
    '<div id="centre"><button id="stock" type="button" data-stock="" disabled>Stock</button>'
    '<div id="pile" role="group" aria-label="Discard pile (oldest first)" tabindex="0"></div></div>'
    '<div id="meld-box" role="group" aria-label="Melds" tabindex="0"><h2 class="small">Melds</h2>'
    '<div id="melds"></div></div></section>'
    '<aside id="log-box" aria-label="Moves"><h2 class="small">Moves</h2>'
    '<div id="log" role="log" aria-live="polite" tabindex="0"></div></aside>'
)
# The score sheet, shown at the end of each deal.
_SHEET: Final = (
    '<dialog id="sheet" aria-labelledby="sheet-title"><h2 id="sheet-title">Score sheet</h2>'
    '<div class="scroll"><table id="sheet-table"></table></div>'
    '<p id="sheet-result"></p><div id="sheet-end"></div>'
    '<p><button id="sheet-close" type="button" autofocus>Continue</button></p></dialog>'
)


def table_page(table: Table, seat: int | None) -> str:
    """The page of a seat (or of a spectator, ``seat=None``): drawn live by the page's script
    from the WebSocket's frames, in one screen (the table above shrinks or scrolls in place;
    the hand and the actions stay under the thumb). Its hooks for scripts and tests are
    stable: the buttons ``draw``, ``meld``, ``discard``, ``pass`` and ``hint``, ``status``,
    the ``log``, the own ``hand``, ``rematch`` at the game's end, ``pace`` (:data:`PACES`).
    Every control starts disabled: the frames enable what the legal actions allow, and an
    action's button says why it is not (``#discard-why``: "draw first"). The script takes the
    protocol's names and numbers from the page's ``data-protocol``
    (:func:`~persian_rummy.server.protocol.page_protocol`), and is asked for by the protocol's
    version and its own digest, so a browser that kept an older script fetches the new one.
    ``data-hints`` is empty when the seat may ask for hints, else why not.

    >>> page = table_page(Table.new(seats=("human",) * 4, table_id="t"), 1)
    >>> 'data-seat="1"' in page, 'id="hand"' in page, 'id="log"' in page, 'id="rematch"' in page
    (True, True, True, True)
    >>> 'data-protocol="{&quot;protocol&quot;:2,' in page, 'src="/static/table.js?protocol=2&amp;v=' in page
    (True, True)
    >>> '<button id="draw" type="button" disabled aria-describedby="draw-why">' in page, 'data-hints=""' in page
    (True, True)
    >>> '<option value="quick" data-ms="250" selected>' in page
    True
    """
    off = hints_off(table) or "" if seat is not None else "a spectator takes no hints"
    return _page(
        f"Table {table.id}",
        f'<main id="table" data-seat="{"" if seat is None else seat}" data-protocol="{_PROTOCOL_TEXT}" '
        f'data-hints="{escape(off)}">{_header(table, seat)}'
        f'<div id="game">{_BOARD}{_mine(seat, not off)}</div>{_SHEET}'
        f'</main><script src="/static/table.js?protocol={PROTOCOL}&amp;v={_VERSION}"></script>',
        page="table",
    )
