"""A bot account shows as a bot at every table it sits at (issue 45): its seat in the game resource, in the public
listing and in the player's own tables says ``bot: true``, and the terminal's table marks it. A person's seat, an AI
seat, and an open seat kept for a bot that has not joined yet, say nothing."""

from __future__ import annotations

import json

import fakeredis
import pytest

from shared.games import GAMES
from shared.wire.catalog import catalog
from session_service.cli.terminal.games import Seen, layout_for
from session_service.cli.terminal.screen import table_lines
from tests.support.properties import random_playout
from tests.support.stack import make_session_app


@pytest.fixture
def client():
    return make_session_app(fakeredis.FakeRedis(), "bots", GAMES)[0].test_client()


def player(client, name: str, bot: bool) -> dict:
    return client.post("/v1/players", json={"name": name, "bot": bot}).get_json()


def auth(who: dict) -> dict:
    return {"Authorization": f"Bearer {who['key']}"}


def test_a_bot_accounts_seat_is_marked_in_the_resource_the_listing_and_its_own_tables(client):
    bot, ada, cy = player(client, "Shoggoth bot", True), player(client, "Ada", False), player(client, "Cy", True)
    created = client.post("/v1/games", headers=auth(bot), json={"game": "pocket-madness", "seats": [
        {"me": True}, {"open": True}, {"open": True, "player": cy["id"]}, {"name": "Deep One", "ai": "random"}]})
    assert created.status_code == 201, created.get_json()
    table = created.get_json()
    assert [s.get("bot") for s in table["seats"]] == [True, None, None, None]  # cy was invited: not seated yet
    assert client.post(f"/v1/games/{table['id']}/join", headers=auth(ada), json={"seat": 1}).status_code == 200
    assert client.post(f"/v1/games/{table['id']}/join", headers=auth(cy), json={}).status_code == 200
    marks = [s.get("bot") for s in client.get(f"/v1/games/{table['id']}").get_json()["seats"]]
    assert marks == [True, None, True, None]
    listed = client.get("/v1/games", query_string={"game": "pocket-madness"}).get_json()["games"]
    assert [[s.get("bot") for s in g["seats"]] for g in listed if g["id"] == table["id"]] == [marks]
    mine = client.get("/v1/me/games", headers=auth(ada)).get_json()["games"]
    assert [s.get("bot") for s in mine[0]["seats"]] == marks


def test_the_terminal_marks_a_bot_accounts_seat():
    game, entry = GAMES["pocket-madness"], {g["id"]: g for g in catalog(GAMES)["games"]}["pocket-madness"]
    state = random_playout(game, 2, 0, keep_states=True).states[1]
    seen = Seen(json.loads(json.dumps(game.decider.view(state, 0), default=list)), 0, ["Ada", "Shoggoth bot"])
    lines = table_lines(entry["title"], layout_for(entry).table(seen), seen, [None, None], bots=[False, True])
    assert any("Shoggoth bot (bot)" in line for line in lines) and not any("Ada (you) (bot)" in line for line in lines)
