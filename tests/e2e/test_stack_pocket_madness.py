"""End to end: the real stack plays Pocket Madness over HTTP."""

from __future__ import annotations

import threading

import orjson
import pytest

from shared.records import first_broken_link
from tests.support.client import ApiClient

pytestmark = pytest.mark.e2e


@pytest.fixture(scope="module")
def api(stack):
    return ApiClient(stack.url)


@pytest.mark.parametrize("seats", [3])  # 2 and 4 (the fewest and most): test_audit_every_game.py, the same checks
def test_an_all_ai_table_plays_to_an_outcome_by_itself(api, seats):
    game = api.create("pocket-madness", [{"name": f"Bot {i}", "ai": "random"} for i in range(seats)])
    final = api.wait_finished(game["id"])
    assert final["outcome"]["winners"]
    audit = api.get(f"/v1/games/{game['id']}/audit").json()
    assert (audit["chain_ok"], audit["replay_ok"], audit["seed_ok"]) == (True, True, True)


def test_a_table_with_human_seats_is_played_to_the_end_through_legal_commands(api):
    game = api.create("pocket-madness", [{"name": "Ada"}, {"name": "Bot", "ai": "random"}, {"name": "Cy"}])
    final = api.play_humans(game, seed=7)
    assert final["status"] == "finished"
    events = api.get(f"/v1/games/{game['id']}/events", limit=1000).json()["events"]
    assert [e["version"] for e in events] == list(range(1, len(events) + 1))


def test_twenty_clients_with_one_expected_version_give_one_success_and_409s(api):
    game = api.create("pocket-madness", [{"name": "Ada"}, {"name": "Bo"}])
    tokens = {s["seat"]: s["token"] for s in game["seats"]}
    state_of = lambda seat: api.get(f"/v1/games/{game['id']}/state", tokens[seat]).json()  # noqa: E731
    seat = state_of(0)["to_act"][0]
    state = state_of(seat)
    command, version = state["legal_commands"][0], state["version"]
    statuses: list[int] = []
    barrier = threading.Barrier(20)

    def post():
        client = ApiClient(api.base)
        barrier.wait()
        reply = client.post_command(game["id"], tokens[seat], command, version)
        statuses.append(reply.status_code if reply.status_code in (200, 409) else (reply.status_code, reply.text))

    threads = [threading.Thread(target=post) for _ in range(20)]
    [t.start() for t in threads]
    [t.join() for t in threads]
    assert sorted(statuses, key=str) == [200] + [409] * 19, statuses
    audit = api.get(f"/v1/games/{game['id']}/audit").json()
    assert audit["chain_ok"]


def test_the_same_idempotency_key_posted_twice_writes_once_and_answers_the_same(api):
    game = api.create("pocket-madness", [{"name": "Ada"}, {"name": "Bo"}])
    tokens = {s["seat"]: s["token"] for s in game["seats"]}
    seat = game["to_act"][0]
    state = api.get(f"/v1/games/{game['id']}/state", tokens[seat]).json()
    first = api.post_command(game["id"], tokens[seat], state["legal_commands"][0], key="same-key")
    second = api.post_command(game["id"], tokens[seat], state["legal_commands"][0], key="same-key")
    assert first.status_code == second.status_code == 200
    assert first.json() == second.json()
    assert api.get(f"/v1/games/{game['id']}").json()["version"] == first.json()["version"]


def test_the_event_stream_resumes_without_gaps_or_state_and_ends_with_the_outcome(api):
    game = api.create("pocket-madness", [{"name": "Bot", "ai": "random"}, {"name": "Bot", "ai": "random"}])
    final = api.wait_finished(game["id"])
    reply = api.http.get(f"{api.base}/v1/games/{game['id']}/events/stream", headers={"Last-Event-ID": "5"}, stream=True, timeout=30)
    messages = [m for m in reply.text.split("\n\n") if m.strip()]
    assert not any(m.startswith("event: state") or "\nevent: state" in m for m in messages)  # a resume sends no state
    ids = [int(line[4:]) for m in messages for line in m.splitlines() if line.startswith("id: ")]
    assert ids == list(range(6, final["version"] + 1))
    assert messages[-1].startswith("event: end")
    assert orjson.loads(messages[-1].split("data: ", 1)[1]) == {"game": final["game"], "version": final["version"], "outcome": final["outcome"]}


def test_the_finished_game_reveals_its_seed_matching_the_commitment(api):
    import hashlib

    game = api.create("pocket-madness", [{"name": "Bot", "ai": "random"}, {"name": "Bot", "ai": "random"}])
    final = api.wait_finished(game["id"])
    assert hashlib.sha256(bytes.fromhex(final["seed"])).hexdigest() == game["seed_commitment"]
    export = api.get(f"/v1/games/{game['id']}/export").json()
    assert first_broken_link(export["events"]) is None
