"""The places people come back to, in headless Chromium against the real stack (issue 44): a profile with its ratings,
its games linking to their replays and the paragraph on how ratings work; a leaderboard whose names link to profiles;
quick play in the lobby, waiting and then seated when another player seeks the same game; players' names at a table
linking to their profiles. At 1280 and 390 px, with
no sideways scroll and no id on the page. Screenshots go to var/screenshots (MYTHOS_SCREENSHOTS=docs/screenshots
refreshes the README's)."""

from __future__ import annotations

import re
import time

import pytest
import requests
from selenium.webdriver.support.ui import Select

from tests.support.browser import click, wait_for
from tests.support.web_tables import SHOTS, WIDTHS, shoot

pytestmark = pytest.mark.e2e
GAME = "rise-of-cthulhu"  # two seats, no more
IDS = re.compile(r"\b[gps]_[A-Za-z0-9_-]{8,}\b")


SEAT_NAMES = """return [...document.querySelectorAll('#seats .seat-panel')].map((p) => ({seat: Number(p.dataset.seat),
  name: p.querySelector('.seat-name').textContent, bot: Boolean(p.querySelector('.tag.bot')),
  links: [...p.querySelectorAll('.seat-name a.profile-link')].map((a) => [a.textContent, a.getAttribute('href')])}))"""


def auth(key):
    return {"Authorization": f"Bearer {key}"}


def make_player(url, name, bot=False):
    reply = requests.post(f"{url}/v1/players", json={"name": name, "bot": bot}, timeout=10)
    assert reply.status_code == 201, reply.text
    return reply.json()


def rated_game(url, winner, loser):
    made = requests.post(f"{url}/v1/games", json={"game": GAME, "seats": [{"me": True}, {"open": True}], "rated": True},
                         headers=auth(winner["key"]), timeout=10).json()
    assert requests.post(f"{url}/v1/games/{made['id']}/join", json={}, headers=auth(loser["key"]), timeout=10).status_code == 200
    assert requests.post(f"{url}/v1/games/{made['id']}/resign", headers=auth(loser["key"]), timeout=10).status_code == 200
    return made["id"]


@pytest.fixture(scope="module")
def rated(stack):
    """Three rated games between two new players (Ada wins two), projected by the stack's workers."""
    ada, cy = make_player(stack.url, "Ada Lovelace"), make_player(stack.url, "Cy Twombly")
    games = [rated_game(stack.url, *pair) for pair in ((ada, cy), (cy, ada), (ada, cy))]
    wait_for(lambda: len(requests.get(f"{stack.url}/v1/players/{ada['id']}", timeout=10).json()["games"]) == 3,
             what="the projector to fold the three games")
    return ada, cy, games


def as_player(browser, url, player):
    browser.get(url + "/#/")
    browser.execute_script("localStorage.clear(); localStorage.setItem('mythos.playerKey', arguments[0]);"
                           "localStorage.setItem('mythos.name', arguments[1]);", player["key"], player["name"])
    browser.refresh()  # a page of its own: the lobby's stream is this player's


def readable(browser, phone):
    text = browser.execute_script("return document.body.innerText")
    assert not IDS.search(text), f"an id on the page: {text[max(0, IDS.search(text).start() - 200):IDS.search(text).end()]}"
    if phone:
        width, inner = browser.execute_script("return [document.scrollingElement.scrollWidth, innerWidth]")
        assert width <= inner, f"the page scrolls sideways at 390 px: {width} > {inner}"
    return text


@pytest.mark.parametrize("width", list(WIDTHS))
def test_a_profile_shows_ratings_games_with_replays_and_how_ratings_work(stack, browser, rated, width):
    ada, cy, games = rated
    browser.set_window_size(WIDTHS[width], 900)
    as_player(browser, stack.url, ada)
    browser.get(f"{stack.url}/#/player/{ada['id']}")
    wait_for(lambda: browser.find_elements("css selector", "#profile-history .history-game"), what="the profile")
    text = readable(browser, width == "phone")
    assert "Ada Lovelace" in text and "Rise of Cthulhu" in text and "mythos ratings" in text
    rows = browser.find_elements("css selector", "#profile-ratings tbody tr")
    assert len(rows) == 1 and rows[0].text.split()[-1] == "3"
    lines = browser.find_elements("css selector", "#profile-history .history-game")
    assert [line.get_attribute("data-game") for line in lines] == games[::-1]
    assert [line.text.split(" · ")[0] for line in lines] == ["Won", "Resigned", "Won"]
    replays = [a.get_attribute("href") for a in browser.find_elements("css selector", "#profile-history a[href*='#/replay/']")]
    assert [r.split("#/replay/")[1] for r in replays] == games[::-1]
    assert browser.find_element("css selector", "#profile-history a.profile-link").text == "Cy Twombly"
    shoot(browser, SHOTS / f"profile-{width}.png")


@pytest.mark.parametrize("width", list(WIDTHS))
def test_the_leaderboard_ranks_the_players_and_links_their_profiles(stack, browser, rated, width):
    ada, cy, _ = rated
    browser.set_window_size(WIDTHS[width], 900)
    browser.get(f"{stack.url}/#/leaderboard/{GAME}")
    wait_for(lambda: browser.find_elements("css selector", "#board tbody tr"), what="the leaderboard")
    readable(browser, width == "phone")
    names = [a.text for a in browser.find_elements("css selector", "#board a.profile-link")]
    assert names.index("Ada Lovelace") < names.index("Cy Twombly")  # other suites' players may stand there too
    shoot(browser, SHOTS / f"leaderboard-{width}.png")
    click(browser, "#board a.profile-link")
    wait_for(lambda: browser.find_elements("id", "profile"), what="a profile from the leaderboard")


@pytest.mark.parametrize("width", list(WIDTHS))
def test_quick_play_waits_then_seats_the_player_when_another_seeks(stack, browser, width):
    eve, zed = make_player(stack.url, f"Eve {width}"), make_player(stack.url, f"Zed {width}")
    browser.set_window_size(WIDTHS[width], 900)
    as_player(browser, stack.url, eve)
    wait_for(lambda: browser.find_elements("id", "quick-play"), what="quick play in the lobby")
    Select(browser.find_element("id", "quick-game")).select_by_value(GAME)
    browser.find_element("id", "quick-fill").click()  # no AI: it waits for a person
    click(browser, "#quick-find")
    wait_for(lambda: "Looking for players" in browser.find_element("id", "quick-status").text, what="the wait")
    shoot(browser, SHOTS / f"quick-play-{width}.png")
    readable(browser, width == "phone")
    time.sleep(0.3)  # the lobby's stream is open (it follows the player's notices from its start)
    seek = requests.post(f"{stack.url}/v1/seeks", json={"game": GAME}, headers=auth(zed["key"]), timeout=10)
    assert seek.status_code == 201 and not seek.json()["waiting"], seek.text
    wait_for(lambda: "#/table/" in browser.current_url, what="the page to go to the new table")
    game_id = browser.current_url.split("#/table/")[1].split("/")[0]
    seats = requests.get(f"{stack.url}/v1/games/{game_id}", timeout=10).json()["seats"]
    assert {s["name"] for s in seats} == {eve["name"], zed["name"]}
    wait_for(lambda: browser.find_elements("css selector", ".table-page"), what="the table")


@pytest.mark.parametrize("width", list(WIDTHS))
def test_names_at_a_table_link_to_their_players_profiles(stack, browser, width):
    """Seats a player holds name them with a link to their profile (a bot's marked as a bot); an AI seat's and a
    guest's name is only text."""
    host, bot = make_player(stack.url, f"Hana {width}"), make_player(stack.url, f"Robo {width}", bot=True)
    seats = [{"me": True}, {"open": True}, {"name": "Marsh AI", "ai": "random"}, {"name": "Gus the guest"}]
    made = requests.post(f"{stack.url}/v1/games", json={"game": "pocket-madness", "seats": seats},
                         headers=auth(host["key"]), timeout=10)
    assert made.status_code == 201, made.text
    game_id = made.json()["id"]
    joined = requests.post(f"{stack.url}/v1/games/{game_id}/join", json={}, headers=auth(bot["key"]), timeout=10)
    assert joined.status_code == 200, joined.text
    browser.set_window_size(WIDTHS[width], 900)
    as_player(browser, stack.url, host)
    browser.get(f"{stack.url}/#/table/{game_id}/watch")
    seated = wait_for(lambda: len(found := browser.execute_script(SEAT_NAMES)) == 4 and found, what="the table's four seats")
    readable(browser, width == "phone")
    by_seat = {s["seat"]: s for s in seated}  # read at once: the stream redraws the panels as the AI plays
    assert by_seat[0]["links"] == [[host["name"], f"#/player/{host['id']}"]] and not by_seat[0]["bot"]
    assert by_seat[1]["links"] == [[bot["name"], f"#/player/{bot['id']}"]] and by_seat[1]["bot"]
    assert by_seat[2] == {"seat": 2, "name": "Marsh AI", "links": [], "bot": False}
    assert by_seat[3] == {"seat": 3, "name": "Gus the guest", "links": [], "bot": False}
    shoot(browser, SHOTS / f"table-names-{width}.png")
    click(browser, '#seats .seat-panel[data-seat="1"] .seat-name a.profile-link')
    wait_for(lambda: bot["name"] in browser.find_element("css selector", "#profile h2").text, what="the bot's profile")
    assert "(a bot)" in browser.find_element("css selector", "#profile h2").text
