"""Take the screenshots of a whole game on a phone shown on the serving page
(``docs/_static/phone-*.png``): South plays three medium bots at 390×844 by touch, from the
first turn to the score sheet at the game's end.

Run ``python docs/make_screenshots.py`` (it needs the ``[server-test]`` extra and Debian's
``chromium``) after changing the table's page. The tests run it in a light form (the first
shots only, into a temporary folder), so it keeps working: ``tests/server/test_screenshots.py``.
"""

from __future__ import annotations

import asyncio
import socket
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

STATIC = Path(__file__).parent / "_static"
CHROMIUM = "/usr/bin/chromium"
PHONE: dict[str, Any] = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True}
WAIT = 30_000  # milliseconds: every wait for the page is bounded
#: The game: its seed and first dealer (East deals, so South plays first), default rules.
SEED, DEALER = 42, 1

#: The screenshots, in the order a game meets them, and what each shows.
SHOTS: dict[str, str] = {
    "phone-turn.png": "South's first turn: the others' seats, the stock and the pile, the hand and the actions",
    "phone-meld.png": "three cards selected that make a meld: Meld is lit",
    "phone-others.png": "the bots' moves one at a time: a card on its way from a seat to the pile",
    "phone-hint.png": "a hint: what the strongest bot would play, its cards selected, and the log says so",
    "phone-late.png": "late in a deal, many melds down: still one screen, the melds scrolling in place",
    "phone-over.png": "the score sheet at the game's end, the result for South's team, Rematch and New game",
}
#: The shots the light form takes.
LIGHT = 3


def _choose(options: list[str]) -> str:
    """South's choice: the deepest pile card it may take, else a draw (a pass once the stock is
    empty); the longest meld, else the first lay-off, else the last discard offered."""
    takes = [option for option in options if option.startswith("take ")]
    if "draw" in options or "pass" in options:
        return takes[-1] if takes else "draw" if "draw" in options else "pass"
    melds = sorted((option for option in options if option.startswith("meld ")), key=len, reverse=True)
    layoffs = [option for option in options if option.startswith("layoff ")]
    return (melds or layoffs or [option for option in options if option.startswith("discard ")][::-1])[0]


def _tap(locator: Any) -> None:
    """Tap ``locator`` until a click lands on it (three tries): on a busy machine a tap's lift
    can reach the browser late, and the touch is then a long press that clicks nothing."""
    element = locator.element_handle()
    for _ in range(3):
        element.evaluate(
            "e => { e.landed = false; const hit = (event) => { if (e.contains(event.target)) e.landed = true; };"
            " document.addEventListener('click', hit, {capture: true, once: true}); }"
        )
        element.tap()
        for _ in range(500):  # ten seconds
            if element.evaluate("e => e.landed"):
                return
            time.sleep(0.02)
    raise RuntimeError(f"three taps on {locator} clicked nothing")


@contextmanager
def _serving() -> Iterator[tuple[str, Callable[..., Any]]]:
    """A table server on a free port of 127.0.0.1 in a thread: its address, and a function
    that creates a table on it (the hub's ``create_table``, run on the server's event loop)."""
    import uvicorn

    from persian_rummy.server import create_app

    with tempfile.TemporaryDirectory() as folder:
        app = create_app(str(Path(folder) / "games.sqlite3"))
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            port = int(probe.getsockname()[1])
        config = uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning", ws="websockets-sansio")
        server = uvicorn.Server(config)
        loop = asyncio.new_event_loop()
        thread = threading.Thread(target=loop.run_until_complete, args=(server.serve(),), daemon=True)
        thread.start()
        deadline = time.monotonic() + 30
        while not server.started:
            if time.monotonic() > deadline or not thread.is_alive():
                raise RuntimeError("the server did not start")
            time.sleep(0.02)
        try:
            hub = app.state.server

            def create_table(*args: Any, **options: Any) -> Any:
                return asyncio.run_coroutine_threadsafe(hub.create_table(*args, **options), loop).result(60)

            yield f"http://127.0.0.1:{port}", create_table
        finally:
            server.should_exit = True
            thread.join(30)
            if not thread.is_alive():
                loop.close()


def make(folder: Path = STATIC, *, light: bool = False) -> list[Path]:
    """Play the game and save its screenshots into ``folder`` (all of :data:`SHOTS`, or the
    first :data:`LIGHT` when ``light``); returns their paths."""
    from playwright.sync_api import sync_playwright

    folder.mkdir(parents=True, exist_ok=True)
    wanted = list(SHOTS)[: LIGHT if light else len(SHOTS)]
    taken: list[str] = []

    with _serving() as (url, create_table), sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--headless", "--no-sandbox"])
        page = browser.new_context(**PHONE).new_page()
        page.set_default_timeout(WAIT)
        page.add_init_script("localStorage.setItem('persian-rummy-pace', 'instant')")
        _, links = create_table(["greedy", "greedy", "human", "greedy"], seed=SEED, dealer=DEALER)
        page.goto(f"{url}/play/{links['seats'][0][1]}")
        page.wait_for_selector("#hand [data-card]")

        def due(name: str) -> bool:
            return name in wanted and name not in taken

        def shot(name: str, *, still: bool = True) -> None:
            if still:
                page.wait_for_function("() => document.getAnimations().every(a => a.playState !== 'running')")
            page.screenshot(path=str(folder / name))
            taken.append(name)

        def then(selector: str) -> None:
            """Tap ``selector`` and wait for the table to change."""
            seq = page.get_attribute("#table", "data-seq")
            _tap(page.locator(selector))
            page.wait_for_selector(f'#table:not([data-seq="{seq}"]), #sheet[open]')

        def pick(cards: list[str]) -> None:
            for index, card in enumerate(cards):
                _tap(page.locator(f'#hand [data-card="{card}"]').nth(cards[:index].count(card)))

        def pace(name: str) -> None:
            page.eval_on_selector(
                "#pace", "(select, pace) => { select.value = pace; select.dispatchEvent(new Event('change')); }", name
            )

        for _ in range(3000):
            if len(taken) == len(wanted):
                break
            page.wait_for_function(
                "() => document.querySelectorAll('#legal option').length > 0 || document.querySelector('#sheet').open"
            )
            if page.is_visible("#sheet"):
                if page.get_attribute("#table", "data-phase") == "game_over":
                    shot("phone-over.png")
                    break
                _tap(page.locator("#sheet-close"))
                continue
            options = page.eval_on_selector_all("#legal option", "options => options.map(option => option.value)")
            verb, *words = _choose(options).split()
            if due("phone-turn.png"):
                shot("phone-turn.png")
                continue
            if due("phone-late.png") and verb in ("draw", "take", "pass") and page.locator("[data-meld]").count() >= 8:
                shot("phone-late.png")
            if verb in ("draw", "take", "pass"):
                then("[data-stock]" if verb == "draw" else f'[data-pile="{words[0]}"]' if verb == "take" else "#pass")
            elif verb == "meld":
                pick(words)
                if due("phone-meld.png"):
                    shot("phone-meld.png")
                then("#meld")
            elif verb == "layoff":
                pick(words[:1])
                then(f'[data-meld="{words[1]}"]')
            elif due("phone-hint.png") and all(option.startswith("discard ") for option in options):
                # Only discards left: the hint is one, its card selected; South follows it.
                _tap(page.locator("#hint"))
                page.wait_for_function("() => document.getElementById('tip').textContent.startsWith('Hint: ')")
                shot("phone-hint.png")
                then("#discard")
            elif due("phone-others.png") and "phone-meld.png" in taken:
                # The bots' next moves shown slowly; the first card on its way caught half-way.
                pick(words)
                pace("slow")
                _tap(page.locator("#discard"))
                page.wait_for_function("() => document.getAnimations().some(a => a.id === 'travel')")
                page.evaluate(
                    """() => document.getAnimations().filter(a => a.id === 'travel').forEach(a => {
                        a.pause(); a.currentTime = a.effect.getTiming().duration * 0.6; })"""
                )
                shot("phone-others.png", still=False)
                page.evaluate("() => document.getAnimations().filter(a => a.id === 'travel').forEach(a => a.play())")
                pace("instant")
            else:
                pick(words)
                then("#discard")
        browser.close()
    missing = [name for name in wanted if name not in taken]
    if missing:
        raise RuntimeError(f"the game of seed {SEED} did not show {', '.join(missing)}")
    return [folder / name for name in wanted]


if __name__ == "__main__":
    for path in make(Path(sys.argv[1]) if len(sys.argv) > 1 else STATIC):
        print(f"{path} ({path.stat().st_size // 1024} KiB)")
