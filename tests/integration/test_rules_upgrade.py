"""Rules upgrades with games in flight (issue 22): a game started under toy/1 is half played, the server is
"upgraded" to toy/2 (which keeps toy/1 in ``retired``), and the game is finished under toy/1, its audit and its
export verifying; a new game starts under toy/2; a server that no longer provides toy/1 refuses the old game
with nothing written, and never decides it by other rules."""

from __future__ import annotations

from dataclasses import replace

import pytest

from rules_service.app import create_app as rules_app
from shared.audit import verify_export
from shared.games.toy.commands import DrawCard
from shared.games.toy.v2 import GAME as TOY_2, GAME_V1 as TOY_1, HAND_LIMIT
from shared.kernel import entropy_for
from session_service.use_cases import upgrades
from tests.support.stack import make_session_app

SEATS = [{"name": "Ada"}, {"name": "Bo"}]


def server(fake_redis, prefix, game):
    """A session service on the shared Redis, running the code of one release (``game``: its toy)."""
    app, _ = make_session_app(fake_redis, prefix, {"toy": game}, RATE_LIMIT_PER_MINUTE=0)
    return app.test_client()


def play(client, game, moves: int | None = None) -> list[dict]:
    """Play ``moves`` commands (all of them: to the end), each seat drawing while it may, else playing a card."""
    played = []
    while moves is None or len(played) < moves:
        resource = client.get(f"/v1/games/{game['id']}").json
        if resource["status"] != "active":
            break
        seat = resource["to_act"][0]
        token = {"Authorization": f"Bearer {game['seats'][seat]['token']}"}
        state = client.get(f"/v1/games/{game['id']}/state", headers=token).json
        command = state["legal_commands"][0]  # draw_card whenever it is legal
        reply = client.post(f"/v1/games/{game['id']}/commands", json={"command": command}, headers=token)
        assert reply.status_code == 200, reply.json
        played.append({"seat": seat, "command": command, "hand": len(state["view"]["hands"][seat])})
    return played


def test_a_game_started_under_n_is_finished_under_n_after_the_upgrade_and_its_audit_passes(fake_redis, prefix):
    before = server(fake_redis, prefix, TOY_1)
    game = before.post("/v1/games", json={"game": "toy", "seats": SEATS}).json
    assert game["rules_version"] == "toy/1"
    play(before, game, moves=3)

    after = server(fake_redis, prefix, TOY_2)  # the deploy: same Redis, the next release's code
    newer = after.post("/v1/games", json={"game": "toy", "seats": SEATS}).json
    assert newer["rules_version"] == "toy/2"
    rest = play(after, game)
    assert after.get(f"/v1/games/{game['id']}").json["status"] == "finished"
    # toy/2 would have refused these draws: they were decided by toy/1, the version the game started under
    assert any(m["command"]["type"] == "draw_card" and m["hand"] >= HAND_LIMIT for m in rest)

    audit = after.get(f"/v1/games/{game['id']}/audit").json
    assert audit["replay_ok"] is True and audit["first_divergence"] is None and audit["rules_version"] == "toy/1"
    export = after.get(f"/v1/games/{game['id']}/export").json
    assert {e["rules"] for e in export["events"]} == {"toy/1"}
    assert verify_export(export, {"toy": TOY_2})["ok"]  # the new release's offline audit verifies it too

    # and the audit can fail: code that provides toy/2 only cannot re-decide it, and says so
    report = verify_export(export, {"toy": replace(TOY_2, retired=())})
    assert not report["ok"] and "rules version not provided" in report["first_divergence"]["problem"]


def test_a_new_game_after_the_upgrade_is_decided_by_the_new_rules(fake_redis, prefix):
    after = server(fake_redis, prefix, TOY_2)
    game = after.post("/v1/games", json={"game": "toy", "seats": SEATS}).json
    moves = play(after, game)
    assert all(m["hand"] < HAND_LIMIT for m in moves if m["command"]["type"] == "draw_card")
    assert after.get(f"/v1/games/{game['id']}/audit").json["replay_ok"] is True


def test_a_game_whose_rules_are_no_longer_provided_is_refused_with_nothing_written(fake_redis, prefix):
    before = server(fake_redis, prefix, TOY_1)
    game = before.post("/v1/games", json={"game": "toy", "seats": SEATS}).json
    play(before, game, moves=2)
    version = before.get(f"/v1/games/{game['id']}").json["version"]

    dropped = server(fake_redis, prefix, replace(TOY_2, retired=()))  # a release that dropped toy/1 too early
    token = {"Authorization": f"Bearer {game['seats'][0]['token']}"}
    reply = dropped.post(f"/v1/games/{game['id']}/commands", json={"command": {"type": "draw_card"}}, headers=token)
    assert reply.status_code == 503 and reply.json["error"]["code"] == "service/unavailable"
    assert reply.json["error"]["details"] == {"rules_version": "toy/1", "provided": ["toy/2"]}
    assert dropped.get(f"/v1/games/{game['id']}").json["version"] == version

    restored = server(fake_redis, prefix, TOY_2)  # redeploying a release that provides toy/1 resumes it
    assert play(restored, game) and restored.get(f"/v1/games/{game['id']}/audit").json["replay_ok"] is True


@pytest.fixture
def rules():
    return rules_app({"GAMES": {"toy": TOY_2}}).test_client()


def test_the_rules_service_decides_with_the_version_asked_for(rules):
    entropy = entropy_for(b"seed", 0).hex()
    events = rules.post("/v1/setup", json={"game": "toy", "players": 2, "entropy": entropy, "rules_version": "toy/1"}).json
    assert events["rules_version"] == "toy/1"
    state = TOY_1.replay(TOY_1.start(2, {}, bytes.fromhex(entropy))[1])
    for seat in (0, 1, 0, 1):  # both seats draw twice: seat 0 holds three cards
        state = TOY_1.checked_decide(state, DrawCard(), seat, bytes.fromhex(entropy)).state
    body = {"game": "toy", "state": TOY_1.codec.encode(state), "command": {"type": "draw_card"}, "seat": 0, "entropy": entropy}
    old = rules.post("/v1/decide", json={**body, "rules_version": "toy/1"})
    assert old.status_code == 200 and old.json["rules_version"] == "toy/1"
    new = rules.post("/v1/decide", json=body)  # no version: the current one
    assert new.status_code == 422 and new.json["error"]["code"] == "rules/hand_full"
    gone = rules.post("/v1/decide", json={**body, "rules_version": "toy/0"})
    assert gone.status_code == 422 and gone.json["error"]["code"] == "rules/unknown_rules_version"
    assert gone.json["error"]["details"] == {"provided": ["toy/2", "toy/1"]}


def test_rules_in_use_says_whether_a_release_provides_every_version_in_play(fake_redis, prefix, capsys):
    before = server(fake_redis, prefix, TOY_1)
    old = before.post("/v1/games", json={"game": "toy", "seats": SEATS}).json
    done = before.post("/v1/games", json={"game": "toy", "seats": SEATS}).json
    play(before, done)
    after = server(fake_redis, prefix, TOY_2)
    new = after.post("/v1/games", json={"game": "toy", "seats": SEATS}).json
    store = after.application.extensions["tables"].store
    for game in (old, done, new):
        store.mark_active(game["id"])  # what the RQ scheduler does after every change (the test's records instead)

    assert upgrades.report(store, {"toy": TOY_2}) == 0
    assert upgrades.in_use(store, {"toy": TOY_2})["in_use"] == [
        {"game": "toy", "rules_version": "toy/1", "games": 1, "provided": True},
        {"game": "toy", "rules_version": "toy/2", "games": 1, "provided": True}]
    capsys.readouterr()
    assert upgrades.report(store, {"toy": replace(TOY_2, retired=())}) == 1
    out = capsys.readouterr().out
    assert "toy/1" in out and "NOT PROVIDED" in out and "would stop those games" in out
