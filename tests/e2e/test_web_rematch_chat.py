"""The web table's chat and rematch in two headless Chromiums against the real stack (issue 31): two people at one
table talk in its chat (each line reaches the other's page from the stream), one resigns, one offers a rematch from
the result, the other accepts it on its page, and both pages move to the new table, where each plays the same seat
(its token carried over) with a new seed; a word said after the end still reaches the other page."""

from __future__ import annotations

import pytest
import requests
from selenium.webdriver.common.by import By

from tests.support.browser import chrome, click, console_errors, page_state, wait_for

pytestmark = pytest.mark.e2e


@pytest.fixture(scope="module")
def browsers():
    ada = chrome()
    try:
        bo = chrome()
    except BaseException:
        ada.quit()
        raise
    yield ada, bo
    ada.quit()
    bo.quit()


def seated(driver, base, game_id, seat, token):
    driver.get(f"{base}/#/claim/{game_id}/{seat}/{token}")
    wait_for(lambda: (page_state(driver) or {}).get("version"), what="the table's first state")


def chat_lines(driver):
    return [li.text for li in driver.find_elements(By.CSS_SELECTOR, "#chat-lines li .chat-text")]


def say(driver, text):
    box = driver.find_element(By.ID, "chat-text")
    box.send_keys(text)
    click(driver, "#chat-send")


def test_two_people_chat_at_the_table_and_play_a_rematch_from_their_pages(stack, browsers):
    ada, bo = browsers
    base = stack.url
    created = requests.post(f"{base}/v1/games", json={"game": "pocket-madness", "seats": [{"name": "Ada"}, {"name": "Bo"}]},
                            timeout=10).json()
    game_id, tokens = created["id"], [s["token"] for s in created["seats"]]
    seated(ada, base, game_id, 0, tokens[0])
    seated(bo, base, game_id, 1, tokens[1])

    say(ada, "Good luck, Bo")
    wait_for(lambda: "Good luck, Bo" in chat_lines(bo), what="Ada's line on Bo's page")
    say(bo, "And to you <b>Ada</b>")
    wait_for(lambda: "And to you <b>Ada</b>" in chat_lines(ada), what="Bo's line on Ada's page, as text")
    assert not ada.find_elements(By.CSS_SELECTOR, "#chat-lines b"), "chat is text, never markup"

    click(bo, "#resign")
    click(bo, "#resign-yes")
    wait_for(lambda: (page_state(ada) or {}).get("status") == "finished", what="the end on Ada's page")
    wait_for(lambda: (page_state(bo) or {}).get("status") == "finished", what="the end on Bo's page")
    say(bo, "gg")
    wait_for(lambda: "gg" in chat_lines(ada), what="a line said after the end")

    click(ada, "#rematch")
    wait_for(lambda: "offers a rematch" in bo.find_element(By.ID, "rematch-box").text, what="the offer on Bo's page")
    click(bo, "#rematch-accept")
    for driver, seat in ((ada, 0), (bo, 1)):
        wait_for(lambda d=driver: "#/table/" in d.current_url and game_id not in d.current_url, what="the new table")
        wait_for(lambda d=driver: (page_state(d) or {}).get("status") == "active", what="the rematch in play")
        assert driver.current_url.endswith(f"/{seat}") and driver.find_element(By.ID, "role").text.startswith("You play")
    new_id = ada.current_url.split("#/table/")[1].split("/")[0]
    assert bo.current_url.split("#/table/")[1].split("/")[0] == new_id
    old, new = (requests.get(f"{base}/v1/games/{g}", timeout=10).json() for g in (game_id, new_id))
    assert new["rematch_of"] == game_id and new["seed_commitment"] != old["seed_commitment"]
    assert [s["name"] for s in new["seats"]] == ["Ada", "Bo"]
    state = requests.get(f"{base}/v1/games/{new_id}/state", headers={"Authorization": f"Bearer {tokens[1]}"}, timeout=10)
    assert state.status_code == 200, "Bo's token holds his seat at the new table"
    assert not console_errors(ada) and not console_errors(bo)
