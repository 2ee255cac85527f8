"""A way out of a table nobody can move, on the real stack over HTTP (issue 27).

The rules no longer reach a frozen position, so the test makes one the way a defect would: a Rites of Cthulhu
table is played over HTTP into Cthulhu Rises, then forked (``tests/trust/helpers.fork``: the same log, meta and
seat tokens under a new id, with a snapshot at the head) into the position of issue 27's second freeze, a forced
card whose receiver holds nothing to give back. The real services then serve that position: the seat the game
waits on has no legal command; the turn timer finds it, logs the defect and the table says ``stuck``; the seat
resigns; the table's AI cannot move it either; and the idle rule ends it as abandoned.
"""

from __future__ import annotations

import time
from dataclasses import replace

import pytest

from session_service.storage import redis_clients
from session_service.storage.store import EventStore
from shared.games.rites_of_cthulhu import GAME
from shared.games.rites_of_cthulhu.rites.table import without
from shared.games.rites_of_cthulhu.state import Trade
from tests.support.real_stack import running_stack
from tests.support.client import ApiClient
from tests.trust.helpers import fork, live_state

pytestmark = pytest.mark.e2e

IDLE_S = 6  # long enough to read the stuck table, short enough to wait for


@pytest.fixture(scope="module")
def stuck_stack():
    """A stack of its own whose idle rule, sweep and stall detection are short enough to watch."""
    with running_stack("stuck", {"SESSION_WORKERS": "1", "RULES_WORKERS": "1", "RATE_LIMIT_PER_MINUTE": "100000",
                                 "IDLE_TABLE_S": str(IDLE_S), "SWEEP_EVERY_S": "1", "STALLED_AFTER_S": "1"}) as live:
        yield live


def wait_for(check, timeout_s=60.0):
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        found = check()
        if found:
            return found
        time.sleep(0.2)
    raise AssertionError("timed out")


def frozen(state):
    """Issue 27's second freeze: the seat the rite waits on must answer a forced card, and holds no card."""
    table = state.table
    receiver = next(iter(GAME.decider.to_act(state)))
    giver = (receiver + 1) % state.players
    card = table.hands[giver][0]
    table = without(table, giver, [card])
    table = replace(table, hands=tuple(() if s == receiver else h for s, h in enumerate(table.hands)),
                    set_aside=table.set_aside + table.hands[receiver], trade=Trade(giver, receiver, card))
    stuck = replace(state, table=table)
    GAME.decider.invariant(stuck)
    assert GAME.decider.to_act(stuck) == {receiver} and GAME.decider.legal_commands(stuck, receiver) == []
    return stuck, receiver


def test_a_table_nobody_can_move_says_so_lets_its_seats_resign_and_ends_as_abandoned(stuck_stack):
    api = ApiClient(stuck_stack.url)
    source = api.create("rites-of-cthulhu", [{"name": "Ada"}, {"name": "Bo"}, {"name": "Cy"}], turn_timeout_s=3600)
    tokens = {s["seat"]: s["token"] for s in source["seats"]}
    chooser = source["to_act"][0]
    chosen = api.post_command(source["id"], tokens[chooser], {"type": "choose_rite", "rite": "cthulhu_rises"})
    assert chosen.status_code == 200, chosen.text
    r = redis_clients.connect(stuck_stack.effective_redis_url)
    prefix = stuck_stack.key_prefix
    state, seat = frozen(live_state(r, prefix, GAME, source["id"]))
    [game_id] = fork(r, prefix, GAME, source["id"], [state])
    store = EventStore(r, prefix)
    store.set_meta(game_id, deadline="2000-01-01T00:00:00.000Z")  # the seat's time is up
    store.mark_active(game_id)  # what the scheduler does after every change: the sweeper now looks at it

    resource = api.get(f"/v1/games/{game_id}").json()
    assert resource["status"] == "active" and resource["to_act"] == [seat]
    assert api.get(f"/v1/games/{game_id}/state", tokens[seat]).json()["legal_commands"] == []
    # The turn timer finds nothing to play for the seat: it does not raise, it reports, and the table says so.
    stuck = wait_for(lambda: (g := api.get(f"/v1/games/{game_id}").json())["stuck"] and g)
    assert stuck["version"] == resource["version"] and stuck["status"] == "active"
    assert api.get(f"/v1/games/{game_id}/state", tokens[seat]).json()["stuck"] is True
    logged = (stuck_stack.log_dir / "worker.log").read_text()
    defect = [line for line in logged.splitlines() if "liveness defect" in line and game_id in line]
    assert defect and f"waits on seat {seat} at version {resource['version']}" in defect[0]
    # The seat may resign; the table's AI, now playing it, has nothing to play either.
    resigned = api.http.post(f"{api.base}/v1/games/{game_id}/resign", headers={"Authorization": f"Bearer {tokens[seat]}"},
                             timeout=30)
    assert resigned.status_code == 200, resigned.text
    assert api.get(f"/v1/games/{game_id}").json()["seats"][seat]["ai"]
    # Nobody can move it: once idle it ends as abandoned, though the seat it waits on is now an AI seat.
    final = wait_for(lambda: (g := api.get(f"/v1/games/{game_id}").json())["status"] == "finished" and g,
                     timeout_s=IDLE_S + 60)
    assert final["outcome"]["reason"] == "abandoned" and final["outcome"]["winners"] == [] and final["stuck"] is False
