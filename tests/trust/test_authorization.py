"""Authorization on the real stack, for every registered game: a seat token acts and reads for its own seat
of its own game only, spectators never act, and tokens are kept only as hashes, compared in constant time."""

from __future__ import annotations

import hashlib
import random

import pytest

from shared.games import GAMES
from tests.support.properties import canonical
from tests.trust.conftest import GAME_IDS
from tests.trust.helpers import live_state, play_random, record_figures

pytestmark = pytest.mark.e2e


def table(api, game_id: str, seed: int) -> dict:
    """A running game with every seat human, played to a random position."""
    game = GAMES[game_id]
    players = max(game.catalogue.min_players, min(game.catalogue.max_players, 3))
    created = api.create(game_id, [{"name": f"Seat {i}"} for i in range(players)])
    play_random(api, created, random.Random(seed), 3)
    return created


def version(api, game_id: str) -> int:
    return api.get(f"/v1/games/{game_id}").json()["version"]


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_a_token_acts_only_for_its_own_seat(api, stack, trust_redis, game_id):
    created = table(api, game_id, 1)
    tokens = {s["seat"]: s["token"] for s in created["seats"] if s.get("token")}
    refused = accepted = 0
    for _ in range(6):
        resource = api.get(f"/v1/games/{created['id']}").json()
        if resource["status"] != "active":
            break
        for seat, token in tokens.items():
            mine = {canonical(c) for c in api.state(created["id"], token).json()["legal_commands"]}
            for other in resource["to_act"]:
                if other == seat or other not in tokens:
                    continue
                for command in api.state(created["id"], tokens[other]).json()["legal_commands"][:5]:
                    if canonical(command) in mine:
                        continue
                    before = version(api, created["id"])
                    reply = api.command(created["id"], token, command)
                    assert reply.status_code in (400, 422), reply.text
                    assert version(api, created["id"]) == before
                    refused += 1
        # Move on with an accepted command and check it is recorded for the token's seat.
        seat = resource["to_act"][0]
        state = api.state(created["id"], tokens[seat]).json()
        reply = api.command(created["id"], tokens[seat], state["legal_commands"][0], state["version"])
        assert reply.status_code == 200, reply.text
        assert {e["seat"] for e in reply.json()["events"][:1]} == {seat}
        accepted += 1
    record_figures("authorization", game=game_id, foreign_commands_refused=refused)


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_a_token_reads_its_own_seat_only_and_gets_exactly_that_seats_view(api, stack, trust_redis, game_id):
    created = table(api, game_id, 2)
    game = GAMES[game_id]
    state = live_state(trust_redis, stack.key_prefix, game, created["id"])
    for seat in created["seats"]:
        if not seat.get("token"):
            continue
        reply = api.state(created["id"], seat["token"]).json()
        assert canonical(reply["view"]) == canonical(game.decider.view(state, seat["seat"]))
        assert canonical(reply["legal_commands"]) == canonical([c.to_wire() for c in game.decider.legal_commands(state, seat["seat"])])
        for other in range(len(created["seats"])):
            asked = api.get(f"/v1/games/{created['id']}/state", seat["token"], seat=other)
            if other == seat["seat"]:
                assert asked.status_code == 200
            else:
                assert asked.status_code == 403 and asked.json()["error"]["code"] == "auth/not_your_seat"
    spectator = api.state(created["id"], None).json()
    assert canonical(spectator["view"]) == canonical(game.decider.view(state, None)) and spectator["legal_commands"] == []
    for other in range(len(created["seats"])):
        asked = api.get(f"/v1/games/{created['id']}/state", None, seat=other)
        assert asked.status_code == 403 and asked.json()["error"]["code"] == "auth/not_your_seat"


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_a_token_of_one_game_opens_nothing_in_another(api, game_id):
    first, second = table(api, game_id, 3), table(api, game_id, 4)
    token = next(s["token"] for s in first["seats"] if s.get("token"))
    before = version(api, second["id"])
    for path in ("state", "events", "events/stream"):
        reply = api.get(f"/v1/games/{second['id']}/{path}", token)
        assert reply.status_code == 401 and reply.json()["error"]["code"] == "auth/bad_token", (path, reply.text)
    legal = [c for s in second["seats"] if s.get("token") for c in api.state(second["id"], s["token"]).json()["legal_commands"]]
    for command in legal[:10] or [{"type": "anything"}]:
        reply = api.command(second["id"], token, command, key="cross-game")
        assert reply.status_code == 401 and reply.json()["error"]["code"] == "auth/bad_token"
    assert version(api, second["id"]) == before


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_spectators_and_bad_tokens_cannot_act(api, game_id):
    created = table(api, game_id, 5)
    gid = created["id"]
    legal = [c for s in created["seats"] if s.get("token") for c in api.state(gid, s["token"]).json()["legal_commands"]]
    before = version(api, gid)
    good = next(s["token"] for s in created["seats"] if s.get("token"))
    attempts = [
        ({}, 401, "auth/missing_token"),
        ({"Authorization": "Bearer "}, 401, "auth/bad_token"),
        ({"Authorization": "Bearer not-a-token"}, 401, "auth/bad_token"),
        ({"Authorization": f"Bearer {good}x"}, 401, "auth/bad_token"),
        ({"Authorization": f"Bearer {good[:-1]}"}, 401, "auth/bad_token"),
        ({"Authorization": f"Bearer {good.upper()}"}, 401, "auth/bad_token"),
        ({"Authorization": f"Basic {good}"}, 401, "auth/bad_token"),
        ({"Authorization": good}, 401, "auth/bad_token"),
        ({"Authorization": f"Bearer {hashlib.sha256(good.encode()).hexdigest()}"}, 401, "auth/bad_token"),
    ]
    for headers, status, code in attempts:
        for command in legal[:3]:
            reply = api.http.post(f"{api.base}/v1/games/{gid}/commands", headers=headers,
                                  json={"command": command, "expected_version": before}, timeout=30)
            assert (reply.status_code, reply.json()["error"]["code"]) == (status, code), (headers, reply.text)
    assert version(api, gid) == before


def test_tokens_are_stored_only_as_hashes(api, stack, trust_redis):
    tokens = []
    for game_id in GAME_IDS:
        created = table(api, game_id, 6)
        tokens += [s["token"] for s in created["seats"] if s.get("token")]
    dump = b""
    for key in trust_redis.scan_iter(match=f"{stack.key_prefix}:*", count=1000):
        kind = trust_redis.type(key)
        if kind == b"hash":
            dump += b"".join(k + v for k, v in trust_redis.hgetall(key).items())
        elif kind == b"stream":
            dump += b"".join(v for _, fields in trust_redis.xrange(key) for v in fields.values())
        elif kind == b"string":
            dump += trust_redis.get(key) or b""
        elif kind in (b"set", b"zset"):
            dump += b"".join(trust_redis.smembers(key) if kind == b"set" else trust_redis.zrange(key, 0, -1))
    assert tokens and dump
    for token in tokens:
        assert token.encode() not in dump
        assert hashlib.sha256(token.encode()).hexdigest().encode() in dump


def test_a_token_is_compared_with_every_seat_in_constant_time(monkeypatch):
    """Every seat's hash is compared with hmac.compare_digest, whichever seat matches or none: no early exit."""
    import hmac

    from session_service.use_cases import meta as meta_module
    from session_service.use_cases.errors import BadToken
    from session_service.use_cases.meta import Meta, token_hash
    from session_service.use_cases.reads import TableReads

    calls, real = [], hmac.compare_digest
    monkeypatch.setattr(meta_module.hmac, "compare_digest", lambda a, b: calls.append((a, b)) or real(a, b))
    tokens = ["alpha", "beta", None, "gamma"]
    seats = [{"seat": i, "name": str(i), "ai": None if t else "random", "token_hash": token_hash(t) if t else None} for i, t in enumerate(tokens)]
    meta = Meta("g_x", "toy", "active", 1, seats, b"", "", {}, None, "toy/1", "", [0], None, None, "", "")
    tables = TableReads()  # the read side alone: seat_of needs no store
    for token, seat in (("alpha", 0), ("beta", 1), ("gamma", 3)):
        calls.clear()
        assert tables.seat_of(meta, token) == seat
        assert len(calls) == 3
    calls.clear()
    with pytest.raises(BadToken):
        tables.seat_of(meta, "delta")
    assert len(calls) == 3


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_an_ai_seat_has_no_token_and_only_the_worker_moves_it(api, game_id):
    game = GAMES[game_id]
    created = api.create(game_id, [{"name": "Ada"}] + [{"name": f"Bot {i}", "ai": "random"} for i in range(game.catalogue.min_players - 1)])
    assert [bool(s.get("token")) for s in created["seats"]] == [True] + [False] * (game.catalogue.min_players - 1)
    play_random(api, created, random.Random(7), 8)
    events = api.get(f"/v1/games/{created['id']}/events", created["seats"][0]["token"], limit=1000).json()["events"]
    assert all(e["by"] == "ai" for e in events if e["seat"] not in (0, None))
