"""A session process's state cache after a Redis failover took back writes no replica had: the game goes on
from the older version with other events, and a process that cached the lost history must not fold the new
events onto it (it checks the head hash, not just the version)."""

from __future__ import annotations

from tests.support.stack import make_session_app
from tests.support.toy import GAME


def auth(token):
    return {"Authorization": f"Bearer {token}"}


def play(client, game, command):
    state = client.get(f"/v1/games/{game['id']}/state").json
    seat = state["to_act"][0]
    reply = client.post(f"/v1/games/{game['id']}/commands", headers=auth(game["seats"][seat]["token"]),
                        json={"command": command, "expected_version": state["version"]})
    assert reply.status_code == 200, reply.json


def fail_over(fake_redis, store, game_id, replicated):
    """A failover: the replica becomes the primary with the game's log and meta as they were when its meta read
    ``replicated`` (what the replica had); whatever was appended since is gone."""
    events = store.key(game_id, "events")
    kept = fake_redis.xrange(events, "-", f"{replicated[b'version'].decode()}-0")
    fake_redis.delete(events, store.key(game_id, "meta"))
    for entry_id, fields in kept:
        fake_redis.xadd(events, fields, id=entry_id)
    fake_redis.hset(store.key(game_id, "meta"), mapping=replicated)


def test_a_cached_state_whose_history_a_failover_took_back_is_not_used(fake_redis, prefix):
    first, _ = make_session_app(fake_redis, prefix, {"toy": GAME}, RATE_LIMIT_PER_MINUTE=0)
    second, _ = make_session_app(fake_redis, prefix, {"toy": GAME}, RATE_LIMIT_PER_MINUTE=0)
    a, b = first.test_client(), second.test_client()
    game = a.post("/v1/games", json={"game": "toy", "seats": [{"name": "Ada"}, {"name": "Bo"}]}).json
    store = first.extensions["tables"].store
    replicated = fake_redis.hgetall(store.key(game["id"], "meta"))  # what the replica had
    for _ in range(2):
        play(a, game, {"type": "draw_card"})  # acknowledged, cached by the first process, then lost
    fail_over(fake_redis, store, game["id"], replicated)  # the log and meta as they were before those two
    for _ in range(3):  # the game goes on through the other process, with other events, past the lost version
        hand = b.get(f"/v1/games/{game['id']}/state", headers=auth(game["seats"][0]["token"])).json
        plays = [c for c in hand["legal_commands"] if c["type"] == "play_card"]
        play(b, game, plays[0] if plays else {"type": "draw_card"})
    fresh, _ = make_session_app(fake_redis, prefix, {"toy": GAME}, RATE_LIMIT_PER_MINUTE=0)
    truth = fresh.test_client().get(f"/v1/games/{game['id']}/state?seat=0", headers=auth(game["seats"][0]["token"])).json
    seen = a.get(f"/v1/games/{game['id']}/state?seat=0", headers=auth(game["seats"][0]["token"])).json
    assert seen == truth


def test_a_command_on_a_meta_whose_history_a_failover_took_back_writes_nothing_on_it(fake_redis, prefix):
    """A process plays a command on the meta it last wrote, without reading it (issue 32): its append checks the
    log's version *and* head hash, so a history that another took the same version by is never extended."""
    from shared.records import first_broken_link

    first, _ = make_session_app(fake_redis, prefix, {"toy": GAME}, RATE_LIMIT_PER_MINUTE=0)
    second, _ = make_session_app(fake_redis, prefix, {"toy": GAME}, RATE_LIMIT_PER_MINUTE=0)
    a, b = first.test_client(), second.test_client()
    game = a.post("/v1/games", json={"game": "toy", "seats": [{"name": "Ada"}, {"name": "Bo"}]}).json
    store = first.extensions["tables"].store
    replicated = fake_redis.hgetall(store.key(game["id"], "meta"))
    for _ in range(2):
        play(a, game, {"type": "draw_card"})  # the first process knows the game at this version and head
    known = first.extensions["tables"].known_meta(game["id"], None)
    fail_over(fake_redis, store, game["id"], replicated)
    for _ in range(2):
        play(b, game, {"type": "draw_card"})  # the same version again, by another history
    assert store.version(game["id"]) == known.version and store.meta(game["id"])["head_hash"] != known.head_hash
    seat = known.to_act[0]
    command = {"command": {"type": "draw_card"}, "expected_version": known.version}
    stale = a.post(f"/v1/games/{game['id']}/commands", headers=auth(game["seats"][seat]["token"]), json=command)
    assert stale.status_code == 409 and store.version(game["id"]) == known.version  # nothing written
    truth = b.get(f"/v1/games/{game['id']}/state").json
    retry = a.post(f"/v1/games/{game['id']}/commands", headers=auth(game["seats"][truth["to_act"][0]]["token"]),
                   json={**command, "expected_version": truth["version"]})
    assert retry.status_code == 200  # read afresh, it plays on the log's history
    assert first_broken_link(store.records(game["id"])) is None


def test_a_command_refused_on_a_meta_this_process_knew_is_decided_again_on_the_log_s(fake_redis, prefix):
    """Without an expected version a process decides on the meta it knows, which another process may have moved
    past: a refusal on it stands only once the log says the same (a race of retries once answered 422 here)."""
    first, _ = make_session_app(fake_redis, prefix, {"toy": GAME}, RATE_LIMIT_PER_MINUTE=0)
    second, _ = make_session_app(fake_redis, prefix, {"toy": GAME}, RATE_LIMIT_PER_MINUTE=0)
    a, b = first.test_client(), second.test_client()
    game = a.post("/v1/games", json={"game": "toy", "seats": [{"name": "Ada"}, {"name": "Bo"}]}).json
    play(b, game, {"type": "draw_card"})  # the second process knows the game now
    known = second.extensions["tables"].known_meta(game["id"], None)
    play(a, game, {"type": "draw_card"})  # and the first moves it on
    now = a.get(f"/v1/games/{game['id']}").json
    assert now["version"] > known.version and now["to_act"] != known.to_act
    mover = game["seats"][now["to_act"][0]]["token"]
    reply = b.post(f"/v1/games/{game['id']}/commands", headers=auth(mover), json={"command": {"type": "draw_card"}})
    assert reply.status_code == 200, reply.json  # the seat whose turn it is, by the log's word


def test_time_travel_steps_on_from_the_last_table_it_read_and_never_across_a_history_a_failover_took_back(fake_redis, prefix):
    """An audit reads ``at=1, 2, 3 …``: each step folds only the events since the last one this process read (it
    reads two records, not the whole log); after a failover took the read history back, the answer is a fresh
    process's."""
    first, _ = make_session_app(fake_redis, prefix, {"toy": GAME}, RATE_LIMIT_PER_MINUTE=0)
    a = first.test_client()
    game = a.post("/v1/games", json={"game": "toy", "seats": [{"name": "Ada"}, {"name": "Bo"}]}).json
    store = first.extensions["tables"].store
    replicated = fake_redis.hgetall(store.key(game["id"], "meta"))
    for _ in range(4):
        play(a, game, {"type": "draw_card"})
    head = a.get(f"/v1/games/{game['id']}/state").json["version"]
    read = []
    records = store.records
    store.records = lambda *args, **kw: read.append(got := records(*args, **kw)) or got  # count what each step reads
    at = lambda client, n: client.get(f"/v1/games/{game['id']}/state?at={n}").json  # noqa: E731
    for n in range(1, head):
        fresh, _ = make_session_app(fake_redis, prefix, {"toy": GAME}, RATE_LIMIT_PER_MINUTE=0)
        assert at(a, n) == at(fresh.test_client(), n)
    assert [len(got) for got in read] == [1] + [2] * (head - 2)  # the first from the start; then the step's two
    fail_over(fake_redis, store, game["id"], replicated)  # the log as it was before the draws; the game goes on
    mover = a.get(f"/v1/games/{game['id']}/state").json["to_act"][0]  # another history: a card played, not drawn
    hand = a.get(f"/v1/games/{game['id']}/state", headers=auth(game["seats"][mover]["token"])).json
    play(a, game, next(c for c in hand["legal_commands"] if c["type"] == "play_card"))  # one card: under the target
    while a.get(f"/v1/games/{game['id']}/state").json["version"] < head:  # past head - 1: a read of it travels
        play(a, game, {"type": "draw_card"})  # draws score nothing: the game goes on
    fresh, _ = make_session_app(fake_redis, prefix, {"toy": GAME}, RATE_LIMIT_PER_MINUTE=0)
    assert at(a, head - 1) == at(fresh.test_client(), head - 1)
