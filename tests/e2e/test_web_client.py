"""The web client in headless Chromium against the real stack: a person plays every game to its end with clicks on
its cards, at desktop width and at phone width (390 px), sees each table as that game's table (hands as named cards,
Pocket Madness's melds under their owners, Rites' artifacts by name, a log in words), opens its replay by moves,
and the lobby, a table and a replay pass axe-core's checks; a spectator's page holds nothing a seat hides.
Screenshots go to var/screenshots (MYTHOS_SCREENSHOTS=docs/screenshots refreshes the README's)."""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

import pytest
import requests

from shared.games import GAMES as CATALOGUE
from tests.support.browser import chrome, click, console_errors, open_table, page_state, play_to_end, screenshot, wait_for

pytestmark = pytest.mark.e2e

SHOTS = Path(os.environ.get("MYTHOS_SCREENSHOTS", "var/screenshots"))
# Players and a seed per game, chosen for short games (the clicks are seeded too: the same game each run).
GAMES = {"pocket-madness": (2, "01"), "arkham-ritual": (3, "01"), "rise-of-cthulhu": (2, "01"), "great-old-one": (2, "01"),
         "rites-of-cthulhu": (2, "01")}
WIDTHS = {"desktop": 1280, "phone": 390}
AXE_VERSION = "4.10.2"  # axe-core, pinned: installed from npm into var/ the first time
RAW = re.compile(r"[{}\[\]\"]|\b\w+_\w+\b|\b\d+(?:, \d+){2,}\b")  # JSON, snake_case keys, lists of ids


@pytest.fixture(scope="module")
def browser():
    driver = chrome()
    yield driver
    driver.quit()


@pytest.fixture(scope="module")
def axe():
    """axe-core's source, pinned, from var/ (npm installs it there once)."""
    where = Path("var/axe")
    script = where / "node_modules" / "axe-core" / "axe.min.js"
    if not script.exists():
        subprocess.run(["npm", "install", "--prefix", str(where), "--no-audit", "--no-fund", "--silent", f"axe-core@{AXE_VERSION}"],
                       check=True, timeout=120)
    return script.read_text()


def serious_violations(driver, axe_source: str) -> list[str]:
    driver.execute_script(axe_source)
    found = driver.execute_async_script("const done = arguments[arguments.length - 1];"
                                        "axe.run(document).then(r => done(r.violations)).catch(e => done([{id: String(e), impact: 'critical', nodes: []}]))")
    return [f"{v['id']} ({v['impact']}): {[n.get('target') for n in v['nodes'][:3]]}" for v in found if v["impact"] in ("serious", "critical")]


def names(game: str) -> dict:
    return CATALOGUE[game].card_data


def new_table(stack, browser, game: str) -> tuple[str, str]:
    """A table of ``game`` from a seed, seat 0 this browser's, the others random AI seats; returns id and token."""
    players, seed = GAMES[game]
    seats = [{"name": "Ada"}] + [{"name": f"Bot {n}", "ai": "random"} for n in range(1, players)]
    created = requests.post(f"{stack.url}/v1/games", json={"game": game, "seats": seats, "seed": seed * 32}, timeout=10).json()
    token = created["seats"][0]["token"]
    browser.get(f"{stack.url}/#/claim/{created['id']}/0/{token}")
    wait_for(lambda: (page_state(browser) or {}).get("version"), what="the table's first state")
    return created["id"], token


def settled_view(stack, browser, game_id: str, token: str) -> dict:
    """The seat's state once the page shows the same version (the AI may move in between: read again)."""
    def same():
        state = requests.get(f"{stack.url}/v1/games/{game_id}/state", headers={"Authorization": f"Bearer {token}"}, timeout=10).json()
        return state if page_state(browser)["version"] == state["version"] else None
    return wait_for(same, timeout_s=30, what="the page at the seat's version")


def hand_names(game: str, view: dict) -> list[str]:
    """The names of the cards the seat holds, from its view and the catalogue's card data."""
    data = names(game)
    if game == "pocket-madness":
        by = {loc["number"]: loc["name"] for loc in data["locations"]}
        return sorted({by[n] for n in view.get("hand", [])})
    if game == "rise-of-cthulhu":
        everything = {k: v for group in ("cultists", "monsters", "artifacts") for k, v in data[group].items()}
        return sorted(c.get("name") or f"{c['colour'].capitalize()} {c['number']}" for c in (everything[i] for i in view.get("hand", [])))
    if game == "great-old-one":
        return sorted(data["cards"][i]["name"] for i in view.get("hand", []))
    if game == "rites-of-cthulhu":
        hand = view["table"]["hands"].get("0")
        return sorted(data["entities"][i]["name"] for i in hand) if isinstance(hand, list) else []
    return []


def check_table(stack, browser, game: str, game_id: str, token: str, phone: bool) -> None:
    """What a person sees is the game's table: named cards, melds and artifacts where they belong, words in the log."""
    state = settled_view(stack, browser, game_id, token)
    view = state["view"]
    cards = browser.execute_script("return [...document.querySelectorAll('#hand .card')].map(c => [c.getAttribute('aria-label') || '', c.querySelector('.card-name') ? c.querySelector('.card-name').textContent : ''])")
    for label, name in cards:
        assert name and label.startswith(name), (label, name)  # every card's accessible name carries its name
    if game == "arkham-ritual":
        assert not cards or "face down" in cards[0][0] or cards[0][1] != "Your card", cards
    elif state["status"] == "active":
        assert sorted(name for _, name in cards) == hand_names(game, view)
    if game == "pocket-madness":  # each seat's melds under that seat, runs as runs
        for seat, melds in enumerate(view["melds"]):
            shown = browser.execute_script(f"return [...document.querySelectorAll('.seat-panel[data-seat=\"{seat}\"] [data-meld]')].map(m => m.classList.contains('run'))")
            assert shown == [m["kind"] == "run" for m in melds], (seat, shown, melds)
    if game == "rites-of-cthulhu":  # artifacts won and thrown out by their names
        artifacts = {a["id"]: a["name"] for a in names(game)["artifacts"]}
        for seat, won in view["captured"].items():
            shown = browser.execute_script(f"return [...document.querySelectorAll('.seat-panel[data-seat=\"{seat}\"] .captured .card-name')].map(n => n.textContent)")
            assert shown == [artifacts[a] for a in won], (seat, shown, won)
        thrown = browser.execute_script("return [...document.querySelectorAll('.thrown-out .card-name')].map(n => n.textContent)")
        assert thrown == [artifacts[a] for a in view["thrown_out"]]
    log = browser.find_element("id", "log").text
    assert log and not RAW.search(log), RAW.search(log)
    if phone:
        width, inner = browser.execute_script("return [document.scrollingElement.scrollWidth, innerWidth]")
        assert width <= inner, f"the page scrolls sideways at 390 px: {width} > {inner}"
        if state["status"] == "active":
            top = browser.execute_script("return document.getElementById('hand').getBoundingClientRect().top")
            assert top < browser.execute_script("return innerHeight"), "the hand is off screen"


def check_replay(stack, browser, game: str, game_id: str, axe: str) -> None:
    """The replay of a finished game: verified, its moves in words, every hand, a step and a jump by moves."""
    browser.find_element("id", "replay-link").click()
    verdict = wait_for(lambda: browser.find_element("id", "verdict").text, what="the audit verdict")
    assert verdict == "VERIFIED"
    assert [li.get_attribute("class") for li in browser.find_elements("css selector", "#audit li")] == ["ok", "ok", "ok"]
    export = browser.find_element("id", "export-link").get_attribute("href")
    assert requests.get(export, timeout=10).json()["seed"]
    moves = browser.find_element("id", "moves").text
    assert moves and not RAW.search(moves), RAW.search(moves)
    board = lambda: browser.find_element("id", "replay-board").get_attribute("data-version")  # noqa: E731
    head = int(wait_for(board, what="the last move"))
    if game in ("pocket-madness", "great-old-one", "rites-of-cthulhu"):  # every hand, once it is over
        assert len(browser.find_elements("css selector", ".seat-panel .revealed-hand")) == GAMES[game][0]
    browser.find_element("id", "first").click()
    wait_for(lambda: board() == "1", what="the first move")
    browser.find_element("id", "next").click()
    second = int(wait_for(lambda: board() != "1" and board(), what="the next move"))
    assert 1 < second < head
    listed = browser.find_elements("css selector", "#moves button.move")
    jump = listed[len(listed) // 2].get_attribute("data-version")
    browser.execute_script("arguments[0].scrollIntoView({block: 'center'})", listed[len(listed) // 2])
    listed[len(listed) // 2].click()
    wait_for(lambda: board() == jump, what="a jump to a move")
    assert browser.find_element("css selector", "#moves li.current button").get_attribute("data-version") == jump
    if game == "rites-of-cthulhu":
        screenshot(browser, SHOTS / "replay.png")
        assert not serious_violations(browser, axe)


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("game", GAMES)
def test_a_person_plays_every_game_to_its_end_with_clicks_on_cards_and_replays_it(stack, browser, axe, game, width):
    browser.set_window_size(WIDTHS[width], 900)
    phone = width == "phone"
    game_id, token = new_table(stack, browser, game)
    clicks = play_to_end(browser, seed=len(game), stop_after=1 if game == "arkham-ritual" else 6)  # mid-game
    check_table(stack, browser, game, game_id, token, phone)
    screenshot(browser, SHOTS / f"{game}-{width}-mid.png")
    more = play_to_end(browser, seed=len(game) + 1)
    assert clicks["card"] + more["card"] > 0, "moves were made by clicks on cards"
    assert browser.find_element("id", "status").text.startswith("Game over")
    winners = requests.get(f"{stack.url}/v1/games/{game_id}", timeout=10).json()["outcome"]["winners"]
    result = browser.find_element("id", "result").text
    assert "Winner" in result and all(("Ada" if w == 0 else f"Bot {w}") in result for w in winners)
    assert not browser.find_elements("id", "resign") and not browser.find_elements("id", "abort")
    check_table(stack, browser, game, game_id, token, phone)
    browser.execute_script("document.getElementById('result').scrollIntoView()")
    screenshot(browser, SHOTS / f"{game}-{width}-end.png")
    assert not [e for e in console_errors(browser) if "/commands" not in e]
    if not phone:
        check_replay(stack, browser, game, game_id, axe)


def test_the_lobby_and_a_table_pass_axe_core(stack, browser, axe):
    browser.set_window_size(WIDTHS["desktop"], 900)
    browser.get(stack.url + "/#/")
    wait_for(lambda: browser.find_elements("id", "create"), what="the lobby")
    assert [o.get_attribute("value") for o in browser.find_elements("css selector", "#seat-kind-1 option")][:4] == \
        [f"ai:{level}" for level in ("random", "easy", "medium", "hard")]  # the catalogue's AI levels
    assert browser.find_element("id", "name").location["y"] < browser.find_element("id", "make-player").location["y"]
    screenshot(browser, SHOTS / "lobby.png")
    assert not serious_violations(browser, axe)
    new_table(stack, browser, "pocket-madness")
    wait_for(lambda: browser.find_elements("css selector", "#hand .card"), what="the hand")
    assert not serious_violations(browser, axe)


def test_resigning_asks_first_and_then_says_so(stack, browser):
    browser.set_window_size(WIDTHS["desktop"], 900)
    game_id, _ = new_table(stack, browser, "great-old-one")
    assert browser.find_elements("id", "abort")  # before the first move the table may be called off
    play_to_end(browser, seed=1, stop_after=2, cards=False)  # the plain buttons play too
    wait_for(lambda: not browser.find_elements("id", "abort"), what="'Call the table off' to go after the first move")
    click(browser, "#resign")
    assert requests.get(f"{stack.url}/v1/games/{game_id}", timeout=10).json()["status"] == "active"  # not yet: it asks
    click(browser, "#resign-no")
    click(browser, "#resign")
    click(browser, "#resign-yes")
    wait_for(lambda: "You resigned" in browser.find_element("id", "status").text or "Game over" in browser.find_element("id", "status").text,
             what="the page to say so")
    assert not browser.find_elements("id", "resign")


@pytest.mark.parametrize("game", ["rise-of-cthulhu", "rites-of-cthulhu"])  # games whose card names are unique
def test_a_spectators_page_never_holds_what_a_seat_hides(stack, browser, game):
    browser.set_window_size(WIDTHS["desktop"], 900)
    game_id, token = new_table(stack, browser, game)

    def settled():
        state = requests.get(f"{stack.url}/v1/games/{game_id}/state", headers={"Authorization": f"Bearer {token}"}, timeout=10).json()
        return state if state["to_act"] == [0] and page_state(browser)["version"] == state["version"] else None

    seat_view = wait_for(settled, timeout_s=60, what="the game to wait on seat 0 alone, shown on the page")
    public = requests.get(f"{stack.url}/v1/games/{game_id}/state", timeout=10).json()["view"]
    hidden = set(hand_names(game, seat_view["view"]))
    if game == "rites-of-cthulhu" and isinstance(public["table"]["hands"]["0"], list):
        hidden = set()  # a rule showed the hand to everyone (the Glass from Leng)
    seat_page = browser.find_element("id", "hand").text
    assert hidden and all(name in seat_page for name in hidden)  # the seat's page shows them (the check below can fail)
    browser.get(f"{stack.url}/#/table/{game_id}/watch")
    wait_for(lambda: browser.find_elements("css selector", ".table-page[data-seat='spectator'] .board .card"), what="the spectator's table")
    assert not browser.find_elements("css selector", "button.command") and not browser.find_elements("css selector", "#hand .card")
    assert token not in browser.page_source
    shown = set(browser.execute_script("return [...document.querySelectorAll('.table-page .card-name')].map(n => n.textContent)"))
    leaked = hidden & shown
    assert not leaked, f"the spectator's page shows cards seat 0 holds: {leaked}"


def test_a_second_person_joins_an_open_seat_from_the_lobby_then_resigns(stack, browser):
    game_id = open_table(browser, stack.url, "pocket-madness", 3, kinds=["open", "ai"], started=False)
    wait_for(lambda: "Waiting for players" in browser.find_element("id", "status").text, what="a waiting table")
    guest = chrome()
    try:
        guest.get(stack.url + "/#/")  # another browser: no token of this table
        click(guest, f".join-link[data-game='{game_id}']")
        click(guest, ".join-seat[data-seat='1']")
        wait_for(lambda: guest.find_element("css selector", ".table-page").get_attribute("data-seat") == "1", what="the guest's seat")
        wait_for(lambda: (page_state(guest) or {}).get("status") == "active", what="the game to start")
        click(guest, "#resign")
        click(guest, "#resign-yes")
        wait_for(lambda: "AI" in guest.find_element("css selector", ".seat-panel[data-seat='1']").text, what="the AI to take the seat")
    finally:
        guest.quit()
    resource = requests.get(f"{stack.url}/v1/games/{game_id}", timeout=10).json()
    assert resource["seats"][1]["resigned"] and resource["status"] in ("active", "finished")
    wait_for(lambda: (page_state(browser) or {}).get("status") == "active", what="the creator's page to follow the start")
    play_to_end(browser, seed=7)
    assert browser.find_element("id", "status").text.startswith("Game over")


def test_a_players_lobby_follows_its_tables_live_from_its_own_stream(stack, browser):
    browser.get(stack.url + "/#/")
    browser.execute_script("localStorage.clear()")  # a person new to this browser
    browser.get(stack.url + "/#/")
    click(browser, "#make-player")
    wait_for(lambda: "No tables of yours" in browser.find_element("id", "live-tables").text, what="the player's stream")
    key = browser.execute_script("return localStorage.getItem('mythos.playerKey')")
    me = requests.get(f"{stack.url}/v1/me", headers={"Authorization": f"Bearer {key}"}, timeout=10).json()
    # someone else opens a table keeping a seat for this player: the lobby hears of it without a reload
    created = requests.post(f"{stack.url}/v1/games", json={"game": "pocket-madness", "seats": [
        {"name": "Host", "ai": "random"}, {"open": True, "player": me["id"]}]}, timeout=10).json()
    row = f"#live-tables li[data-game='{created['id']}']"
    wait_for(lambda: "Waiting" in browser.find_element("css selector", row).text, what="the invitation")
    joined = requests.post(f"{stack.url}/v1/games/{created['id']}/join", json={}, timeout=10,
                           headers={"Authorization": f"Bearer {key}"})
    assert joined.status_code == 200 and joined.json()["seat"] == 1
    # the AI seat plays until the game waits on the player, and the lobby says so
    wait_for(lambda: browser.find_elements("css selector", row + ".your-turn"), timeout_s=60, what="'your turn'")
    state = requests.get(f"{stack.url}/v1/games/{created['id']}/state", headers={"Authorization": f"Bearer {key}"}, timeout=10).json()
    assert 1 in state["to_act"]
    click(browser, row + " a")
    wait_for(lambda: browser.find_element("css selector", ".table-page").get_attribute("data-seat") == "1", what="the player's seat")
    wait_for(lambda: browser.find_elements("css selector", ".command"), what="the seat's commands")
    browser.execute_script("localStorage.removeItem('mythos.playerKey')")  # the next tests play without a player


def test_the_turn_deadline_counts_down(stack, browser):
    open_table(browser, stack.url, "great-old-one", 2, turn_timeout_s=600)
    clock = wait_for(lambda: browser.find_element("id", "clock").text, what="the countdown")
    assert clock.startswith(("◷ 9:", "◷ 10:")) and "left for this turn" in clock, clock
    assert wait_for(lambda: (t := browser.find_element("id", "clock").text) != clock and t, what="the clock to tick")


def test_a_refusal_is_shown_in_the_server_s_own_words(stack, browser):
    created = requests.post(f"{stack.url}/v1/games", json={"game": "pocket-madness", "seats": [
        {"name": "Host"}, {"open": True}, {"open": True}, {"name": "Bot", "ai": "random"}]}, timeout=10).json()
    browser.get(f"{stack.url}/#/table/{created['id']}")
    wait_for(lambda: browser.find_elements("css selector", ".join-seat[data-seat='1']"), what="the open seat")
    before = page_state(browser)["version"]
    taken = requests.post(f"{stack.url}/v1/games/{created['id']}/join", json={"name": "Zed", "seat": 1}, timeout=10)
    assert taken.status_code == 200  # someone else took seat 1 first; the page still offers it
    wait_for(lambda: page_state(browser)["version"] > before, what="the page to hear of the join")
    click(browser, ".join-seat[data-seat='1']")
    message = wait_for(lambda: browser.find_element("id", "toast").is_displayed() and browser.find_element("id", "toast").text,
                       what="the refusal")
    again = requests.post(f"{stack.url}/v1/games/{created['id']}/join", json={"name": "Ann", "seat": 1}, timeout=10)
    assert again.status_code == 409 and message == again.json()["error"]["message"]  # the body's message, word for word
    click(browser, ".join-seat[data-seat='2']")
    wait_for(lambda: browser.find_element("css selector", ".table-page").get_attribute("data-seat") == "2", what="seat 2")
    wait_for(lambda: (page_state(browser) or {}).get("status") == "active", what="the full table to start")
