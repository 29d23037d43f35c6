"""A real browser at the table: the system's headless Chromium driven by Playwright (no browser
is downloaded; loopback only) plays South against three bots by clicks, taps and keys, through
the lobby form, the score sheets, the record download and the rematch. The page draws the table
from the frames' data; its hooks (``#draw``, ``#meld``, ``#discard``, ``#pass``, ``#status``,
``#log``, ``[data-card]``, ``[data-meld]``, ``[data-pile]``, ``[data-stock]``, ``#rematch``)
are what a person's clicks land on. Screenshots are saved to ``PERSIAN_RUMMY_SCREENSHOTS`` if
set (``docs/_static`` takes them), else to the test's temporary directory."""

from __future__ import annotations

import os
import pathlib
import re
from collections.abc import Iterator

import pytest
from browser import DESKTOP, PHONE, WAIT, close_sheet, legal, new_page, press, select, seq, wait_for_turn
from live import LiveServer
from playwright.sync_api import Browser, Page

from persian_rummy.actions import DrawStock
from persian_rummy.record import loads


@pytest.fixture
def server(db: str) -> Iterator[LiveServer]:  # on both stores, where the others' is SQLite's
    with LiveServer(db) as server:
        yield server


def screenshots(tmp_path: pathlib.Path) -> pathlib.Path:
    folder = pathlib.Path(os.environ.get("PERSIAN_RUMMY_SCREENSHOTS", tmp_path))
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def open_south_seat(page: Page, server: LiveServer) -> None:
    """Create a table in the lobby form (South a person, West greedy, North and East at the
    lobby's default level), then "Open my seat", and wait until it is South's turn on a settled
    page: the bots' moves before it redraw the hand, and one that lands in the middle of a
    gesture would race the test on a busy machine."""
    page.goto(server.url + "/")
    page.select_option('select[name="seat0"]', "greedy")
    page.select_option('select[name="seat2"]', "human")
    page.fill('input[name="name2"]', "Tester")
    page.click("button[type=submit]")
    page.click("#open-seat")
    page.wait_for_selector("#hand [data-card]")
    wait_for_turn(page)
    page.wait_for_function(
        "() => document.getAnimations().every(animation => animation.playState !== 'running')", timeout=WAIT
    )


def play_step(page: Page, options: list[str], touch: bool, keyboard: bool) -> None:
    """One action of South, chosen from those offered and done by taps, clicks or keys."""
    melds = sorted((option for option in options if option.startswith("meld ")), key=len, reverse=True)
    layoffs = [option for option in options if option.startswith("layoff ")]
    takes = [option for option in options if option.startswith("take ")]
    if "draw" in options:
        if takes and len(takes[-1].split()) == 2 and not keyboard:
            press(page.locator(f'[data-pile="{takes[-1].split()[1]}"]'), touch)
        elif keyboard:  # Tab through the page to the stock, then Enter
            for _ in range(120):
                page.keyboard.press("Tab")
                if page.evaluate("document.activeElement.hasAttribute('data-stock')"):
                    break
            else:
                raise AssertionError("the stock cannot be reached with Tab")
            page.keyboard.press("Enter")
        else:
            press(page.locator("[data-stock]"), touch)
    elif melds:
        select(page, melds[0].split()[1:], touch)
        assert "lit" in (page.get_attribute("#meld", "class") or "")  # shown before it is tried
        press(page.locator("#meld"), touch)
    elif layoffs:
        _, card, meld = layoffs[0].split()
        select(page, [card], touch)
        assert "lit" in (page.get_attribute(f'[data-meld="{meld}"]', "class") or "")
        press(page.locator(f'[data-meld="{meld}"]'), touch)
    elif "pass" in options:
        press(page.locator("#pass"), touch)
    else:
        card = [option for option in options if option.startswith("discard ")][-1].split()[1]
        if keyboard:  # Space on the focused card selects it; Enter on Discard
            page.locator(f'#hand [data-card="{card}"]').first.focus()
            page.keyboard.press(" ")
            page.locator("#discard").focus()
            page.keyboard.press("Enter")
        else:
            select(page, [card], touch)
            press(page.locator("#discard"), touch)


def play_game(page: Page, touch: bool, shot: pathlib.Path | None) -> int:
    """Play South to the end of the game; returns the score sheets met. Saves a screenshot of
    the table in play (``shot``) once melds are down."""
    sheets = steps = 0
    for _ in range(3000):
        if page.is_visible("#sheet"):
            if page.get_attribute("#table", "data-phase") == "game_over":
                return sheets + 1
            sheets += 1
            assert page.locator("#sheet-table tr").count() == 4  # header, two teams, totals
            close_sheet(page, touch)
            continue
        options = legal(page)
        if not options:
            page.wait_for_function(
                "() => document.querySelectorAll('#legal option').length > 0 || document.querySelector('#sheet').open",
                timeout=WAIT,
            )
            continue
        if (shot is not None and page.locator("[data-meld]").count() >= 2 and options == ["draw"]) or (
            shot is not None and steps > 60
        ):
            page.screenshot(path=str(shot))
            shot = None
        before = seq(page)
        play_step(page, options, touch, keyboard=not touch and steps % 5 == 4)
        page.wait_for_selector(f'#table:not([data-seq="{before}"]), #sheet[open]', timeout=WAIT)
        steps += 1
    raise AssertionError("the game did not end")


def assert_log_is_the_record(page: Page, server: LiveServer) -> None:
    """The log has one item per action, in order, naming each action as the record does (a
    stock draw as ``draw``: only its drawer sees the card, R27), in words."""
    (table,) = server.app.state.server.tables.values()
    items = page.eval_on_selector_all(
        "#log li", "items => items.map(item => [item.dataset.seat, item.dataset.action, item.textContent])"
    )
    actions = [("draw" if isinstance(action, DrawStock) else str(action)) for deal in table.deals for action in deal]
    assert [action for _, action, _ in items] == actions
    names = ["North", "East", "Tester", "West"]
    for seat, action, text in items:
        subject = "You " if seat == "2" else names[int(seat)] + " "
        assert text.startswith(subject), (action, text)
    assert page.locator("#log h3").count() == len(table.deals) - (table.finished and not table.deals[-1])


def test_a_person_draws_in_the_browser_and_the_card_drawn_is_named_to_them_alone(
    browser: Browser, server: LiveServer
) -> None:
    # Seed 14, East dealing: South plays first (R6). A refusal's reason: tests/server/test_table_page.py.
    _, links = server.call(
        server.app.state.server.create_table(["greedy", "greedy", "human", "greedy"], seed=14, dealer=1)
    )
    ((_, token),) = links["seats"]
    page, problems = new_page(browser, DESKTOP)
    page.goto(f"{server.url}/play/{token}")
    page.wait_for_selector("#legal option", state="attached")
    assert legal(page)[0] == "draw" and page.is_enabled("#draw") and page.is_disabled("#meld")
    assert "lit" in (page.get_attribute("[data-stock]", "class") or "")  # a legal draw is lit
    before = seq(page)
    page.click("[data-stock]")
    page.wait_for_selector(f'#table:not([data-seq="{before}"])')
    assert page.locator("#hand [data-card]").count() == 8
    assert page.locator("#hand .drawn").count() == 1  # the card drawn is marked
    assert page.locator("#log li").last.text_content().startswith("You draw ")  # named to its drawer only
    assert problems == []
    page.close()


def test_a_phone_shows_every_card_of_the_hand_big_enough_to_tap(
    browser: Browser, server: LiveServer, tmp_path: pathlib.Path
) -> None:
    page, problems = new_page(browser, PHONE)
    open_south_seat(page, server)
    page.wait_for_selector("#legal option", state="attached")
    press(page.locator("[data-stock]"), True)
    page.wait_for_selector("#hand [data-card] >> nth=7")
    page.wait_for_function("() => document.getAnimations().every(animation => animation.playState !== 'running')")
    assert page.evaluate("document.scrollingElement.scrollWidth") <= 390
    boxes = [card.bounding_box() for card in page.locator("#hand [data-card]").all()]
    assert len(boxes) == 8
    for index, box in enumerate(boxes):
        assert box is not None and box["width"] >= 40 and box["height"] >= 56 and box["x"] + box["width"] <= 390
        for other in boxes[index + 1 :]:  # nothing covers a card: every one is its whole tap area
            assert other is not None
            assert (
                other["x"] >= box["x"] + box["width"]
                or other["y"] >= box["y"] + box["height"]
                or other["x"] + other["width"] <= box["x"]
            )
    size = page.evaluate("parseFloat(getComputedStyle(document.querySelector('#log li')).fontSize)")
    assert size >= 12  # readable without zoom
    page.screenshot(path=str(screenshots(tmp_path) / "hand-phone.png"))
    assert problems == []
    page.close()


def hand_order(page: Page) -> list[str]:
    return page.eval_on_selector_all("#hand [data-card]", "cards => cards.map(card => card.dataset.card)")


def test_a_finger_drags_a_card_to_another_place_in_the_hand_and_the_order_is_kept(
    browser: Browser, server: LiveServer
) -> None:
    page, problems = new_page(browser, PHONE)
    open_south_seat(page, server)
    before = hand_order(page)
    start, end = (page.locator("#hand [data-card]").nth(index).bounding_box() for index in (0, 2))
    assert start is not None and end is not None
    # A real touch, through Chromium's input pipeline (touch-action and all): down on the first
    # card, sideways, up over the third.
    touch = page.context.new_cdp_session(page)
    y = start["y"] + start["height"] / 2
    points = [start["x"] + start["width"] / 2 + step * (end["x"] - start["x"]) / 4 for step in range(5)]
    touch.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": points[0], "y": y}]})
    for x in points[1:]:
        touch.send("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [{"x": x, "y": y}]})
    touch.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    moved = [before[1], before[2], before[0], *before[3:]]
    page.wait_for_function(
        "expected => [...document.querySelectorAll('#hand [data-card]')].map(card => card.dataset.card).join(' ') === expected",
        arg=" ".join(moved),
    )
    assert page.locator('#hand [aria-pressed="true"]').count() == 0  # a move, not a tap that selects
    page.reload()
    page.wait_for_selector("#hand [data-card]")
    assert hand_order(page) == moved  # kept in the browser
    assert problems == []
    page.close()


def test_the_table_has_no_serious_accessibility_violation(browser: Browser, server: LiveServer) -> None:
    from axe_playwright_python.sync_playwright import Axe

    page, problems = new_page(browser, DESKTOP)
    open_south_seat(page, server)
    page.wait_for_selector("#legal option", state="attached")
    # The page is still while South is to act; the scan reads a settled page (no transition).
    page.wait_for_function("() => document.getAnimations().every(animation => animation.playState !== 'running')")
    results = Axe().run(page)
    serious = [
        (violation["id"], [(node["target"], node["failureSummary"]) for node in violation["nodes"]][:3])
        for violation in results.response["violations"]
        if violation["impact"] in ("serious", "critical")
    ]
    assert serious == []
    for button in page.locator("button:visible").all():  # every control has a name
        assert (button.get_attribute("aria-label") or button.text_content() or "").strip()
    assert problems == []
    page.close()


def test_a_second_window_takes_the_seat_and_the_first_can_take_it_back(browser: Browser, server: LiveServer) -> None:
    first, problems = new_page(browser, DESKTOP)
    open_south_seat(first, server)
    link = first.url
    second = first.context.new_page()
    second.goto(link)
    second.wait_for_selector("#hand [data-card]")
    first.wait_for_selector("#retake:visible")
    assert "another window" in (first.text_content("#status") or "")
    first.click("#retake")
    first.wait_for_selector("#retake", state="hidden")
    second.wait_for_selector("#retake:visible")
    assert [problem for problem in problems if "WebSocket" not in problem] == []
    first.close()
    second.close()


@pytest.mark.thorough
@pytest.mark.parametrize("device", ["desktop", "phone"])
def test_a_person_plays_a_whole_game_against_three_bots_by_clicks_alone(
    browser: Browser, server: LiveServer, tmp_path: pathlib.Path, device: str
) -> None:
    touch = device == "phone"
    page, problems = new_page(browser, PHONE if touch else DESKTOP)
    open_south_seat(page, server)
    folder = screenshots(tmp_path)
    sheets = play_game(page, touch, folder / f"serving-{device}.png")
    assert sheets == 2 and re.search(
        r"Game over: North-South -?\d+, East-West -?\d+", page.text_content("#sheet-result") or ""
    )
    assert_log_is_the_record(page, server)
    assert page.locator("#log p.score").count() == 2  # each deal's score in the log
    page.screenshot(path=str(folder / f"game-over-{device}.png"))
    close_sheet(page, touch)
    press(page.locator("#more summary"), touch)
    with page.expect_download() as download:
        page.click("#record")
    record = loads(pathlib.Path(download.value.path()).read_text(encoding="utf-8"))
    (table,) = server.app.state.server.tables.values()
    assert record.viewer == 2 and record.players[2] == "Tester" and record.scores is not None
    assert table.finished and list(record.views())[-1] == table.state.view(2)
    old = page.url
    press(page.locator("#rematch"), touch)  # a new table, the same seats, this seat's new link
    page.wait_for_url(lambda url: url != old and "/play/" in url, timeout=WAIT)
    page.wait_for_selector("#hand [data-card]")
    assert len(server.app.state.server.tables) == 2
    assert problems == []
    page.close()


def test_r27_a_spectator_sees_the_public_table_and_the_log(browser: Browser, server: LiveServer) -> None:
    from live import create_table

    created = create_table(server.url, ["greedy", "greedy", "human", "greedy"])
    page, problems = new_page(browser, PHONE)
    page.goto(server.url + created["spectator"]["url"])
    page.wait_for_selector("#log h3")  # the deal's heading (the bots play until South is to act)
    assert page.locator("#hand").count() == 0 and page.locator("#draw").count() == 0
    assert page.locator(".seat").count() == 4  # every seat as card backs, no face (R27)
    assert page.locator(".seat [data-card]").count() == 0
    assert all(not text.startswith("You ") for text in page.locator("#log li").all_text_contents())
    assert page.is_disabled("[data-stock]")
    assert problems == []
    page.close()


def test_a_pile_card_that_may_be_taken_is_lit_and_stays_readable(browser: Browser, server: LiveServer) -> None:
    # Seed 14, East dealing: South plays first and may take the 2♦ of the pile (R13, R14).
    _, links = server.call(
        server.app.state.server.create_table(["greedy", "greedy", "human", "greedy"], seed=14, dealer=1)
    )
    ((_, token),) = links["seats"]
    page, problems = new_page(browser, DESKTOP)
    page.goto(f"{server.url}/play/{token}")
    page.wait_for_selector('[data-pile="0"].lit')
    colours = page.eval_on_selector(
        '[data-pile="0"]', "card => [getComputedStyle(card).backgroundColor, getComputedStyle(card).color]"
    )
    assert colours == ["rgb(255, 255, 255)", "rgb(179, 38, 30)"]  # a white card, its diamond red
    assert page.get_attribute('[data-pile="0"]', "aria-label") == "2 of diamonds, discard pile card 1: take it"
    assert problems == []
    page.close()
