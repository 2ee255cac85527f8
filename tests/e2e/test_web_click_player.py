"""The click-the-highlight player (tests/support/browser.py) finishes games at the width test_web_tables.py
opens them at, so that with that file's plays a game is finished at 1280 and at 390 px by a person who only clicks
highlighted cards, targets and the choices they offer; at every move every legal command is reachable so, and at
the end the player's own final hand is on the screen (issue 42). ``make test`` finishes one game at each width
(test_web_tables.py plays every game at both widths and checks its end at both); ``make soak`` every game
(tests/support/breadth.py). A file of its own so that xdist plays it beside test_web_tables.py."""

from __future__ import annotations

import pytest

from tests.support.breadth import cases
from tests.support.browser import console_errors, play_to_end
from tests.support.web_tables import FIRST_WIDTH, GAMES, WIDTHS, check_table, new_table

pytestmark = pytest.mark.e2e
# Pocket Madness finishes at 390 px, Arkham Ritual at 1280 (FIRST_WIDTH): the shortest game at each width.
FINISHED_HERE = cases(GAMES, ["pocket-madness", "arkham-ritual"])


@pytest.mark.parametrize("game", FINISHED_HERE)
def test_the_click_the_highlight_player_finishes_a_game(stack, browser, game):
    width = FIRST_WIDTH[game]
    browser.set_window_size(WIDTHS[width], 900)
    game_id, token = new_table(stack, browser, game)
    clicks = play_to_end(browser, seed=len(game) + 7)
    assert clicks["moves"] > 0 and clicks["card"] > 0, clicks
    assert browser.find_element("id", "status").text.startswith("Game over")
    check_table(stack, browser, game, game_id, token, width == "phone")  # your final hand among the rest
    assert not [e for e in console_errors(browser) if "/commands" not in e]
