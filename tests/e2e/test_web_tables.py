"""The web client in headless Chromium against the real stack, the tables: a person plays every game to its end
with clicks on its cards, part of the game at desktop width and the rest at 390 px (no sideways scroll, the hand
on screen), and sees each table as that game's table at both widths mid-game and at the end (hands as named cards,
Pocket Madness's melds under their owners, Rites' artifacts by name, a log in words); a finished table passes
axe-core's checks at 390 px; then the person opens the game's replay by moves: verified, in words, every hand
shown, a step and a jump by moves; a replay passes axe-core's checks. The person is the click-the-highlight player
(tests/support/browser.py: at every move every legal command reachable by clicks on highlighted places); the same
player finishes games at the width this play opens them at in test_web_click_player.py (one at each width in
``make test``, every game in ``make soak``). The page around the tables is in test_web_client.py (run side by
side under xdist). Screenshots go to var/screenshots (MYTHOS_SCREENSHOTS=docs/screenshots refreshes the README's)."""

from __future__ import annotations

import pytest
import requests

from tests.support.browser import wait_for
from tests.support.web_tables import FIRST_WIDTH, GAMES, IDS, RAW, SHOTS, WIDTHS, play_every_game_to_its_end, serious_violations, shoot

pytestmark = pytest.mark.e2e


def check_replay(browser, game: str, axe: str) -> None:
    """The replay of a finished game: verified, its moves in words, every hand, a step and a jump by moves."""
    browser.find_element("id", "replay-link").click()
    verdict = wait_for(lambda: browser.find_element("id", "verdict").text, what="the audit verdict")
    assert verdict == "VERIFIED"
    assert [li.get_attribute("class") for li in browser.find_elements("css selector", "#audit li")] == ["ok", "ok", "ok"]
    export = browser.find_element("id", "export-link").get_attribute("href")
    assert requests.get(export, timeout=10).json()["seed"]
    moves = browser.find_element("id", "moves").text
    assert moves and not RAW.search(moves), RAW.search(moves)
    heading = browser.find_element("css selector", ".replay-page").text.split("Audit")[0]  # the title, host and seats
    assert "Hosted by Ada" in heading and not IDS.search(heading), heading
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
    if game == "rites-of-cthulhu":  # the README's replay: a long game's
        shoot(browser, SHOTS / "replay.png")
    if game == "arkham-ritual":  # the page every replay is, in the fewest moves: axe-core took ~18 s on a Rites replay
        assert not serious_violations(browser, axe)


@pytest.mark.parametrize("game", GAMES)
def test_a_person_plays_every_game_to_its_end_with_clicks_on_cards_at_both_widths_and_replays_it(stack, browser, axe, game):
    first = FIRST_WIDTH[game]
    play_every_game_to_its_end(stack, browser, game, (first, next(w for w in WIDTHS if w != first)))
    if game == "arkham-ritual":  # a finished table (its result, why it ended, the rematch) at 390 px, checked once
        browser.set_window_size(WIDTHS["phone"], 900)
        assert not serious_violations(browser, axe)
    browser.set_window_size(WIDTHS["desktop"], 900)
    check_replay(browser, game, axe)
