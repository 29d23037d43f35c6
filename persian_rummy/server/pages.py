"""The server's HTML pages: the lobby (create a table), the links of a new table, and the
page of a seat or spectator (filled in by ``static/table.js`` from the WebSocket frames).

Every value put into a page is escaped; pages load no script but the server's own.

>>> "<form" in lobby(), "persian-rummy" in problem("x")
(True, True)
"""

from __future__ import annotations

from html import escape
from typing import Any

from persian_rummy.bots import BOTS
from persian_rummy.rules import PRESETS
from persian_rummy.server.tables import HUMAN, Table
from persian_rummy.state import SEAT_NAMES, TEAM_NAMES, team_of

__all__ = ["created", "lobby", "problem", "table_page"]


def _page(title: str, body: str, *, page: str = "lobby") -> str:
    return (
        "<!doctype html>\n"
        f'<html lang="en"><head><meta charset="utf-8"><title>{escape(title)} · persian-rummy</title>'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        '<link rel="icon" href="/static/favicon.svg" type="image/svg+xml">'
        '<link rel="stylesheet" href="/static/table.css"></head>'
        f'<body class="{page}">{body}</body></html>\n'
    )


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
    """The form that creates a table: a kind (a person or a bot) and a name per seat, and the rules.

    >>> lobby().count('<select name="seat')
    4
    """
    # Each bot once, by its first name (montecarlo, not also its short name mc).
    kinds = [HUMAN, *list({factory: name for name, factory in reversed(BOTS.items())}.values())[::-1]]
    seats = []
    for seat, name in enumerate(SEAT_NAMES):
        default = HUMAN if seat == 2 else "greedy"
        options = "".join(
            f'<option value="{kind}"{" selected" if kind == default else ""}>{"a person" if kind == HUMAN else kind + " bot"}</option>'
            for kind in kinds
        )
        seats.append(
            f"<fieldset><legend>{name} (seat {seat}, {TEAM_NAMES[team_of(seat)]})</legend>"
            f'<label>Plays: <select name="seat{seat}">{options}</select></label> '
            f'<label>Name: <input name="name{seat}" value="{name}" maxlength="40"></label></fieldset>'
        )
    presets = "".join(f'<option value="{name}">{name}</option>' for name in PRESETS)
    return _page(
        "New table",
        "<main><h1>Persian Rummy: a new table</h1>"
        '<form method="post" action="/tables">'
        + "".join(seats)
        + f'<fieldset><legend>Rules</legend><label>Preset: <select name="preset">{presets}</select></label> '
        '<label>or knobs: <input name="knobs" placeholder="deals=1 going_out_bonus=50" maxlength="400"></label>'
        "</fieldset>"
        '<p><button type="submit">Create the table</button></p></form>'
        "<p>Each person gets a secret link to their seat; anyone with the spectator link sees the public table "
        "only. Bots play the other seats.</p></main>",
    )


def created(table: Table, tokens: dict[str, Any], base: str) -> str:
    """The page listing a new table's secret links: one per person's seat and a spectator link."""
    rows = "".join(
        f"<li>{escape(SEAT_NAMES[seat])} ({escape(table.names[seat])}): "
        f'<a href="/play/{token}">{escape(base)}/play/{token}</a></li>'
        for seat, token in tokens["seats"]
    )
    bots = "".join(
        f"<li>{escape(SEAT_NAMES[seat])}: the {escape(kind)} bot</li>"
        for seat, kind in enumerate(table.seats)
        if kind != HUMAN
    )
    watch = tokens["spectator"]
    return _page(
        "Table created",
        f"<main><h1>Table {escape(table.id)} is ready</h1>"
        "<p>Give each person their own link: it is the only key to that seat, and it is shown only now.</p>"
        f'<ul class="links">{rows}</ul>'
        + (f"<p>Bots:</p><ul>{bots}</ul>" if bots else "")
        + f'<p>Spectators: <a href="/watch/{watch}">{escape(base)}/watch/{watch}</a></p></main>',
    )


def table_page(table: Table, seat: int | None) -> str:
    """The page of a seat (or of a spectator, ``seat=None``): a frame filled in live by the
    page's script from the WebSocket.

    >>> page = table_page(Table.new(seats=("human",) * 4, table_id="t"), 1)
    >>> 'data-seat="1"' in page, 'id="board"' in page
    (True, True)
    """
    who = "Spectator" if seat is None else f"{SEAT_NAMES[seat]} ({table.names[seat]})"
    controls = (
        ""
        if seat is None
        else '<div id="controls" role="toolbar" aria-label="Actions">'
        '<button id="draw" type="button" accesskey="d">Draw from stock</button>'
        '<button id="meld" type="button" accesskey="m">Meld selected</button>'
        '<button id="discard" type="button" accesskey="x">Discard selected</button>'
        '<button id="pass" type="button" accesskey="p">Pass</button>'
        '<button id="clear" type="button">Clear selection</button>'
        '<form id="typed"><label>Action: <input id="action" list="legal" autocomplete="off" '
        'placeholder="draw, take 2, meld 4s 5s 6s, layoff 7c 1, discard Jk"></label>'
        '<datalist id="legal"></datalist><button type="submit">Play</button></form>'
        "</div>"
    )
    return _page(
        f"Table {table.id}",
        f'<main id="table" data-seat="{"" if seat is None else seat}">'
        f'<header><h1>Persian Rummy · {escape(who)}</h1><p id="status" role="status" aria-live="polite">Connecting…</p></header>'
        f'<div id="board" aria-label="The table"></div>{controls}'
        '<p id="help">'
        + (
            "Click the stock to draw or a discard-pile card to take it and all above it. "
            "Click your cards to select them, then Meld; select one card and click a meld to lay it off; "
            "double-click a card (or select it and press Discard) to discard. Tab to any card or button; Enter or Space clicks it."
            if seat is not None
            else "You are watching: only the public table is shown."
        )
        + "</p>"
        + ('<p><a id="record" href="">Download the game record</a></p>' if seat is not None else "")
        + '<dialog id="sheet"><h2 id="sheet-title">Score sheet</h2><table id="sheet-table"></table>'
        '<p id="sheet-result"></p><form method="dialog"><button id="sheet-close" autofocus>Continue</button></form></dialog>'
        '</main><script src="/static/table.js"></script>',
        page="table",
    )
