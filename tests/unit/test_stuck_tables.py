"""A table whose game waits on a seat that has nothing to play (a breach of the kernel's liveness guarantee, issue
27) is seen, never silent: the turn timer and the AI do not raise, the defect is logged with public facts only, the
game resource and the state answer say ``stuck``, its seats may still resign, and the idle rule ends it as abandoned
even when the seat it waits on is an AI seat. On fakeredis with the rules in process, on a toy game made to freeze.
"""

from __future__ import annotations

import dataclasses
import logging
import time

import pytest

from session_service.worker import jobs
from tests.support.stack import make_session_app
from tests.support.toy import GAME

FROZEN = dataclasses.replace(GAME, decider=dataclasses.replace(GAME.decider, legal_commands=lambda state, seat: [],
                                                               timeout_command=lambda state, seat, rand: rand.choice([])))
"""The toy game with a defect: it waits on the seat to play and offers it nothing; its timeout policy, asked anyway,
would raise as Rites of Cthulhu's did (random.choice of nothing)."""


@pytest.fixture
def app(fake_redis, prefix):
    return make_session_app(fake_redis, prefix, {"toy": FROZEN}, RATE_LIMIT_PER_MINUTE=0)[0]


@pytest.fixture
def client(app):
    return app.test_client()


def auth(token):
    return {"Authorization": f"Bearer {token}"}


def create(client, seats, **extra):
    reply = client.post("/v1/games", json={"game": "toy", "seats": seats, **extra})
    assert reply.status_code == 201, reply.json
    return reply.json


def defects(caplog):
    return [r for r in caplog.records if getattr(r, "fields", {}).get("event") == "liveness_defect"]


def test_the_timer_reports_a_seat_with_nothing_to_play_and_the_table_says_it_is_stuck(client, caplog):
    game = create(client, [{"name": "Ada"}, {"name": "Bo"}], turn_timeout_s=5)
    seat, version = game["to_act"][0], game["version"]
    assert game["stuck"] is False
    caplog.set_level(logging.INFO)
    assert jobs.turn_timeout(game["id"], seat, version) == jobs.STUCK
    [line] = defects(caplog)
    assert line.levelno == logging.ERROR
    assert line.fields == {"event": "liveness_defect", "game_id": game["id"], "game": "toy",
                           "rules_version": FROZEN.rules_version, "version": version, "seat": seat}
    assert client.get(f"/v1/games/{game['id']}").json["stuck"] is True
    token = game["seats"][seat]["token"]
    state = client.get(f"/v1/games/{game['id']}/state", headers=auth(token)).json
    assert state["stuck"] is True and state["legal_commands"] == [] and state["to_act"] == [seat]
    # once a version: the timer run again (the sweeper) logs no second defect
    assert jobs.turn_timeout(game["id"], seat, version) == jobs.STUCK and len(defects(caplog)) == 1
    # its seats may still resign; the table at the new version is not known to be stuck until someone finds it
    resigned = client.post(f"/v1/games/{game['id']}/resign", headers=auth(token))
    assert resigned.status_code == 200, resigned.json
    assert client.get(f"/v1/games/{game['id']}").json["stuck"] is False


def test_an_ai_seat_with_nothing_to_play_is_reported_and_its_table_ends_as_abandoned_when_idle(app, client, monkeypatch,
                                                                                               caplog):
    game = create(client, [{"name": "Bot", "ai": "random"}, {"name": "Bo"}])
    seat = game["to_act"][0]
    assert game["seats"][seat]["ai"] == "random"
    caplog.set_level(logging.INFO)
    assert jobs.ai_turn(game["id"], seat, game["version"]) == jobs.STUCK and defects(caplog)
    assert client.get(f"/v1/games/{game['id']}").json["stuck"] is True
    # the idle rule ended only tables whose waited seats are people; nobody can move this one, the AI included
    app.extensions["tables"].store.mark_active(game["id"])
    monkeypatch.setattr(jobs, "IDLE_TABLE_S", 60)
    monkeypatch.setattr(time, "time", lambda real=time.time: real() + 120)
    assert jobs.sweep_once()["idle_ended"] == 1
    ended = client.get(f"/v1/games/{game['id']}").json
    assert ended["status"] == "finished" and ended["outcome"]["reason"] == "abandoned" and ended["stuck"] is False


def test_a_game_in_play_that_waits_on_nobody_is_reported_and_ends_as_abandoned_when_idle(fake_redis, prefix,
                                                                                      monkeypatch, caplog):
    """The other shape of a freeze (found in Out of the Aeons by the liveness suite): no seat to wait on, so no turn
    of anyone's finds it. The sweeper does, and the idle rule ends it."""
    nobody = dataclasses.replace(GAME, decider=dataclasses.replace(GAME.decider, to_act=lambda state: frozenset()))
    app, _ = make_session_app(fake_redis, prefix, {"toy": nobody}, RATE_LIMIT_PER_MINUTE=0)
    client = app.test_client()
    game = create(client, [{"name": "Ada"}, {"name": "Bo"}])
    assert game["status"] == "active" and game["to_act"] == []
    app.extensions["tables"].store.mark_active(game["id"])
    caplog.set_level(logging.INFO)
    monkeypatch.setattr(jobs, "IDLE_TABLE_S", 60)
    assert jobs.sweep_once()["idle_ended"] == 0  # not idle yet: reported, and marked
    [line] = defects(caplog)
    assert line.fields["seat"] is None and "waits on nobody" in line.getMessage()
    assert client.get(f"/v1/games/{game['id']}").json["stuck"] is True
    monkeypatch.setattr(time, "time", lambda real=time.time: real() + 120)
    assert jobs.sweep_once()["idle_ended"] == 1
    assert client.get(f"/v1/games/{game['id']}").json["outcome"]["reason"] == "abandoned"
