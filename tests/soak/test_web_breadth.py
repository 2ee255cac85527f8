"""The browser suites' whole breadth (tests/support/breadth.py): the click-the-highlight player finishes every game."""

from tests.e2e.test_web_click_player import test_the_click_the_highlight_player_finishes_a_game  # noqa: F401
from tests.support.web_tables import browser  # noqa: F401 - the browser tests' fixture: one Chromium a module
