"""Headless Chromium for the web client's tests (Debian's chromium + chromium-driver, driven by Selenium 4).

The page is driven as a person would: selects, buttons and links, clicked; the test reads only the page."""

from __future__ import annotations

import os
import random
import shutil
import time
from pathlib import Path

import pytest


CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"
INSTALL = "apt-get install -y --no-install-recommends chromium chromium-driver"
TURN_TIMEOUT_S = 60  # how long a click may take to land and the page to offer the next move (a busy machine)


def chrome():
    """A headless Chromium. ``make test`` installs Debian's when it is missing (``make browser``) and sets
    ``MYTHOS_REQUIRE_BROWSER=1``, so under it (and so in CI) a missing browser is a failure, never a silent skip.
    A bare ``pytest`` on a machine without Chromium says how to install it instead of failing (issue 18 asks
    for that), as a skip whose reason is the instruction."""
    if not (Path(CHROMIUM).exists() and Path(CHROMEDRIVER).exists()):
        missing = f"no Chromium/ChromeDriver at /usr/bin: `make browser` (or {INSTALL}) installs them"
        if os.environ.get("MYTHOS_REQUIRE_BROWSER") == "1":
            pytest.fail(f"{missing}; `make test` tried and could not, so the browser tests cannot run")
        pytest.skip(f"{missing}; `make test` installs them and then always runs these tests")
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for arg in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu", "--window-size=1280,1000"):
        options.add_argument(arg)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    driver.set_page_load_timeout(30)
    return driver


def wait_for(check, timeout_s: float = 30, what: str = "the page"):
    """Poll ``check`` until it returns something truthy (page updates come from the stream, asynchronously)."""
    from selenium.common.exceptions import StaleElementReferenceException, NoSuchElementException

    end = time.monotonic() + timeout_s
    while True:
        try:
            found = check()
            if found:
                return found
        except (StaleElementReferenceException, NoSuchElementException):
            pass
        if time.monotonic() > end:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.05)


# What the table page shows, as one function in the page: its version, status, what may be clicked now (cards and
# other places that start a move, targets, choices, plain move buttons) and how many messages it showed.
STATE_JS = """
const pageState = () => {
    const root = document.querySelector('.table-page');
    if (!root) return null;
    const count = (sel) => [...document.querySelectorAll(sel)].filter(b => !b.disabled).length;
    return {version: Number(root.dataset.version || 0), status: root.dataset.status || '',
            buttons: count('button.command'), playable: count('.playable'), targets: count('.target'),
            choices: count('#choices button.choice'), actions: count('#actions button.action'),
            toasts: Number(document.getElementById('toast').dataset.count || 0)};
};
// What a player reads on the page (its text, every move's button, the names screen readers say) that is not in
// words: a table or player id (g_…, p_…) or a snake_case name (a command, an enum value).
const rawWords = () => {
    const said = [...document.querySelectorAll('#controls button, [aria-label], [title]')]
        .map((n) => [n.textContent, n.getAttribute('aria-label'), n.getAttribute('title')].join(' '));
    const text = [document.body.innerText, ...said].join(' ');
    return [...new Set(text.match(/\b(?:[gp]_[A-Za-z0-9_-]{6,}|[a-z]+_[a-z_]+)\b/g) || [])];
};
"""


def page_state(driver) -> dict:
    """What the table page shows now (``STATE_JS``), or None off a table."""
    return driver.execute_script(STATE_JS + "return pageState();")


def open_table(driver, base: str, game: str, players: int, name: str = "Ada", kinds: list[str] | None = None,
               started: bool = True, turn_timeout_s: int = 0) -> str:
    """Open a table from the lobby, the other seats played by the AI unless ``kinds`` says otherwise ("ai", "open",
    "human" for each seat after the first); returns the game id."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    driver.get(base + "/#/")
    name_box = wait_for(lambda: driver.find_element(By.ID, "name"), what="the lobby")
    name_box.clear()
    name_box.send_keys(name)
    Select(driver.find_element(By.ID, "game")).select_by_value(game)
    Select(driver.find_element(By.ID, "players")).select_by_value(str(players))
    for select, kind in zip(driver.find_elements(By.CSS_SELECTOR, ".seat-kind"), kinds or ["ai"] * (players - 1)):
        Select(select).select_by_value("ai:random" if kind == "ai" else kind)
    if turn_timeout_s:
        driver.find_element(By.ID, "timeout").clear()
        driver.find_element(By.ID, "timeout").send_keys(str(turn_timeout_s))
    driver.find_element(By.ID, "create").click()
    wait_for(lambda: "#/table/" in driver.current_url, what="the new table")
    if started:
        wait_for(lambda: (page_state(driver) or {}).get("version"), what="the table's first state")
    return driver.current_url.split("#/table/")[1].split("/")[0]


# The click-the-highlight player's eyes, in the page: every command a person can reach from the table as it stands
# by clicks on highlighted places alone (a card or other place that starts a move, then a highlighted target, then
# the choices the page offers, or a plain move button beside the hand) and never the "Every move as a button" list.
# It clicks each option in turn, depth first, with the page's cancellable "move" event stopped so nothing is sent
# (table.js announces each move so), and learns the command each path of clicks sends; Cancel and the path so far
# bring the page back between options. ``explore()`` returns those paths by command, every legal command (the
# "Every move as a button" list, clicked the same way) and the traps found on the way: a legal command no path
# reaches, an option that vanished, a dead end (a highlighted place that offers no move), choices offered out of
# sight, a tap that played a card at once whose text was not all on screen or selected one without showing its
# whole text, a dimmed card that does not say why (issue 42).
EXPLORE_JS = r"""
const shown = (n) => n.getClientRects().length > 0;
const findStep = (step) => step.kind === 'choice' ? document.querySelector(`#choices button.choice[data-index="${step.index}"]`)
    : step.kind === 'button' ? document.querySelector(`#actions button.action[data-index="${step.index}"]`)
    : [...document.querySelectorAll(`.table-page [data-key="${CSS.escape(step.key)}"]`)].find((n) => shown(n) && n.classList.contains(step.kind === 'target' ? 'target' : 'playable'));
const explore = () => {
    const root = document.querySelector('.table-page');
    const options = () => {
        const out = [], seen = new Set();
        for (const n of root.querySelectorAll('.playable, .target')) {
            const step = {kind: n.classList.contains('target') ? 'target' : 'card', key: n.dataset.key};
            const id = step.kind + ' ' + step.key;
            if (shown(n) && !n.closest('#all-moves') && !seen.has(id)) { seen.add(id); out.push(step); }
        }
        for (const b of document.querySelectorAll('#choices button.choice')) if (shown(b)) out.push({kind: 'choice', index: b.dataset.index});
        for (const b of document.querySelectorAll('#actions button.action')) if (shown(b) && !b.disabled) out.push({kind: 'button', index: b.dataset.index});
        return out;
    };
    const whole = (n) => {  // the place's text is all on screen (or it has none)
        if (!n.getAttribute('title')) return true;
        const text = n.querySelector('.card-text');
        return Boolean(text) && text.scrollHeight <= text.clientHeight + 1;
    };
    const inSight = (n) => {  // on the screen, and inside the visible part of every box that scrolls around it
        if (!n) return false;
        const r = n.getBoundingClientRect();
        if (r.bottom <= 0 || r.top >= innerHeight) return false;
        for (let box = n.parentElement; box; box = box.parentElement) {
            if (getComputedStyle(box).overflowY === 'visible') continue;
            const b = box.getBoundingClientRect();
            if (r.bottom <= b.top || r.top >= b.bottom) return false;
        }
        return true;
    };
    let sent = null;
    const stop = (e) => { e.preventDefault(); sent = JSON.stringify(e.detail); };
    root.addEventListener('move', stop);
    const reset = () => { const c = document.querySelector('#choices button.choice-cancel'); if (c) c.click(); };
    const paths = {}, traps = [];
    const named = (node, o) => node.dataset.card || node.getAttribute('aria-label') || node.textContent.trim().slice(0, 40) || o.key;
    const walk = (prefix) => {  // the commands reached from here
        let reached = 0;
        const here = options().filter((o) => !prefix.length || o.kind === 'target' || o.kind === 'choice');
        for (const o of here) {
            reset();
            if (prefix.some((step) => { const n = findStep(step); if (n) n.click(); return !n; })) { traps.push('a path vanished'); return reached; }
            const node = findStep(o);
            if (!node) { traps.push(`an option vanished: ${o.kind} ${o.key || o.index}`); continue; }
            sent = null;
            node.click();
            if (sent !== null) {
                if (o.kind === 'card' && !prefix.length && !whole(node)) traps.push(`a tap played ${named(node, o)} before its text could be read`);
                if (!(sent in paths) || paths[sent].length > prefix.length + 1) paths[sent] = [...prefix, o];
                reached += 1;
            } else if (prefix.length < 4) {
                const info = document.getElementById('card-info').textContent;
                if (o.kind === 'card' && node.getAttribute('title') && info !== node.getAttribute('title')) traps.push(`a tap on ${named(node, o)} does not show its whole text`);
                if (!inSight(document.querySelector('#choices button'))) traps.push(`a click on ${named(node, o)} offers its choices out of sight`);
                const below = walk([...prefix, o]);
                if (!below) traps.push(`a dead end: a click on the highlighted ${named(node, o)} offers no move`);
                reached += below;
            }
        }
        return reached;
    };
    try {
        const dim = document.querySelector('#hand .card.dim');
        if (dim) {  // a dimmed card says why, when tapped
            dim.click();
            if (!/cannot be played now: \w/.test(document.getElementById('card-info').textContent)) traps.push(`a tap on the dimmed ${dim.dataset.card} says nothing of why`);
        }
        walk([]);
        reset();
        const legal = {};
        for (const b of document.querySelectorAll('#controls button.command')) {
            sent = null;
            b.click();
            if (sent !== null) legal[sent] = b.textContent;
        }
        const missing = Object.keys(legal).filter((c) => !(c in paths)).map((c) => legal[c]);
        if (missing.length) traps.push(`reachable only through "Every move as a button": ${missing.join('; ')}`);
        return {paths, legal: Object.keys(legal), traps};
    } finally {
        root.removeEventListener('move', stop);
        reset();
    }
};
"""


# One turn of a person's play, in the page (one round trip per turn): wait, polling the page itself, until it moved
# on from ``before`` (the state the last move was made in; null: nothing clicked yet) and offers a move or says the
# game is over; then (the click-the-highlight player) find every legal command's path of clicks (``EXPLORE_JS``),
# choose one with the seeded draw ``rs`` and make its clicks, or (``cards`` false) click one of "Every move as a
# button". Each click brings its place into the middle of the screen as a person scrolls (clear of the hand kept at
# the page's foot) and is made there as a pointer does: the press, the release and the click go to whatever is on
# top at the place's centre, and only if that is the place or inside it (what WebDriver's own click checks: a place
# covered by something else is not clicked, the page is looked at again). WebDriver's click costs ~65 ms of round
# trips through a busy renderer; a game takes hundreds of moves.
TURN_JS = """
const [before, rs, cards, choose, timeoutMs] = arguments;
const done = arguments[arguments.length - 1];
const moved = (s) => !before || s.version !== before.version || s.toasts !== before.toasts || s.status === 'finished';
const over = (s) => s.status === 'finished' || s.status === 'aborted';
const ready = (s) => over(s) || s.playable || s.buttons || s.choices || s.actions;
const press = (place) => {
    place.scrollIntoView({block: 'center'});
    const box = place.getBoundingClientRect();
    const [x, y] = [box.left + box.width / 2, box.top + box.height / 2];
    const hit = document.elementFromPoint(x, y);
    if (!hit || !place.contains(hit)) return false;
    const at = {bubbles: true, cancelable: true, composed: true, view: window, clientX: x, clientY: y, button: 0};
    for (const type of ['pointerdown', 'mousedown', 'pointerup', 'mouseup']) {
        hit.dispatchEvent(type.startsWith('pointer') ? new PointerEvent(type, {...at, pointerType: 'mouse', isPrimary: true}) : new MouseEvent(type, at));
    }
    hit.dispatchEvent(new MouseEvent('click', {...at, detail: 1}));
    return true;
};
const click = (s) => {
    if (over(s) || !choose) return {};
    if (!cards) {
        document.getElementById('all-moves').open = true;
        const found = [...document.querySelectorAll('button.command')].filter((b) => !b.disabled);
        if (!found.length) return {};
        return press(found[Math.floor(rs[0] * found.length)]) ? {kinds: ['button']} : {covered: true};
    }
    const seen = explore();
    const paths = Object.values(seen.paths);
    if (seen.traps.length || !paths.length) return {traps: seen.traps, legal: seen.legal.length};
    const path = paths[Math.floor(rs[0] * paths.length)];
    const kinds = [];
    for (const step of path) {
        const node = findStep(step);
        if (!node || !press(node)) {
            const cancel = document.querySelector('#choices button.choice-cancel');
            if (cancel) cancel.click();
            return {covered: true};
        }
        kinds.push(step.kind);
    }
    return {kinds, reached: paths.length, legal: seen.legal.length};
};
const end = Date.now() + timeoutMs;
(function poll() {
    const s = pageState();
    if (s && moved(s) && ready(s)) return done({state: s, raw: rawWords(), ...click(s)});
    if (Date.now() > end) return done({state: s, late: s && moved(s) ? 'a move to make or the end' : 'the move to land'});
    setTimeout(poll, 10);
})();
"""


def play_to_end(driver, seed: int, max_moves: int = 2000, cards: bool = True, stop_after: int | None = None,
                raw: set[str] | None = None) -> dict[str, int]:
    """Play seat 0 until the page says the game is over, as a person who only clicks what the page highlights: a
    card or other place that starts a move, then a highlighted target, then one of the choices it offers, or a plain
    move button beside the hand (a seeded random choice among every command reachable so; ``cards=False`` uses only
    "Every move as a button"). At every move it checks that each legal command is reachable by those clicks, and
    fails naming any that is not (``EXPLORE_JS``). Returns the clicks made by kind and the moves, after
    ``stop_after`` moves if given (mid-game); ``raw`` collects what the page showed before each move that is not in
    words (ids, snake_case names: ``rawWords`` in ``STATE_JS``). See ``TURN_JS`` for how a click is made."""
    rand = random.Random(seed)
    clicks = {"card": 0, "target": 0, "choice": 0, "button": 0, "moves": 0}
    before, covered = None, 0
    driver.set_script_timeout(TURN_TIMEOUT_S + 30)
    while clicks["moves"] < max_moves:
        stop = stop_after is not None and clicks["moves"] >= stop_after
        got = driver.execute_async_script(STATE_JS + EXPLORE_JS + TURN_JS, before, [rand.random() for _ in range(3)], cards, not stop,
                                          TURN_TIMEOUT_S * 1000)
        if got.get("late"):
            raise AssertionError(f"timed out waiting for {got['late']}")
        state = got["state"]
        if raw is not None:
            raw.update(got.get("raw") or [])
        assert not got.get("traps"), f"at version {state['version']}, of {got.get('legal')} legal commands: {got['traps']}"
        if state["status"] in ("finished", "aborted") or stop:
            return clicks
        if not got.get("kinds"):  # the page changed while it looked, or the place was covered: look again
            covered += bool(got.get("covered"))
            assert covered < 50, "the places to click stay covered by something else"
            before = None
            continue
        for kind in got["kinds"]:
            clicks[kind] += 1
        clicks["moves"] += 1
        before = state
    raise AssertionError(f"no end after {max_moves} moves")


def screenshot(driver, path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    driver.save_screenshot(str(path))


def console_errors(driver) -> list[str]:
    """The page's console errors, less the network ones the test provoked itself."""
    return [e["message"] for e in driver.get_log("browser") if e["level"] == "SEVERE" and "favicon" not in e["message"]]


def have_chromium() -> bool:
    return bool(shutil.which("chromium") or Path(CHROMIUM).exists())


def click(driver, selector: str, timeout_s: float = 30) -> None:
    """Click what ``selector`` finds, finding it again if the stream redrew it in between."""
    from selenium.common.exceptions import ElementClickInterceptedException, StaleElementReferenceException
    from selenium.webdriver.common.by import By

    def attempt():
        try:
            found = driver.find_element(By.CSS_SELECTOR, selector)
            driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", found)  # clear of the sticky bars
            found.click()
            return True
        except (StaleElementReferenceException, ElementClickInterceptedException):
            return False

    wait_for(attempt, timeout_s, what=selector)
