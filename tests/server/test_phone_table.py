"""The table and the lobby on a 390x844 phone by touch (issue 50): "More" open leaves the stock,
the pile's top card, the hand and the actions whole and tappable; nothing is wider than the
screen (the lobby, the table-ready page, the table with "More" open, the score sheet); Discard
and Meld say why they may not be pressed; a bot still choosing its move is shown thinking;
and at the default pace the others' moves come in quick succession."""

from __future__ import annotations

import inspect
import json
from typing import Any

from browser import (
    PHONE,
    WAIT,
    choose,
    close_sheet,
    drive,
    inside,
    legal,
    new_page,
    press,
    select,
    seq,
    wait_for_turn,
)
from live import LiveServer
from playwright.sync_api import Browser, Page, expect

from persian_rummy import Rules
from persian_rummy.server import pages, serve

BOTS = ["greedy", "greedy", "human", "greedy"]
SCREEN: dict[str, float] = {"x": 0, "y": 0, "width": 390, "height": 844}


def south(server: LiveServer, seed: int, dealer: int, rules: Rules | None = None) -> str:
    """A new table of South (a person) and three easy bots; South's token."""
    options = {} if rules is None else {"rules": rules}
    _, links = server.call(server.app.state.server.create_table(BOTS, seed=seed, dealer=dealer, **options))
    ((_, token),) = links["seats"]
    return str(token)


def open_seat(page: Page, server: LiveServer, token: str) -> None:
    page.goto(f"{server.url}/play/{token}")
    page.wait_for_selector("#hand [data-card]")
    wait_for_turn(page)


def settled(page: Page) -> None:
    page.wait_for_function("() => document.getAnimations().every(animation => animation.playState !== 'running')")


def hidden_or_covered(page: Page, selectors: list[str]) -> list[str]:
    """Each element of ``selectors`` that is not wholly on screen, or whose centre a tap would
    not reach (another element on top of it there)."""
    wrong = []
    for selector in selectors:
        element = page.locator(selector)
        if not inside(element.bounding_box(), SCREEN):
            wrong.append(f"{selector} is not wholly on screen: {element.bounding_box()}")
        elif not element.evaluate(
            """element => { const box = element.getBoundingClientRect();
            const top = document.elementFromPoint(box.x + box.width / 2, box.y + box.height / 2);
            return top !== null && element.contains(top); }"""
        ):
            wrong.append(f"{selector} is covered at its centre")
    return wrong


def too_wide(page: Page) -> list[str]:
    """What is wider than the phone's screen: the page itself (a phone's browser lays a page
    out as wide as its content, so the window's width is checked too), each element whose right
    edge is past the screen's, and each box whose content is wider than the box (but the pile,
    a row that scrolls sideways by design)."""
    return list(
        page.evaluate(
            """width => {
            const found = [];
            if (document.scrollingElement.scrollWidth > width) found.push('the page: ' + document.scrollingElement.scrollWidth);
            if (window.innerWidth > width) found.push('the window, laid out: ' + window.innerWidth);
            for (const element of document.querySelectorAll('body *')) {
                const box = element.getBoundingClientRect();
                const name = element.tagName.toLowerCase() + (element.id ? '#' + element.id : '') + '.' + element.className;
                if (box.width > 0 && box.right > width + 0.5) found.push(name + ' ends at ' + box.right);
                const style = getComputedStyle(element);
                if (element.id !== 'pile' && /auto|scroll/.test(style.overflowX) && element.scrollWidth > element.clientWidth)
                    found.push(name + ' scrolls sideways by ' + (element.scrollWidth - element.clientWidth));
            }
            return found;
        }""",
            SCREEN["width"],
        )
    )


# --- The tests' own taps --------------------------------------------------------------------


def test_a_tap_that_clicks_nothing_is_tapped_again_as_a_person_would(browser: Browser) -> None:
    """On a busy machine a tap's lift can reach the browser late, and the touch is then a long
    press that clicks nothing (a test once opened nothing by its tap on "More"). The first
    touch here is swallowed the same way (its default stopped): the press taps again."""
    page, problems = new_page(browser, PHONE)
    page.set_content(
        '<button id="b" type="button">Press</button><script>let clicks = 0;'
        'document.getElementById("b").addEventListener("touchstart", (event) => event.preventDefault(), {once: true, passive: false});'
        'document.getElementById("b").addEventListener("click", () => { clicks += 1; });</script>'
    )
    press(page.locator("#b"), True)
    assert page.evaluate("clicks") == 1  # tapped again once, and clicked once
    assert problems == []
    page.close()


# --- 13. "More" open ---------------------------------------------------------------------


def test_with_more_open_the_stock_the_pile_the_hand_and_the_actions_stay_whole_and_tappable(
    browser: Browser, server: LiveServer
) -> None:
    # Seed 3, South dealing: at South's first turn the pile holds two cards and more; South
    # takes from the second, holds ten cards (two rows) and has melds to make.
    page, problems = new_page(browser, PHONE)
    open_seat(page, server, south(server, 3, 2))
    press(page.locator("#more summary"), True)
    wanted = ["[data-stock]", "[data-pile]:last-child", "#draw", "#meld", "#discard", "#pass"]
    wanted += [f"#hand [data-index='{index}']" for index in range(page.locator("#hand [data-card]").count())]
    assert hidden_or_covered(page, wanted) == []
    assert page.evaluate("document.scrollingElement.scrollHeight") <= SCREEN["height"]  # still one screen
    before = seq(page)
    press(page.locator('[data-pile="1"]'), True)  # R13: take it and the cards above it
    page.wait_for_selector(f'#table:not([data-seq="{before}"])')
    settled(page)
    assert page.locator("#hand [data-card]").count() == 10 and page.is_visible("#more #help")
    wanted += [f"#hand [data-index='{index}']" for index in range(7, 10)]
    assert hidden_or_covered(page, wanted[1:]) == []  # the stock is spent for this turn: the rest
    assert problems == []
    page.close()


# --- 14 and 17. Nothing wider than the screen -----------------------------------------------


def test_nothing_in_the_lobby_or_at_the_table_is_wider_than_a_phone(browser: Browser, server: LiveServer) -> None:
    page, problems = new_page(browser, PHONE)
    page.goto(server.url + "/")
    assert too_wide(page) == []  # the lobby: its seats' level lists whole
    for seat in (0, 1, 3):  # the quickest bots: the table's own moves cost the test little
        page.select_option(f'select[name="seat{seat}"]', "greedy")
    page.fill('input[name="name1"]', "Bartholomew")
    press(page.locator("button[type=submit]"), True)
    page.wait_for_selector("#open-seat")
    assert too_wide(page) == []  # the table-ready page: its links wrap
    press(page.locator("#open-seat"), True)
    page.wait_for_selector("#hand [data-card]")
    press(page.locator("#more summary"), True)
    page.wait_for_selector("#help", state="visible")
    assert too_wide(page) == []  # the table, "More" open
    # The score sheet at the end of a one-deal game (seed 107, East dealing).
    token = south(server, 107, 1, Rules(deals=1))
    drive(server, token, lambda frame: frame["phase"] == "game_over")
    page.goto(f"{server.url}/play/{token}")
    page.wait_for_selector("#sheet[open]")
    assert too_wide(page) == []
    close_sheet(page, True)
    assert too_wide(page) == []
    assert problems == []
    page.close()


# --- 15 and 16. Meld and Discard: enabled for a legal action only, else say why ------------


def reason(page: Page, button: str) -> str:
    """The reason under an action's name, once it is on screen and is the button's description."""
    why = page.locator(f"#{button}-why")
    text = why.text_content() or ""
    if text:
        assert inside(why.bounding_box(), SCREEN), f"{button}: {text!r} is off screen"
        expect(page.locator(f"#{button}")).to_have_accessible_description(text, timeout=WAIT)
    return text


def test_discard_before_drawing_says_draw_first_on_screen_and_to_a_screen_reader(
    browser: Browser, server: LiveServer
) -> None:
    # Seed 14, East dealing: South plays first (R6).
    page, problems = new_page(browser, PHONE)
    open_seat(page, server, south(server, 14, 1))
    assert legal(page)[0] == "draw"
    assert page.is_disabled("#discard") and reason(page, "discard") == "draw first"
    expect(page.locator("#discard")).to_have_accessible_name("Discard")  # the reason is not its name
    select(page, [page.locator("#hand [data-card]").first.get_attribute("data-card") or ""], True)
    assert page.is_disabled("#discard") and reason(page, "discard") == "draw first"
    assert page.is_disabled("#meld") and reason(page, "meld") == "draw first"
    assert page.is_disabled("#pass") and reason(page, "pass") == "stock left"  # R20
    before = seq(page)
    press(page.locator("[data-stock]"), True)
    page.wait_for_selector(f'#table:not([data-seq="{before}"])')
    assert page.is_disabled("#discard") and reason(page, "discard") == "select 1 card"
    card = page.locator("#hand [data-card]").first.get_attribute("data-card") or ""
    select(page, [card], True)
    assert page.is_enabled("#discard") and reason(page, "discard") == ""
    assert problems == []
    page.close()


def test_meld_and_the_melds_are_enabled_only_for_a_selection_that_makes_a_legal_meld_or_lay_off(
    browser: Browser, server: LiveServer
) -> None:
    # Late in the one-deal game of seed 107 (eleven melds down), South may meld 3s 3h 3c.
    token = south(server, 107, 1, Rules(deals=1))
    drive(server, token, lambda frame: frame["seq"] >= 91 and any(o.startswith("meld ") for o in frame["legal"]))
    page, problems = new_page(browser, PHONE)
    open_seat(page, server, token)
    hand = page.eval_on_selector_all("#hand [data-card]", "cards => cards.map(card => card.dataset.card)")
    actions = legal(page)
    melds = [option.split()[1:] for option in actions if option.startswith("meld ")]
    trio = next(hand[at : at + 3] for at in range(len(hand) - 2) if sorted(hand[at : at + 3]) not in map(sorted, melds))
    select(page, trio, True)  # R9: three cards that make no meld
    assert page.locator('#hand [aria-pressed="true"]').count() == 3
    assert page.is_disabled("#meld") and reason(page, "meld") == "not a meld"
    select(page, trio, True)  # tapped again: put back
    meld = choose(actions)  # the longest meld
    select(page, meld.split()[1:], True)
    assert page.is_enabled("#meld") and "lit" in (page.get_attribute("#meld", "class") or "")
    before = seq(page)
    press(page.locator("#meld"), True)
    page.wait_for_selector(f'#table:not([data-seq="{before}"])')
    # One card selected: only the melds it may be laid off on (R16) are enabled; a card that may
    # be laid off (here, after that meld, one may), and one that may not.
    actions = legal(page)
    hand = page.eval_on_selector_all("#hand [data-card]", "cards => cards.map(card => card.dataset.card)")
    layoffs = {option.split()[1] for option in actions if option.startswith("layoff ")}
    cards = [next(card for card in hand if card in layoffs), next(card for card in hand if card not in layoffs)]
    for card in cards:
        select(page, [card], True)
        for index in range(page.locator("[data-meld]").count()):
            assert page.is_enabled(f'[data-meld="{index}"]') == (f"layoff {card} {index}" in actions), (card, index)
        select(page, [card], True)
    assert problems == []
    page.close()


# --- 18. Pace -------------------------------------------------------------------------------


def test_a_bot_still_choosing_its_move_is_shown_thinking(browser: Browser, tmp_path: Any) -> None:
    # Each bot waits a minute before its move: the test ends long before.
    with LiveServer(str(tmp_path / "games.sqlite3"), bot_delay=60.0) as server:
        page, problems = new_page(browser, PHONE)
        open_seat(page, server, south(server, 14, 1))
        before = seq(page)
        press(page.locator("[data-stock]"), True)
        page.wait_for_selector(f'#table:not([data-seq="{before}"])')
        select(page, [page.locator("#hand [data-card]").first.get_attribute("data-card") or ""], True)
        press(page.locator("#discard"), True)
        west = page.locator('.seat[data-seat="3"]')
        expect(west).to_have_class("seat to-move thinking", timeout=WAIT)
        assert west.locator(".name").text_content() == "West thinking…"
        assert page.text_content("#status") == "West, the easy bot, is thinking…"
        assert page.locator(".seat.thinking").count() == 1
        assert problems == []
        page.close()


def test_at_the_default_pace_the_three_others_play_a_round_in_under_four_seconds(
    browser: Browser, server: LiveServer
) -> None:
    """The page's share of a round of the three others, on a virtual clock, at the default
    pace of a person who never picked one (motion reduced: a move takes as long as its card's
    travel would, and the pause to read it). The server pauses before each bot move
    (``serve``'s ``bot_delay``) while the page shows the one before; its pause is shorter than
    the page's time a move, so the person's next turn comes one pause after the page's share:
    under four seconds for the fastest bots, whose choice takes a few milliseconds (the
    median over whole games: ``benchmarks/table_pace.py``)."""
    pause = inspect.signature(serve).parameters["bot_delay"].default
    page, problems = new_page(browser, PHONE, pace=None)
    received: list[dict[str, Any]] = []
    page.on("websocket", lambda socket: socket.on("framereceived", lambda data: received.append(json.loads(data))))
    page.clock.install()
    open_seat(page, server, south(server, 14, 1))
    before = seq(page)
    press(page.locator("[data-stock]"), True)
    page.wait_for_selector(f'#table:not([data-seq="{before}"])')
    select(page, [page.locator("#hand [data-card]").first.get_attribute("data-card") or ""], True)
    page.clock.pause_at(page.evaluate("Date.now()") + 1000)
    press(page.locator("#discard"), True)
    # The server plays the round at once (no pause in tests): wait, bounded, for its last frame.
    discarded = int(before) + 2
    for _ in range(600):
        frames = [frame for frame in received if frame.get("type") == "state" and frame["seq"] > discarded]
        if frames and frames[-1]["turn"] == 2 and frames[-1]["legal"]:
            break
        page.wait_for_timeout(50)
    else:
        raise AssertionError("the round of the others did not arrive")
    moves = [entry for frame in frames for entry in frame["log"] if entry["kind"] == "action"]
    assert len(moves) >= 6  # a draw and a discard of each of the three others at least
    shown = 0
    while not legal(page):
        assert shown < 60_000, "the page did not come to South's turn"
        page.clock.run_for(50)
        shown += 50
    assert pause * 1000 + shown < 4000, f"{len(moves)} moves: {shown} ms"
    # The configured pace, as the page shows it: four thirds of a card's travel a move, longer
    # than the server's pause.
    each = pages.PACES[pages.DEFAULT_PACE] * 4 / 3
    assert page.input_value("#pace") == pages.DEFAULT_PACE and pause * 1000 < each
    assert shown <= len(moves) * each + 50
    assert problems == []
    page.close()
