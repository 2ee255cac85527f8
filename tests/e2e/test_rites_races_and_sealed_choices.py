"""The Rites' racing and sealed decisions on the real stack: a knock race and a sealed bid."""

from __future__ import annotations

import threading

import pytest

from shared.games import GAMES
from tests.support.client import ApiClient
from tests.support.replays import replay_until
from tests.support.scenario import offered

pytestmark = pytest.mark.e2e
GAME = GAMES["rites-of-cthulhu"]


def knockers(state):
    return [s for s in range(state.players) if any(c["type"] == "knock" for c in offered(GAME, state, s))]


def test_a_knock_race_yields_exactly_one_capture_and_clear_refusals_in_arrival_order(stack):
    api = ApiClient(stack.url)
    game_id, tokens, version, state = replay_until(api, GAME, 0, 4, lambda st, c: c["type"] == "call_knock" and len(knockers(st)) >= 2)
    claims = {s: next(c for c in offered(GAME, state, s) if c["type"] == "knock") for s in knockers(state)}
    answers: dict[int, object] = {}
    barrier = threading.Barrier(len(claims))

    def claim(seat):
        client = ApiClient(api.base)
        barrier.wait()
        answers[seat] = client.post_command(game_id, tokens[seat], claims[seat])

    threads = [threading.Thread(target=claim, args=(s,)) for s in claims]
    [t.start() for t in threads]
    [t.join() for t in threads]
    winners = [s for s, r in answers.items() if r.status_code == 200]
    assert len(winners) == 1, {s: (r.status_code, r.text) for s, r in answers.items()}
    for seat, reply in answers.items():
        if seat not in winners:
            assert reply.status_code == 422 and reply.json()["error"]["code"].startswith("rules/"), reply.text
            assert reply.json()["error"]["message"]
    log = api.get(f"/v1/games/{game_id}/events", after=version).json()["events"]
    claimed = [e for e in log if e["type"] == "wall_claimed"]
    assert len(claimed) == 1 and claimed[0]["seat"] == winners[0]
    assert api.get(f"/v1/games/{game_id}/audit").json()["chain_ok"]


def test_a_sealed_bid_is_invisible_to_other_seats_until_the_reveal(stack):
    api = ApiClient(stack.url)
    game_id, tokens, version, state = replay_until(api, GAME, 3, 4, lambda st, c: c["type"] == "bid")
    resource = api.get(f"/v1/games/{game_id}").json()
    bidders = resource["to_act"]
    sealed = [e for e in api.get(f"/v1/games/{game_id}/events", after=version - 3).json()["events"] if e["type"] == "bid_sealed"]
    bidder = sealed[-1]["seat"]
    mine = api.get(f"/v1/games/{game_id}/events", tokens[bidder], after=version - 3).json()["events"]
    assert "card" in [e for e in mine if e["type"] == "bid_sealed"][-1]["data"]
    for other in (s for s in tokens if s != bidder):
        theirs = api.get(f"/v1/games/{game_id}/events", tokens[other], after=version - 3).json()["events"]
        assert "card" not in [e for e in theirs if e["type"] == "bid_sealed"][-1]["data"]
        stream = api.http.get(f"{api.base}/v1/games/{game_id}/events/stream?after={version - 3}",
                              headers={"Authorization": f"Bearer {tokens[other]}"}, stream=True, timeout=10)
        text = ""
        for chunk in stream.iter_content(chunk_size=None, decode_unicode=True):
            text += chunk
            if "bid_sealed" in text.split("event: state", 1)[-1] and text.endswith("\n\n"):
                break
        stream.close()
        sse_bid = [m for m in text.split("\n\n") if '"type":"bid_sealed"' in m][-1]
        assert '"card"' not in sse_bid.split('"data":', 1)[1]
    # once every bidder has bid, one public reveal shows every bid to everyone
    play_rest = {s: next(c for c in api.get(f"/v1/games/{game_id}/state", tokens[s]).json()["legal_commands"] if c["type"] == "bid")
                 for s in bidders}
    for seat, command in play_rest.items():
        assert api.post_command(game_id, tokens[seat], command).status_code == 200
    events = api.get(f"/v1/games/{game_id}/events", tokens[bidder], after=version).json()["events"]
    reveal = [e for e in events if e["type"] == "bids_revealed"]
    assert reveal and len(reveal[0]["data"]["bids"]) >= 2
