"""A real browser at the table: the system's headless Chromium driven by Playwright (no browser
is downloaded) plays South against three bots by clicking and from the keyboard, through the
lobby form, the score sheets and the record download; a screenshot of the table is saved
(to ``PERSIAN_RUMMY_SCREENSHOTS`` if set, else the test's temporary directory)."""

from __future__ import annotations

import os
import pathlib
import re
from collections.abc import Iterator
from typing import Any

import pytest
from live import LiveServer
from playwright.sync_api import Browser, Page, sync_playwright

from persian_rummy.record import loads
from persian_rummy.svg import cards_in

CHROMIUM = "/usr/bin/chromium"
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
SOUTH = 'g.hand[data-seat="2"] g.card[data-card]'


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    if not os.path.exists(CHROMIUM):
        if os.environ.get("PERSIAN_RUMMY_REQUIRE_EXTRAS") == "1":
            pytest.fail(f"the browser tests need Debian's chromium at {CHROMIUM} (apt-get install chromium)")
        pytest.skip(f"no chromium at {CHROMIUM}")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        yield browser
        browser.close()


@pytest.fixture
def server(tmp_path: Any) -> Iterator[LiveServer]:
    with LiveServer(str(tmp_path / "games.sqlite3")) as server:
        yield server


def screenshots(tmp_path: pathlib.Path) -> pathlib.Path:
    folder = pathlib.Path(os.environ.get("PERSIAN_RUMMY_SCREENSHOTS", tmp_path))
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def open_south_seat(page: Page, server: LiveServer) -> None:
    """Create a table in the lobby form (South a person, three greedy bots) and follow South's link."""
    page.goto(server.url + "/")
    page.select_option('select[name="seat0"]', "greedy")
    page.select_option('select[name="seat2"]', "human")
    page.fill('input[name="name2"]', "Tester")
    page.click("button[type=submit]")
    page.click('.links a[href^="/play/"]')
    page.wait_for_selector("#board svg")


def legal(page: Page) -> list[str]:
    return page.eval_on_selector_all("#legal option", "options => options.map(option => option.value)")


def seq(page: Page) -> str:
    return page.get_attribute("#board", "data-seq") or ""


def assert_board_is_the_servers_picture(page: Page, server: LiveServer) -> None:
    """While South is to act (so the table waits), the page shows the cards of South's picture
    on the server, in order: the page rebuilt it from the pieces its frames sent."""
    (table,) = server.app.state.server.tables.values()
    expected = "".join(table.frame(2)["picture"])
    shown = page.eval_on_selector_all("#board [data-card]", "cards => cards.map(card => card.dataset.card)")
    assert shown == cards_in(expected) and page.get_attribute("#board", "data-seq") == str(table.seq)


def hand_card(page: Page, card: str, nth: int = 0) -> Any:
    return page.locator(f"#board {SOUTH.replace('[data-card]', f'[data-card={card!r}]')}".replace("'", '"')).nth(nth)


def click_edge(locator: Any) -> None:
    """Click a card's left edge: the part of an overlapped card that shows (a person clicks there too)."""
    box = locator.bounding_box()
    locator.click(position={"x": min(5.0, box["width"] / 3), "y": box["height"] / 2})


def play_turn_step(page: Page, options: list[str], keyboard: bool) -> None:
    """One action of South, chosen from the offered actions and done by clicking (or keys)."""
    if "draw" in options:
        if keyboard:  # Tab through the page to the stock, then Enter
            for _ in range(80):
                page.keyboard.press("Tab")
                if page.evaluate("document.activeElement.classList.contains('stock')"):
                    break
            else:
                raise AssertionError("the stock cannot be reached with Tab")
            page.keyboard.press("Enter")
        else:
            page.click("#board g.stock.clickable")
        return
    melds = sorted((option for option in options if option.startswith("meld ")), key=len, reverse=True)
    layoffs = [option for option in options if option.startswith("layoff ")]
    takes = [option for option in options if option.startswith("take ")]
    if melds:
        cards = melds[0].split()[1:]
        for card in sorted(set(cards)):
            for nth in range(cards.count(card)):
                click_edge(hand_card(page, card, nth))
        page.click("#meld")
    elif layoffs:
        _, card, meld = layoffs[0].split()
        click_edge(hand_card(page, card))
        page.click(f'#board g.meld[data-meld="{meld}"] text')
    elif takes:
        index = int(takes[-1].split()[1])
        click_edge(page.locator("#board g.discard-pile g.card").nth(index))
    elif "pass" in options:
        page.click("#pass")
    else:
        card = [option for option in options if option.startswith("discard ")][-1].split()[1]
        if keyboard:  # select with the keyboard's Space, then the Discard button
            hand_card(page, card).focus()
            page.keyboard.press(" ")
            page.click("#discard")
        else:
            hand_card(page, card).dblclick(position={"x": 5, "y": 30})


def test_a_person_takes_a_turn_in_the_browser(browser: Browser, server: LiveServer, tmp_path: pathlib.Path) -> None:
    page = browser.new_page(viewport={"width": 1000, "height": 900})
    open_south_seat(page, server)
    page.wait_for_selector("#legal option", state="attached")
    assert legal(page)[0] == "draw" and page.is_enabled("#draw") and page.is_disabled("#meld")
    before = seq(page)
    play_turn_step(page, legal(page), keyboard=True)
    page.wait_for_selector(f'#board:not([data-seq="{before}"])')
    assert page.locator(f"#board {SOUTH}").count() == 8
    assert all(option.startswith(("discard", "meld", "layoff")) for option in legal(page))
    assert_board_is_the_servers_picture(page, server)
    page.fill("#action", "draw")  # a refused action: the server says why, the page carries on
    page.press("#action", "Enter")
    page.wait_for_selector("#status.error")
    assert "R" in page.text_content("#status")
    page.set_viewport_size({"width": 390, "height": 844})  # a phone
    assert page.evaluate("document.scrollingElement.scrollWidth") <= 390
    assert page.locator("#board svg").bounding_box()["width"] <= 390
    page.screenshot(path=str(screenshots(tmp_path) / "table-phone.png"), full_page=True)
    page.close()


def test_the_pages_log_no_console_error_and_fetch_nothing_missing(browser: Browser, server: LiveServer) -> None:
    page = browser.new_page()
    problems: list[str] = []
    page.on("console", lambda message: problems.append(message.text) if message.type == "error" else None)
    page.on("response", lambda response: problems.append(response.url) if response.status >= 400 else None)
    open_south_seat(page, server)
    page.wait_for_selector("#legal option", state="attached")
    page.wait_for_load_state("networkidle")
    assert problems == []
    page.close()


@pytest.mark.thorough
def test_a_person_plays_a_whole_game_against_three_bots_in_the_browser(
    browser: Browser, server: LiveServer, tmp_path: pathlib.Path
) -> None:
    page = browser.new_page(viewport={"width": 1000, "height": 1000}, accept_downloads=True)
    open_south_seat(page, server)
    done: list[str] = []
    sheets = 0
    shot = False
    for _ in range(3000):
        if page.is_visible("#sheet"):
            sheets += 1
            assert page.locator("#sheet-table tr").count() == 4  # header, two teams, totals
            if page.get_attribute("#board", "data-phase") == "game_over":
                break
            page.click("#sheet-close")
            continue
        options = legal(page)
        if not options:
            page.wait_for_timeout(20)
            continue
        if not shot and any(option.startswith(("meld", "layoff")) for option in options) and len(done) > 10:
            page.screenshot(path=str(screenshots(tmp_path) / "table.png"), full_page=True)
            shot = True
        assert_board_is_the_servers_picture(page, server)
        before = seq(page)
        play_turn_step(page, options, keyboard=len(done) % 7 == 0)
        page.wait_for_selector(f'#board:not([data-seq="{before}"]), #sheet[open]', timeout=20_000)
        done.append(options[0])
    else:
        raise AssertionError("the game did not end")
    assert sheets == 2 and re.search(
        r"Game over: North-South -?\d+, East-West -?\d+", page.text_content("#sheet-result") or ""
    )
    page.screenshot(path=str(screenshots(tmp_path) / "game-over.png"), full_page=True)
    if not shot:
        page.screenshot(path=str(screenshots(tmp_path) / "table.png"), full_page=True)
    page.click("#sheet-close")
    with page.expect_download() as download:
        page.click("#record")
    record = loads(pathlib.Path(download.value.path()).read_text(encoding="utf-8"))
    assert record.viewer == 2 and record.players[2] == "Tester" and record.scores is not None
    (table,) = server.app.state.server.tables.values()
    assert table.finished and list(record.views())[-1] == table.state.view(2)
    assert len(done) >= 20
    page.close()
