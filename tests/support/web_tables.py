"""What the browser tests check on a table, a game played to its end and its replay, shared by the two halves of
the web client's tests (tests/e2e/test_web_client.py and test_web_tables.py, which xdist runs side by side): the
module fixtures (one Chromium, axe-core's pinned source), a table opened for the browser from a seed, and the
checks of issue 30 (hands as named cards, Pocket Madness's melds under their owners, Rites' artifacts by name, a
log and a replay in words, no sideways scroll at 390 px, axe-core's serious violations) and of its screenshots'
review (no id or snake_case name on the page at any turn, an opaque hand bar that hides no control at the page's
end, why the game ended in words, The Great Old One's phases in words)."""

from __future__ import annotations

import fcntl
import os
import re
import subprocess
from pathlib import Path

import pytest
import requests

from shared.games import GAMES as CATALOGUE
from tests.support.browser import chrome, console_errors, page_state, play_to_end, screenshot, wait_for

SHOTS = Path(os.environ.get("MYTHOS_SCREENSHOTS", "var/screenshots"))
# Players, a seed and the clicks made before the mid-game look, per game, chosen for short games whose middle shows
# the game's table (the clicks are seeded too). Rites with 4 players plays 4 rites, not 6: a quarter of the clicks.
GAMES = {"pocket-madness": (2, "01", 15), "arkham-ritual": (3, "01", 2), "rise-of-cthulhu": (2, "01", 20),
         "great-old-one": (2, "01", 20), "rites-of-cthulhu": (4, "01", 18)}
WIDTHS = {"desktop": 1280, "phone": 390}
# Which width each game's play in test_web_tables.py starts at, turn about (each width plays some games' openings and
# the others' ends); test_web_click_player.py finishes games at that width too.
FIRST_WIDTH = {game: ("phone", "desktop")[index % 2] for index, game in enumerate(GAMES)}
AXE_VERSION = "4.10.2"  # axe-core, pinned: installed from npm into var/ the first time
RAW = re.compile(r"[{}\[\]\"]|\b\w+_\w+\b|\b\d+(?:, \d+){2,}\b")  # JSON, snake_case keys, lists of ids
IDS = re.compile(r"\b[gp]_[A-Za-z0-9_-]{6,}")  # a table's or a player's id: the page names tables and people instead
# The hand bar's background, and the controls a person cannot reach at the page's end (scrolled to the bottom, the
# passing message gone): any button, link or field on screen below the line that stays at the top whose centre
# shows something else, leaving out those a scrolling box of their own clips (the log, the chat, the hand bar's).
FOOT_JS = """
document.getElementById('toast').classList.add('hidden');
window.scrollTo(0, document.scrollingElement.scrollHeight);
const clipped = (node, x, y) => {
    for (let box = node.parentElement; box; box = box.parentElement) {
        if (getComputedStyle(box).overflowY === 'visible') continue;
        const r = box.getBoundingClientRect();
        if (x < r.left || x > r.right || y < r.top || y > r.bottom) return true;
    }
    return false;
};
const top = document.querySelector('.nowbar').getBoundingClientRect().bottom;  // above it: scrolled past
const covered = [...document.querySelectorAll('.table-page :is(button, a, summary, input, select)')].filter((node) => {
    const r = node.getBoundingClientRect();
    const [x, y] = [r.left + r.width / 2, r.top + r.height / 2];
    if (!r.width || !r.height || y < top || y >= innerHeight || clipped(node, x, y)) return false;
    const hit = document.elementFromPoint(x, y);
    return !hit || !(node.contains(hit) || hit.contains(node));
}).map((node) => node.textContent.trim().slice(0, 60) || node.outerHTML.slice(0, 80));
const bar = getComputedStyle(document.getElementById('my-area')).backgroundColor;
window.scrollTo(0, 0);
return [bar, covered];
"""


@pytest.fixture(scope="module")
def browser():
    driver = chrome()
    yield driver
    driver.quit()


@pytest.fixture(scope="module")
def axe():
    """axe-core's source, pinned, from var/ (npm installs it there once; a lock keeps two workers from both
    installing at the same time)."""
    where = Path("var/axe")
    script = where / "node_modules" / "axe-core" / "axe.min.js"
    where.mkdir(parents=True, exist_ok=True)
    with open(where / ".lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
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
    return CATALOGUE[game].catalogue.card_data


def new_table(stack, browser, game: str, ai: bool = True) -> tuple[str, str]:
    """A table of ``game`` from a seed, seat 0 this browser's, the others random AI seats (or, ``ai=False``, people
    who never move: then only seat 0 plays, and the game goes the same way every time); returns id and token."""
    players, seed, _ = GAMES[game]
    seats = [{"name": "Ada"}] + [{"name": f"Bot {n}", **({"ai": "random"} if ai else {})} for n in range(1, players)]
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
    """The names of the cards seat 0 holds, from its view (at the end everyone's: the hands revealed) and the
    catalogue's card data."""
    data = names(game)
    if game == "pocket-madness":
        by = {loc["number"]: loc["name"] for loc in data["locations"]}
        return sorted({by[n] for n in view.get("hand", (view.get("hands") or [[]])[0])})
    if game == "rise-of-cthulhu":
        everything = {k: v for group in ("cultists", "monsters", "artifacts") for k, v in data[group].items()}
        held = view.get("hand", (view.get("hands") or [[]])[0])
        return sorted(c.get("name") or f"{c['colour'].capitalize()} {c['number']}" for c in (everything[i] for i in held))
    if game == "great-old-one":
        return sorted(data["cards"][i]["name"] for i in view.get("hand", view["seats"][0].get("hand", [])))
    if game == "rites-of-cthulhu":
        hand = view["table"]["hands"].get("0")
        return sorted(data["entities"][i]["name"] for i in hand) if isinstance(hand, list) else []
    if game == "arkham-ritual" and "cards" in view and view["cards"][0] is not None:  # at the end, face up
        return [next(c["name"] for c in data["cards"] if c["id"] == view["cards"][0])]
    return []


def check_table(stack, browser, game: str, game_id: str, token: str, phone: bool) -> None:
    """What a person sees is the game's table: named cards, melds and artifacts where they belong, words in the log."""
    state = settled_view(stack, browser, game_id, token)
    view = state["view"]
    cards = browser.execute_script("return [...document.querySelectorAll('#hand .card')].map(c => [c.getAttribute('aria-label') || '', c.querySelector('.card-name') ? c.querySelector('.card-name').textContent : ''])")
    for label, name in cards:
        assert name and label.startswith(name), (label, name)  # every card's accessible name carries its name
    over = state["status"] == "finished"
    if game == "arkham-ritual" and not over:
        assert not cards or "face down" in cards[0][0] or cards[0][1] != "Your card", cards
    else:  # at the end too: your own final hand on the screen (issue 42), in the hand bar and first of the seats
        assert sorted({name for _, name in cards}) == hand_names(game, view), (cards, hand_names(game, view))
    if over:
        first = browser.execute_script("const p = document.querySelector('.seat-panel'); return [p.dataset.seat, p.innerText]")
        assert first[0] == "0", f"your own seat is not first at the end: {first}"
        if game != "arkham-ritual" and hand_names(game, view):
            shown = browser.execute_script("return [...document.querySelectorAll('.seat-panel[data-seat=\"0\"] .revealed-hand .card-name')].map(n => n.textContent)")
            assert sorted(set(shown)) == hand_names(game, view), ("your revealed hand among the seats", shown)
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
    if game == "great-old-one":  # the Turn Phases in the rulebook's words; at the end no phase at all
        info = browser.find_element("css selector", "#board .board-info").text
        assert "Over" not in info and ("Phase" not in info or state["status"] == "active"), info
    now = browser.find_element("id", "status").text  # the line that says what happens now, to Ada: "you", in words
    assert not RAW.search(now) and "Ada" not in now, now
    if game == "rites-of-cthulhu" and view.get("rite"):
        assert view["rite"]["title"] not in now, now  # the rite is named on the board; the line says what it asks
    log = browser.find_element("id", "log").text
    assert log and not RAW.search(log), RAW.search(log)
    small = [line for line in log.splitlines() if line[:1].islower()]
    assert not small, f"a log line starts in lower case: {small[:3]}"
    text = browser.execute_script("return document.body.innerText")
    assert not IDS.search(text), f"an id on the page: {IDS.search(text)}"  # the heading names the game and its table
    bar, covered = browser.execute_script(FOOT_JS)
    assert not bar.startswith("rgba"), f"the hand bar is see-through: {bar}"
    assert not covered, f"controls hidden at the page's end: {covered}"
    if phone:
        width, inner = browser.execute_script("return [document.scrollingElement.scrollWidth, innerWidth]")
        assert width <= inner, f"the page scrolls sideways at 390 px: {width} > {inner}"
        if state["status"] == "active":
            top = browser.execute_script("return document.getElementById('hand').getBoundingClientRect().top")
            assert top < browser.execute_script("return innerHeight"), "the hand is off screen"


def shoot(browser, path: Path) -> None:
    """The page as a player first sees it, from its top, for the README: without a passing message (the random
    clicks cross the AI's moves often, and each crossing says so for a few seconds)."""
    browser.execute_script("window.scrollTo(0, 0); document.getElementById('toast').classList.add('hidden')")
    screenshot(browser, path)


def play_every_game_to_its_end(stack, browser, game: str, widths: tuple[str, str]) -> str:
    """A person plays ``game`` to its end with clicks on its cards, the first part at the first of ``widths``
    and the rest at the other (the window resized between, as a person turns a phone); the table is checked at
    both widths mid-game and at the end (and shot each time, from the top of the page, as a player first sees
    it). Returns the game id."""
    first, then = widths
    browser.set_window_size(WIDTHS[first], 900)
    game_id, token = new_table(stack, browser, game)
    raw: set[str] = set()
    clicks = play_to_end(browser, seed=len(game), stop_after=GAMES[game][2], raw=raw)  # mid-game
    check_at_both_widths(stack, browser, game, game_id, token, "mid", (first, then))
    more = play_to_end(browser, seed=len(game) + 1, raw=raw)
    assert not raw, f"the page showed names that are not words: {sorted(raw)}"  # commands, enums, ids: every turn
    assert clicks["card"] + more["card"] > 0, "moves were made by clicks on cards"
    now = browser.find_element("id", "status").text
    assert now.startswith("Game over")
    outcome = requests.get(f"{stack.url}/v1/games/{game_id}", timeout=10).json()["outcome"]
    winners, reason = outcome["winners"], outcome["reason"]
    text = lambda node: browser.execute_script(f"return document.getElementById('{node}').innerText")  # noqa: E731  (redrawn as the end's news comes)
    result = text("result")
    assert "Winner" in result and all(("Ada" if w == 0 else f"Bot {w}") in result for w in winners)
    why = text("end-reason")  # why it ended in words, never its enum value ("(score)")
    words = reason.replace("_", " ")
    assert len(why.split()) >= 3 and "_" not in why and why.lower().strip(". ") != words and f"({words})" not in now.lower(), (now, why)
    assert not browser.find_elements("id", "resign") and not browser.find_elements("id", "abort")
    check_at_both_widths(stack, browser, game, game_id, token, "end", (then, first))
    assert not [e for e in console_errors(browser) if "/commands" not in e]
    return game_id


def check_at_both_widths(stack, browser, game: str, game_id: str, token: str, moment: str, widths: tuple[str, str]) -> None:
    """The table checked and shot at each of ``widths`` in turn, the window left at the last."""
    for width in widths:
        browser.set_window_size(WIDTHS[width], 900)
        check_table(stack, browser, game, game_id, token, width == "phone")
        shoot(browser, SHOTS / f"{game}-{width}-{moment}.png")
