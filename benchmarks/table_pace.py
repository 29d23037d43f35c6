"""How long a person waits for the others at the table's page: ``persian-rummy serve`` with its
defaults (as a separate process, on the loopback address only) and the seat's page in the
system's headless Chromium at 390x844 by touch, at the default pace (a person who never picked
one, motion not reduced), South a person and the three others the fastest bots.

    python benchmarks/table_pace.py
    python benchmarks/table_pace.py --games 3 --bot random

South plays whole games (the deepest pile card it may take, else a draw; the longest meld, else
the first lay-off, else the last discard offered). For each discard that passes the turn on,
the page measures, on its own clock, the time from the tap on Discard to the moment it offers
South's next turn (its controls awake): the three others' moves, each shown as the page
shows it. A discard that ends a deal (the score sheet comes next) is not counted. Prints one
line: the Python version and cores, the turns measured, the median, 90th percentile and
longest wait in seconds, and the median number of the others' moves between two turns.
Needs the ``[server-test]`` extra and Debian's ``chromium``.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

CHROMIUM = "/usr/bin/chromium"
PHONE: dict[str, Any] = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True}
WAIT = 60_000  # milliseconds: every wait for the page is bounded
ROOT = Path(__file__).resolve().parent.parent

# In the page: the time of each tap on Discard, and of the next moment the page offers
# actions (its list of legal actions filled), with the others' moves shown in between.
_WATCH = """() => {
    window.waits = [];
    let tapped = null;
    document.getElementById('discard').addEventListener('click', () => {
        tapped = { at: performance.now(), log: document.querySelectorAll('#log li[data-action]').length };
    }, true);
    new MutationObserver(() => {
        if (tapped === null || !document.querySelector('#legal option')) return;
        const moves = document.querySelectorAll('#log li[data-action]').length - tapped.log - 1;
        window.waits.push({ ms: performance.now() - tapped.at, moves });
        tapped = null;
    }).observe(document.getElementById('legal'), { childList: true });
    document.getElementById('sheet').addEventListener('toggle', () => { tapped = null; });
}"""


def _choose(options: list[str]) -> str:
    takes = [option for option in options if option.startswith("take ")]
    if "draw" in options or "pass" in options:
        return takes[-1] if takes else "draw" if "draw" in options else "pass"
    melds = sorted((option for option in options if option.startswith("meld ")), key=len, reverse=True)
    layoffs = [option for option in options if option.startswith("layoff ")]
    return (melds or layoffs or [option for option in options if option.startswith("discard ")][::-1])[0]


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _serve(db: Path, port: int) -> subprocess.Popen[bytes]:
    """``persian-rummy serve`` with its defaults on 127.0.0.1:``port``, once it answers."""
    command = [sys.executable, "-m", "persian_rummy", "serve", "--host", "127.0.0.1", "--port", str(port)]
    process = subprocess.Popen(
        [*command, "--db", str(db)],
        env=dict(os.environ, PYTHONPATH=str(ROOT)),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=2):
                return process
        except OSError:
            if process.poll() is not None:
                raise RuntimeError("the server exited") from None
            time.sleep(0.1)
    process.kill()
    raise RuntimeError("the server did not answer within 60 s")


def _press(page: Any, selector: str) -> None:
    page.locator(selector).first.tap()


def _play(page: Any, action: str) -> None:
    verb, *words = action.split()
    if verb == "draw":
        _press(page, "[data-stock]")
    elif verb == "take":
        _press(page, f'[data-pile="{words[0]}"]')
    elif verb == "pass":
        _press(page, "#pass")
    else:
        cards = words if verb == "meld" else words[:1]
        taken: dict[str, int] = {}
        for card in cards:
            page.locator(f'#hand [data-card="{card}"]').nth(taken.get(card, 0)).tap()
            taken[card] = taken.get(card, 0) + 1
        _press(page, {"meld": "#meld", "layoff": f'[data-meld="{words[-1]}"]', "discard": "#discard"}[verb])


def _game(browser: Any, url: str, bot: str) -> list[dict[str, float]]:
    """Play one game of South at a new table; the page's waits for South's turns."""
    request = urllib.request.Request(
        url + "/api/tables",
        json.dumps({"seats": [bot, bot, "human", bot]}).encode(),
        {"Content-Type": "application/json"},
    )
    with urllib.request.urlopen(request, timeout=60) as response:
        created = json.loads(response.read())
    context = browser.new_context(**PHONE)
    context.set_default_timeout(WAIT)
    page = context.new_page()
    page.goto(url + created["seats"][2]["url"])
    page.wait_for_selector("#hand [data-card]")
    page.evaluate(_WATCH)
    for _ in range(3000):
        page.wait_for_function(
            "() => document.querySelectorAll('#legal option').length > 0 || document.getElementById('sheet').open",
            timeout=WAIT,
        )
        if page.is_visible("#sheet"):
            if page.get_attribute("#table", "data-phase") == "game_over":
                waits: list[dict[str, float]] = page.evaluate("window.waits")
                context.close()
                return waits
            page.locator("#sheet-close").tap()
            page.wait_for_function("() => !document.getElementById('sheet').open", timeout=WAIT)
            continue
        options = page.eval_on_selector_all("#legal option", "options => options.map(option => option.value)")
        before = page.get_attribute("#table", "data-seq")
        _play(page, _choose(options))
        page.wait_for_selector(f'#table:not([data-seq="{before}"]), #sheet[open]', timeout=WAIT)
    raise RuntimeError("the game did not end")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=1, help="whole games to play (default 1)")
    parser.add_argument("--bot", default="greedy", help="the three others' bot (default greedy, the easy level)")
    args = parser.parse_args(argv)
    from playwright.sync_api import sync_playwright

    waits: list[dict[str, float]] = []
    with tempfile.TemporaryDirectory() as folder:
        port = _free_port()
        server = _serve(Path(folder) / "games.sqlite3", port)
        try:
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(
                    executable_path=CHROMIUM, args=["--headless", "--no-sandbox", "--disable-gpu"], headless=True
                )
                try:
                    for _ in range(args.games):
                        waits += _game(browser, f"http://127.0.0.1:{port}", args.bot)
                finally:
                    browser.close()
        finally:
            server.terminate()
            server.wait(timeout=30)
    seconds = sorted(wait["ms"] / 1000 for wait in waits)
    print(
        f"Python {platform.python_version()}, {os.cpu_count()} cores: {len(seconds)} turns of South "
        f"({args.games} games against {args.bot}): the others' round shown in median {statistics.median(seconds):.2f} s, "
        f"p90 {seconds[int(0.9 * (len(seconds) - 1))]:.2f} s, longest {seconds[-1]:.2f} s; "
        f"median {statistics.median(wait['moves'] for wait in waits):g} moves of the others a round"
    )


if __name__ == "__main__":
    main()
