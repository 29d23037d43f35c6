"""The table in one hand (issue 40): the seat's page at 390×844 by touch and at 1280×800 by
mouse. The hand, the actions, the status line, the stock and the top pile card stay on screen
at every turn of whole games; every control is enabled by the legal actions alone; a meld's
label is the seat that laid it down (R16); the newest moves are in sight; the others' moves are
shown one at a time, each card travelling from its seat; a hint shows what the strongest bot
would play; Rematch stays at hand once the score sheet is closed. Each test plays the same game
on both screens: the seeds and the bots' seeds are fixed, and the player's choices are
:func:`~browser.choose`'s."""

from __future__ import annotations

import re
from typing import Any

import pytest
from browser import (
    DEVICES,
    close_sheet,
    drive,
    inside,
    legal,
    lines,
    new_page,
    play_turn,
    press,
    reason_shown,
    select,
    seq,
    wait_for_turn,
)
from live import LiveServer
from playwright.sync_api import Browser, Page

from persian_rummy import Rules, legal_actions
from persian_rummy.bots import DEFAULT_LEVEL, make_bot
from persian_rummy.server.tables import Table
from persian_rummy.state import SEAT_NAMES

BOTS = ["greedy", "greedy", "human", "greedy"]
DEFAULT = Rules()
ONE_DEAL = Rules(deals=1)
# Seed 107, East dealing, one deal: eleven melds down by South's turn at action 91, and an
# empty stock at South's turn (R20) later on.
EMPTY_STOCK = (107, 1)


def south(server: LiveServer, seed: int, dealer: int, rules: Rules = DEFAULT) -> str:
    """A new table of South (a person) and three medium bots; South's token."""
    _, links = server.call(server.app.state.server.create_table(BOTS, seed=seed, dealer=dealer, rules=rules))
    ((_, token),) = links["seats"]
    return str(token)


def table_of(server: LiveServer) -> Table:
    (table,) = server.app.state.server.tables.values()
    return table


def open_seat(page: Page, server: LiveServer, token: str) -> None:
    page.goto(f"{server.url}/play/{token}")
    page.wait_for_selector("#hand [data-card]")


def viewport(page: Page) -> dict[str, float]:
    size = page.viewport_size
    assert size is not None
    return {"x": 0, "y": 0, "width": size["width"], "height": size["height"]}


def off_screen(page: Page) -> list[str]:
    """What a player must see at their turn and does not without scrolling: each hand card,
    the four actions, the status line, the stock and the top pile card."""
    page.evaluate("window.scrollTo(0, 0)")
    screen = viewport(page)
    wanted = [f"#hand [data-index='{index}']" for index in range(page.locator("#hand [data-card]").count())]
    wanted += ["#draw", "#meld", "#discard", "#pass", "#status", "[data-stock]"]
    if page.locator("[data-pile]").count():
        wanted.append("[data-pile]:last-child")
    return [selector for selector in wanted if not inside(page.locator(selector).bounding_box(), screen)]


def newest_out_of_sight(page: Page, count: int = 6) -> list[str]:
    """The newest ``count`` moves of the log that are not wholly in sight (in the log's box and
    on the screen)."""
    log = page.locator("#log").bounding_box()
    assert log is not None
    area = {"x": log["x"], "y": log["y"], "width": log["width"], "height": log["height"]}
    items = page.locator("#log li").all()[-count:]
    screen = viewport(page)
    return [
        item.text_content() or ""
        for item in items
        if not (inside(item.bounding_box(), area) and inside(item.bounding_box(), screen))
    ]


def controls_against(page: Page, table: Table) -> list[str]:
    """Every control whose enabled state is not what South's legal actions (the server's)
    say: the stock and Draw, Pass, each pile card, each meld, Meld and Discard."""
    actions = [str(action) for action in legal_actions(table.state.view(2))]
    wrong = []
    if legal(page) != actions:
        wrong.append(f"the page offers {legal(page)}, the rules {actions}")
    expected = {"#draw": "draw" in actions, "[data-stock]": "draw" in actions, "#pass": "pass" in actions}
    for index in range(page.locator("[data-pile]").count()):
        expected[f'[data-pile="{index}"]'] = f"take {index}" in actions
    for index in range(page.locator("[data-meld]").count()):
        expected[f'[data-meld="{index}"]'] = any(
            action.startswith("layoff ") and action.split()[2] == str(index) for action in actions
        )
    for selector, enabled in expected.items():
        if page.is_enabled(selector) != enabled:
            wrong.append(f"{selector} {'disabled' if enabled else 'enabled'} with legal {actions}")
    # Nothing selected: Meld and Discard wait for cards, and never offer what is not legal.
    for selector in ("#meld", "#discard"):
        if page.is_enabled(selector):
            wrong.append(f"{selector} enabled with nothing selected")
    return wrong


def owners_against(page: Page, table: Table) -> list[str]:
    """Every meld label that does not name the seat that laid the meld down (R16)."""
    labels = page.eval_on_selector_all("[data-meld] .owner", "labels => labels.map(label => label.textContent)")
    expected = [f"#{index} {SEAT_NAMES[meld.owner]}" for index, meld in enumerate(table.state.melds)]
    return [] if labels == expected else [f"{labels} for {expected}"]


def small_pile_cards(page: Page) -> list[str]:
    boxes = [card.bounding_box() for card in page.locator("[data-pile]").all()]
    return [str(box) for box in boxes if box is None or box["width"] < 40 or box["height"] < 56]


def serious_violations(page: Page) -> list[Any]:
    from axe_playwright_python.sync_playwright import Axe

    page.wait_for_function("() => document.getAnimations().every(animation => animation.playState !== 'running')")
    results = Axe().run(page)
    return [
        (violation["id"], [(node["target"], node["failureSummary"]) for node in violation["nodes"]][:3])
        for violation in results.response["violations"]
        if violation["impact"] in ("serious", "critical")
    ]


# --- the whole game --------------------------------------------------------------------------

# Games with a lay-off at a meld's low end by another seat than its owner's, a card taken from
# the pile and an empty stock at South's turn (each checked as it comes).
WHOLE_GAMES = {"phone": (107, 1), "desktop": (119, 3)}


@pytest.mark.thorough
@pytest.mark.parametrize("device", ["phone", "desktop"])
def test_a_whole_one_deal_game_in_one_screen_every_control_from_the_legal_actions(
    browser: Browser, server: LiveServer, device: str
) -> None:
    """At every one of South's turns: everything South needs is on screen without scrolling,
    every control's enabled state is the legal actions', every meld names who laid it down, the
    six newest moves are in sight and the pile's cards are as big as the hand's; at the end,
    the result says which team is South's, and Rematch and the lobby stay at hand once the
    score sheet is closed, a gap between them; axe-core finds no serious violation."""
    touch = device == "phone"
    seed, dealer = WHOLE_GAMES[device]
    token = south(server, seed, dealer, ONE_DEAL)
    page, problems = new_page(browser, DEVICES[device])
    open_seat(page, server, token)
    found: dict[str, list[str]] = {
        "off screen": [], "controls": [], "meld owners": [], "log": [], "pile cards": [], "game over": []
    }  # fmt: skip
    seen = {"low-end lay-off": False, "take": False, "empty stock": False}
    for _ in range(400):
        wait_for_turn(page)
        if page.is_visible("#sheet"):
            break
        table = table_of(server)
        turn = f"seq {seq(page)}: "
        found["off screen"] += [turn + item for item in off_screen(page)]
        found["controls"] += [turn + item for item in controls_against(page, table)]
        found["meld owners"] += [turn + item for item in owners_against(page, table)]
        found["log"] += [turn + item for item in newest_out_of_sight(page)]
        found["pile cards"] += [turn + item for item in small_pile_cards(page)]
        seen["low-end lay-off"] |= any(meld.laid_off[0] and meld.seats[0] != meld.owner for meld in table.state.melds)
        seen["empty stock"] |= not table.state.stock
        seen["take"] |= play_turn(page, touch).startswith("take ")
    else:
        raise AssertionError("the game did not end")
    assert all(seen.values()), seen  # the game is one that can show each defect
    assert page.get_attribute("#table", "data-phase") == "game_over"
    result = page.text_content("#sheet-result") or ""
    if not re.search(r"Your team, North-South, (wins|loses to East-West)\.$|: a draw\.$", result):
        found["game over"].append(f"the result does not say which team is South's: {result!r}")
    if not page.is_visible("#sheet #rematch"):
        found["game over"].append("no Rematch in the score sheet")
    close_sheet(page, touch)
    if not (page.is_visible("#rematch") and page.is_visible("#lobby")):
        found["game over"].append("no Rematch or lobby once the score sheet is closed")
    else:
        rematch, lobby = page.locator("#rematch").bounding_box(), page.locator("#lobby").bounding_box()
        assert rematch is not None and lobby is not None
        gap = max(lobby["x"] - rematch["x"] - rematch["width"], lobby["y"] - rematch["y"] - rematch["height"])
        if gap < 8:
            found["game over"].append(f"Rematch and New game {gap:.0f} px apart")
        if not inside(rematch, viewport(page)):
            found["game over"].append("Rematch is off screen")
    found["game over"] += [str(violation) for violation in serious_violations(page)]
    assert not any(found.values()), {key: (len(items), items[:2]) for key, items in found.items() if items}
    assert problems == []
    page.close()


# --- one moment each -----------------------------------------------------------------------


@pytest.mark.parametrize("device", ["phone", "desktop"])
def test_every_control_is_disabled_while_connecting(browser: Browser, server: LiveServer, device: str) -> None:
    token = south(server, 14, 1)
    page, _ = new_page(browser, DEVICES[device])
    page.route_web_socket(re.compile(r"/ws/"), lambda socket: None)  # a connection that never says a word
    page.goto(f"{server.url}/play/{token}")
    page.wait_for_selector("#status")
    assert page.text_content("#status") == "Connecting…"
    for selector in ("#draw", "#meld", "#discard", "#pass", "#hint", "[data-stock]"):
        assert page.is_disabled(selector), selector
    page.close()


@pytest.mark.parametrize("device", ["phone", "desktop"])
def test_a_refusal_says_its_reason_on_screen(browser: Browser, server: LiveServer, device: str) -> None:
    # Late in the one-deal game of seed 107 (eleven melds down), South may meld 3♠ 3♥ 3♣.
    touch = device == "phone"
    token = south(server, *EMPTY_STOCK, ONE_DEAL)
    drive(server, token, lambda frame: frame["seq"] >= 91 and any(o.startswith("meld ") for o in frame["legal"]))
    page, problems = new_page(browser, DEVICES[device])
    open_seat(page, server, token)
    wait_for_turn(page)
    assert page.locator("[data-meld]").count() == 11
    # Three cards that make no meld: Meld stays disabled (issue 50), and the same meld typed
    # under "More" is sent, and refused with the rules' reason, on screen.
    hand = page.eval_on_selector_all("#hand [data-card]", "cards => cards.map(card => card.dataset.card)")
    melds = [sorted(option.split()[1:]) for option in legal(page) if option.startswith("meld ")]
    trio = next(hand[at : at + 3] for at in range(len(hand) - 2) if sorted(hand[at : at + 3]) not in melds)
    select(page, trio, touch)
    assert page.locator('#hand [aria-pressed="true"]').count() == 3 and page.is_disabled("#meld")
    press(page.locator("#more summary"), touch)
    page.fill("#action", "meld " + " ".join(trio))
    press(page.locator("#typed button[type=submit]"), touch)
    reason_shown(page)
    assert inside(page.locator("#status").bounding_box(), viewport(page))  # in sight when it appears
    assert problems == []
    page.close()


@pytest.mark.parametrize("device", ["phone", "desktop"])
def test_the_keyboard_keeps_its_place_and_the_log_is_announced(
    browser: Browser, server: LiveServer, device: str
) -> None:
    page, problems = new_page(browser, DEVICES[device])
    open_seat(page, server, south(server, 14, 1))
    wait_for_turn(page)
    assert page.get_attribute("#log", "aria-live") == "polite"  # the bots' moves are announced
    focused = "document.activeElement === document.body ? 'body' : document.activeElement.id || document.activeElement.dataset.card"
    page.focus("#draw")
    before = seq(page)
    page.keyboard.press("Enter")
    page.wait_for_selector(f'#table:not([data-seq="{before}"])')
    assert page.evaluate(focused) == "Jk"  # the card just drawn, not the page
    page.keyboard.press(" ")  # selects it
    page.keyboard.press("Tab")  # one stop for the whole hand: the next is Discard
    assert page.evaluate(focused) == "discard"
    before = seq(page)
    page.keyboard.press("Enter")
    page.wait_for_selector(f'#table:not([data-seq="{before}"])')
    assert page.evaluate(focused) not in ("body", "discard")
    assert page.evaluate("document.activeElement.closest('#hand') !== null")
    wait_for_turn(page)
    # A pile card that may not be taken is disabled, so out of the tab order too.
    actions = legal(page)
    piles = page.locator("[data-pile]").count()
    untakeable = [index for index in range(piles) if f"take {index}" not in actions]
    assert untakeable, "the game has no pile card South may not take here"
    for index in range(piles):
        assert page.is_enabled(f'[data-pile="{index}"]') == (index not in untakeable)
    assert problems == []
    page.close()


@pytest.mark.parametrize("device", ["phone", "desktop"])
def test_a_selected_must_meld_card_keeps_its_selection_lifted_into_its_own_gap(
    browser: Browser, server: LiveServer, device: str
) -> None:
    # Seed 3, South dealing: at South's first turn the pile holds two cards and more; South
    # takes from the second, holds ten cards (two rows on a phone) and must meld the 10♣ (R14).
    touch = device == "phone"
    page, problems = new_page(browser, DEVICES[device])
    open_seat(page, server, south(server, 3, 2))
    wait_for_turn(page)
    assert page.locator("[data-pile]").count() >= 2 and small_pile_cards(page) == []  # as big as a hand card
    play_turn(page, touch, lambda options: "take 1")
    must = page.locator("#hand .must")
    assert must.get_attribute("data-card") == "Tc"
    press(must, touch)
    last = page.locator("#hand [data-card]").last
    if last.get_attribute("class") and "must" not in (last.get_attribute("class") or ""):
        press(last, touch)  # a card of the last row lifted too
    page.wait_for_function("() => document.getAnimations().every(animation => animation.playState !== 'running')")
    style = must.evaluate("card => { const s = getComputedStyle(card); return [s.borderTopStyle, s.borderTopColor]; }")
    assert style == ["solid", "rgb(21, 101, 192)"]  # the selection's border, not the dashed "must"
    boxes = [card.bounding_box() for card in page.locator("#hand [data-card]").all()]
    rows = {round(card["y"]) for card in boxes if card is not None}
    assert len(boxes) == 10 and (len(rows) > 1 or not touch)  # two rows on the phone, one lifted
    for index, box in enumerate(boxes):  # nothing covers a card, a lifted one included
        for other in boxes[index + 1 :]:
            assert box is not None and other is not None
            apart = (
                other["x"] >= box["x"] + box["width"]
                or other["x"] + other["width"] <= box["x"]
                or other["y"] >= box["y"] + box["height"]
                or other["y"] + other["height"] <= box["y"]
            )
            assert apart, (box, other)
    assert problems == []
    page.close()


@pytest.mark.parametrize("device", ["phone", "desktop"])
def test_the_header_and_the_table_ready_page_fit_the_screen(browser: Browser, server: LiveServer, device: str) -> None:
    page, problems = new_page(browser, DEVICES[device])
    page.goto(server.url + "/")
    page.fill('input[name="name1"]', "Bartholomew")
    page.click("button[type=submit]")
    page.wait_for_selector("#open-seat")
    width = viewport(page)["width"]
    assert page.evaluate("document.scrollingElement.scrollWidth") <= width  # the links wrap
    page.click("#open-seat")
    page.wait_for_selector("#hand [data-card]")
    assert lines(page, ".seat .name") == [1, 1, 1] and lines(page, ".seat .count") == [1, 1, 1]
    assert lines(page, "#scores")[0] <= 2 and lines(page, "h1") == [1]
    # The lobby's default: the default level for the default rules, named by its level.
    assert [text.split(" · ")[-1] for text in page.locator(".seat .count").all_text_contents()] == [DEFAULT_LEVEL] * 3
    assert (page.locator(".seat").first.get_attribute("title") or "").startswith(
        f"West, East-West, {DEFAULT_LEVEL} bot: "
    )
    assert problems == []
    page.close()


@pytest.mark.parametrize("device", ["phone", "desktop"])
def test_an_empty_stock_disables_draw_and_the_stock(browser: Browser, server: LiveServer, device: str) -> None:
    token = south(server, *EMPTY_STOCK, ONE_DEAL)
    drive(server, token, lambda frame: bool(frame["legal"]) and frame["view"]["stock_size"] == 0)
    page, problems = new_page(browser, DEVICES[device])
    open_seat(page, server, token)
    wait_for_turn(page)
    assert "pass" in legal(page) and "draw" not in legal(page)
    assert page.is_disabled("#draw") and page.is_disabled("[data-stock]")
    assert page.text_content("#draw-why") == "stock empty" and page.text_content("#pass-why") == ""
    assert page.is_enabled("#pass") and "lit" in (page.get_attribute("#pass", "class") or "")
    assert controls_against(page, table_of(server)) == []
    assert problems == []
    page.close()


@pytest.mark.parametrize("device", ["phone", "desktop"])
def test_the_six_newest_moves_are_in_sight(browser: Browser, server: LiveServer, device: str) -> None:
    touch = device == "phone"
    token = south(server, *EMPTY_STOCK, ONE_DEAL)
    drive(server, token, lambda frame: frame["seq"] >= 30 and frame["phase"] == "draw" and bool(frame["legal"]))
    page, problems = new_page(browser, DEVICES[device])
    open_seat(page, server, token)
    wait_for_turn(page)
    assert page.locator("#log li").count() >= 30
    assert newest_out_of_sight(page) == []
    for _ in range(3):  # South's turn, then the bots' round: all in sight again
        play_turn(page, touch)
        wait_for_turn(page)
    assert newest_out_of_sight(page) == []
    assert problems == []
    page.close()


@pytest.mark.parametrize("device", ["phone", "desktop"])
def test_the_result_names_the_team_and_rematch_stays_once_the_sheet_is_closed(
    browser: Browser, server: LiveServer, device: str
) -> None:
    touch = device == "phone"
    token = south(server, *EMPTY_STOCK, ONE_DEAL)
    drive(server, token, lambda frame: frame["phase"] == "game_over")
    page, problems = new_page(browser, DEVICES[device])
    page.goto(f"{server.url}/play/{token}")
    page.wait_for_selector("#sheet[open]")
    table = table_of(server)
    ns, ew = table.state.scores
    mine = "wins." if ns > ew else "loses to East-West."
    assert (
        page.text_content("#sheet-result")
        == f"Game over: North-South {ns}, East-West {ew}. Your team, North-South, {mine}"
    )
    assert page.is_visible("#sheet #rematch")
    assert serious_violations(page) == []
    close_sheet(page, touch)
    assert page.is_visible("#rematch") and page.is_visible("#lobby") and page.is_visible("#show-sheet")
    rematch, lobby = page.locator("#rematch").bounding_box(), page.locator("#lobby").bounding_box()
    assert rematch is not None and lobby is not None and inside(rematch, viewport(page))
    assert max(lobby["x"] - rematch["x"] - rematch["width"], lobby["y"] - rematch["y"] - rematch["height"]) >= 8
    assert serious_violations(page) == []
    press(page.locator("#show-sheet"), touch)  # the sheet again, Rematch in it
    assert page.is_visible("#sheet #rematch")
    close_sheet(page, touch)
    old = page.url
    press(page.locator("#rematch"), touch)
    page.wait_for_url(lambda url: url != old and "/play/" in url)
    page.wait_for_selector("#hand [data-card]")
    assert problems == []
    page.close()


@pytest.mark.parametrize("device", ["phone", "desktop"])
def test_the_others_moves_are_shown_one_at_a_time_each_card_travelling_from_its_seat(
    browser: Browser, server: LiveServer, device: str
) -> None:
    touch = device == "phone"
    page, problems = new_page(browser, DEVICES[device], pace="quick", motion=True)
    open_seat(page, server, south(server, 14, 1))
    wait_for_turn(page)
    play_turn(page, touch, lambda options: "draw")
    # What the page shows, in order: each frame as it is drawn (its number, the cards on their
    # way and where from), and each card's landing.
    page.evaluate(
        """() => {
        window.shown = [];
        new MutationObserver(() => {
            const step = { seq: Number(document.getElementById('table').dataset.seq), flying: [] };
            document.getAnimations().filter(animation => animation.id === 'travel').forEach(animation => {
                const element = animation.effect.target;
                const start = animation.effect.getKeyframes()[0].transform;
                step.flying.push({ from: Number(element.dataset.mover), start });
                animation.finished.then(() => window.shown.push({ landed: step.seq }));
            });
            window.shown.push(step);
        }).observe(document.getElementById('table'), { attributes: true, attributeFilter: ['data-seq'] });
    }"""
    )
    play_turn(page, touch, lambda options: next(option for option in options if option.startswith("discard ")))
    wait_for_turn(page)
    shown = page.evaluate("window.shown")
    entries = page.eval_on_selector_all(
        "#log li[data-action]",
        "items => items.map(item => [Number(item.dataset.seq), Number(item.dataset.seat), item.dataset.action])",
    )
    others = [entry for entry in entries if entry[0] > shown[0]["seq"] and entry[1] != 2]
    assert len(others) >= 6  # a round of the three bots
    steps = [step for step in shown if "seq" in step]
    assert [step["seq"] for step in steps] == [shown[0]["seq"]] + [seq_ for seq_, _, _ in others]  # one at a time
    for (number, seat, action), step in zip(others, steps[1:], strict=True):
        assert step["flying"], (number, action)  # a card travels for every move but a pass
        assert {flying["from"] for flying in step["flying"]} == {seat}
        assert all(flying["start"].startswith("translate(") for flying in step["flying"])
        # The next move is shown only once this one's cards have landed.
        at = shown.index(step)
        landed = [item for item in shown[at + 1 :] if "landed" in item]
        following = next((item for item in shown[at + 1 :] if "seq" in item), None)
        ends = [shown.index(item) for item in landed if item["landed"] == number]
        assert len(ends) == len(step["flying"]), "\n".join(map(str, shown))
        assert following is None or max(ends) < shown.index(following)
    assert problems == []
    page.close()


@pytest.mark.parametrize("device", ["phone", "desktop"])
def test_a_hint_shows_what_the_strongest_bot_would_play_and_is_logged(
    browser: Browser, server: LiveServer, device: str
) -> None:
    touch = device == "phone"
    page, problems = new_page(browser, DEVICES[device])
    open_seat(page, server, south(server, 14, 1))
    wait_for_turn(page)
    play_turn(page, touch, lambda options: "draw")
    expected = str(make_bot("neural")(table_of(server).state.view(2)))
    assert expected.startswith("discard ")
    press(page.locator("#hint"), touch)
    page.wait_for_selector("#log li.hint")
    page.wait_for_function("() => document.getElementById('tip').textContent.startsWith('Hint: ')")
    card = expected.split()[1]
    assert page.locator('#hand [aria-pressed="true"]').evaluate_all(
        "cards => cards.map(card => card.dataset.card)"
    ) == [card]
    assert "lit" in (page.get_attribute("#discard", "class") or "")
    assert (page.text_content("#log li.hint") or "").startswith("You ask for a hint: discard ")
    press(page.locator("#hint"), touch)  # asked again: the same answer, logged once
    page.wait_for_function("() => document.getElementById('tip').textContent.startsWith('Hint: ')")
    assert page.locator("#log li.hint").count() == 1
    before = seq(page)
    press(page.locator("#discard"), touch)  # the hint's card, selected: played, the hint is gone
    page.wait_for_selector(f'#table:not([data-seq="{before}"])')
    assert not (page.text_content("#tip") or "").startswith("Hint: ")
    assert problems == []
    page.close()


@pytest.mark.parametrize("device", ["phone", "desktop"])
def test_no_hint_at_a_table_the_learned_player_does_not_play(browser: Browser, server: LiveServer, device: str) -> None:
    page, problems = new_page(browser, DEVICES[device])
    open_seat(page, server, south(server, 14, 1, ONE_DEAL))
    wait_for_turn(page)
    assert page.locator("#hint").count() == 0 and "which does not play these rules" in (
        page.get_attribute("#table", "data-hints") or ""
    )
    assert problems == []
    page.close()
