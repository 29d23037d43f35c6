"""A real browser for the server's tests: the system's headless Chromium driven by Playwright
(no browser is downloaded; loopback only), the page's hooks as a person's taps, clicks and keys
land on them (:func:`perform`), and a seat played over the WebSocket as a program would
(:func:`drive`) to bring a table quickly to the moment a test looks at.

Every wait is bounded (:data:`WAIT`); the others' moves are shown at the pace a test sets, and
``instant`` unless a test looks at them travel."""

from __future__ import annotations

import json
import os
import re
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from live import RECEIVE_LIMIT, LiveServer
from playwright.sync_api import Browser, Locator, Page, sync_playwright
from playwright.sync_api import Error as PlaywrightError

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
DESKTOP: dict[str, Any] = {"viewport": {"width": 1280, "height": 800}}
PHONE: dict[str, Any] = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True}
#: The two screens every page test runs on: a phone by touch, a desktop by mouse.
DEVICES: dict[str, dict[str, Any]] = {"phone": PHONE, "desktop": DESKTOP}
WAIT = 60_000  # milliseconds: every wait for the page is bounded, generously for a busy machine


def need_chromium() -> None:
    """Skip the test without the system's Chromium (fail it where the extras are required)."""
    if not os.path.exists(CHROMIUM):
        if os.environ.get("PERSIAN_RUMMY_REQUIRE_EXTRAS") == "1":
            pytest.fail(f"the browser tests need Debian's chromium at {CHROMIUM} (apt-get install chromium)")
        pytest.skip(f"no chromium at {CHROMIUM}")


@contextmanager
def chromium() -> Iterator[Browser]:
    """The system's Chromium, headless (:func:`need_chromium`)."""
    need_chromium()
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        try:
            yield browser
        finally:
            browser.close()


def new_page(
    browser: Browser, device: dict[str, Any], *, pace: str | None = "instant", motion: bool = False
) -> tuple[Page, list[str]]:
    """A page of its own context, the others' moves shown at ``pace`` (the page's default
    pace, as for a person who never picked one, if ``None``; with motion only if ``motion``),
    and the console errors, page errors and failed requests it meets."""
    context = browser.new_context(
        **device, accept_downloads=True, reduced_motion="no-preference" if motion else "reduce"
    )
    context.set_default_timeout(WAIT)
    if pace is not None:
        context.add_init_script(f"localStorage.setItem('persian-rummy-pace', {json.dumps(pace)})")
    page = context.new_page()
    problems: list[str] = []
    page.on("console", lambda message: problems.append(message.text) if message.type == "error" else None)
    page.on("pageerror", lambda error: problems.append(str(error)))
    page.on("response", lambda response: problems.append(response.url) if response.status >= 400 else None)
    return page, problems


def legal(page: Page) -> list[str]:
    """The legal actions of the frame the page shows."""
    return page.eval_on_selector_all("#legal option", "options => options.map(option => option.value)")


def seq(page: Page) -> str:
    return page.get_attribute("#table", "data-seq") or ""


#: How long a tap's click may take to arrive, in seconds, before the tap is taken as lost.
TAP_LANDS = 10.0
#: Taps tried before a press is taken as refused by the page.
TAP_TRIES = 3
# Marks a click on the element (or inside it) in a flag the test reads back: the capture
# listener on the document sees it before any handler of the page's can stop it.
_ARM_TAP = """element => {
  element.__tapLanded = false;
  const hit = (event) => {
    if (element.contains(event.target)) { element.__tapLanded = true; document.removeEventListener("click", hit, true); }
  };
  document.addEventListener("click", hit, true);
}"""


def press(locator: Locator, touch: bool) -> None:
    """Press ``locator`` as a person does: by a tap on a touch screen, else by a click.

    A tap is a touch down and up that the browser turns into a click; on a busy machine the
    lift can reach it late, and a touch held that long is a long press, which clicks nothing
    (a person then taps again). So a tap is checked: the press taps again, up to
    :data:`TAP_TRIES` times, until a click lands on the element (polled from here, so a test
    that has stopped the page's clock waits the same; a press that leaves the page has landed)."""
    if not touch:
        locator.click()
        return
    element = locator.element_handle()
    for _ in range(TAP_TRIES):
        element.evaluate(_ARM_TAP)
        element.tap()
        deadline = time.monotonic() + TAP_LANDS
        while time.monotonic() < deadline:
            try:
                if element.evaluate("element => element.__tapLanded"):
                    return
            except PlaywrightError as error:  # the click followed a link or sent a form
                if "destroyed" in error.message:
                    return
                raise
            time.sleep(0.02)
    raise AssertionError(f"{TAP_TRIES} taps on {locator} clicked nothing")


def close_sheet(page: Page, touch: bool) -> None:
    """Close the score sheet and wait, bounded, for the page's answer to its ``close`` event
    (a task of its own, after the click: the game's end moves to the header, the sheet's
    button shows), so that what follows sees the page as a person does."""
    press(page.locator("#sheet-close"), touch)
    page.wait_for_function(
        "() => !document.getElementById('sheet').open && !document.getElementById('show-sheet').hidden",
        timeout=WAIT,
    )


def select(page: Page, cards: list[str], touch: bool) -> None:
    """Select ``cards`` of the own hand (each copy of a card by its own element)."""
    taken: dict[str, int] = {}
    for card in cards:
        press(page.locator(f'#hand [data-card="{card}"]').nth(taken.get(card, 0)), touch)
        taken[card] = taken.get(card, 0) + 1


def choose(options: list[str]) -> str:
    """The action a test's player picks among ``options``: the deepest pile card it may take,
    else a draw (a pass once the stock is empty); the longest meld, else the first lay-off,
    else the last discard offered."""
    takes = [option for option in options if option.startswith("take ")]
    if "draw" in options or "pass" in options:
        return takes[-1] if takes else "draw" if "draw" in options else "pass"
    melds = sorted((option for option in options if option.startswith("meld ")), key=len, reverse=True)
    layoffs = [option for option in options if option.startswith("layoff ")]
    if melds:
        return melds[0]
    if layoffs:
        return layoffs[0]
    return [option for option in options if option.startswith("discard ")][-1]


def perform(page: Page, action: str, touch: bool) -> None:
    """Play ``action`` as a person does: the stock, a pile card, cards selected then Meld, a
    card then a lit meld, a card then Discard, or Pass."""
    verb, *words = action.split()
    if verb == "draw":
        press(page.locator("[data-stock]"), touch)
    elif verb == "take":
        press(page.locator(f'[data-pile="{words[0]}"]'), touch)
    elif verb == "meld":
        select(page, words, touch)
        assert "lit" in (page.get_attribute("#meld", "class") or "")  # shown before it is tried
        press(page.locator("#meld"), touch)
    elif verb == "layoff":
        select(page, [words[0]], touch)
        assert "lit" in (page.get_attribute(f'[data-meld="{words[1]}"]', "class") or "")
        press(page.locator(f'[data-meld="{words[1]}"]'), touch)
    elif verb == "discard":
        select(page, words, touch)
        press(page.locator("#discard"), touch)
    else:
        press(page.locator("#pass"), touch)


def wait_for_turn(page: Page) -> None:
    """Wait until the page offers actions, or shows a score sheet."""
    page.wait_for_function(
        "() => document.querySelectorAll('#legal option').length > 0 || document.querySelector('#sheet').open",
        timeout=WAIT,
    )


def play_turn(page: Page, touch: bool, choice: Callable[[list[str]], str] = choose) -> str:
    """Play one action of the seat by the page and wait for its frame; returns it."""
    action = choice(legal(page))
    before = seq(page)
    perform(page, action, touch)
    page.wait_for_selector(f'#table:not([data-seq="{before}"]), #sheet[open]', timeout=WAIT)
    return action


def drive(
    server: LiveServer, token: str, until: Callable[[dict[str, Any]], bool], choice: Callable[[list[str]], str] = choose
) -> dict[str, Any]:
    """Play the seat ``token`` opens over its WebSocket, as a program would, with ``choice``,
    until a state frame satisfies ``until``; returns that frame (the connection is then closed,
    so a page can take the seat)."""
    from websockets.sync.client import connect

    sent = 0
    with connect(server.ws + token, open_timeout=20) as socket:
        while True:
            frame = json.loads(socket.recv(timeout=RECEIVE_LIMIT))
            if frame["type"] == "error":
                raise AssertionError(f"the server refused the driver: {frame}")
            if frame["type"] != "state":
                continue
            if until(frame):
                return dict(frame)
            if frame["phase"] == "game_over":
                raise AssertionError("the game ended before the moment the test waits for")
            if frame["legal"]:
                sent += 1
                socket.send(json.dumps({"type": "action", "action": choice(frame["legal"]), "id": sent}))


def inside(box: dict[str, float] | None, area: dict[str, float]) -> bool:
    """Whether a bounding box lies wholly inside ``area`` (a box: x, y, width, height)."""
    return (
        box is not None
        and box["x"] >= area["x"] - 0.5
        and box["y"] >= area["y"] - 0.5
        and box["x"] + box["width"] <= area["x"] + area["width"] + 0.5
        and box["y"] + box["height"] <= area["y"] + area["height"] + 0.5
    )


def lines(page: Page, selector: str) -> list[int]:
    """How many lines of text each element matching ``selector`` takes."""
    return page.eval_on_selector_all(
        selector,
        """elements => elements.map(element => {
            // Each line's boxes overlap it vertically; a box below them all starts a new line.
            const range = document.createRange();
            range.selectNodeContents(element);
            const boxes = [...range.getClientRects()].filter(box => box.width > 0).sort((a, b) => a.top - b.top);
            let count = 0, bottom = -Infinity;
            boxes.forEach(box => {
                if (box.top >= bottom - 1) { count += 1; bottom = box.bottom; } else bottom = Math.max(bottom, box.bottom);
            });
            return count;
        })""",
    )


def reason_shown(page: Page) -> str:
    """The refusal in the status line, once it says a rule's reason."""
    page.wait_for_selector("#status.error")
    text = page.text_content("#status") or ""
    assert re.match(r"R\d+: ", text), text
    return text
