"""For every registered game: all-AI games over HTTP at its fewest and most players reach an outcome (with what the
game's finished table must show: ``FINISHED``), export, verify offline with `mythos audit`, and their `at=N`
states match a local fold of the exported events at every N; the server's own audit agrees. (These are the all-AI
tables of those sizes that test_game_acceptance.py and test_stack_pocket_madness.py would otherwise play again.)"""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys

import pytest

from shared.games import GAMES
from shared.kernel import EVERYONE, Event
from shared.kernel.table import Seating
from session_service.cli import main as cli
from session_service.use_cases.reads import view_of
from tests.support.client import ApiClient
from tests.support.finished import FINISHED

pytestmark = pytest.mark.e2e
MAX_AT_CHECKS = 150


def tables_for(game):
    return sorted({game.catalogue.min_players, game.catalogue.max_players})


@pytest.fixture(scope="module")
def api(stack):
    return ApiClient(stack.url)


@pytest.mark.parametrize("game_id, players", [(g.id, n) for g in GAMES.values() for n in tables_for(g)])
def test_a_finished_game_exports_verifies_offline_and_time_travels(api, tmp_path, capsys, game_id, players):
    game = GAMES[game_id]
    created = api.create(game_id, [{"name": f"Bot {i}", "ai": "random"} for i in range(players)])
    final = api.wait_finished(created["id"], timeout_s=300)
    assert final["outcome"] is not None
    if game_id in FINISHED:
        FINISHED[game_id](final, api.get(f"/v1/games/{created['id']}/state").json())
    audit = api.get(f"/v1/games/{created['id']}/audit").json()  # the server's own audit, beside the offline one
    assert (audit["chain_ok"], audit["replay_ok"], audit["seed_ok"]) == (True, True, True), audit
    assert hashlib.sha256(bytes.fromhex(final["seed"])).hexdigest() == created["seed_commitment"]

    export = api.get(f"/v1/games/{created['id']}/export").json()
    path = tmp_path / "game.json"
    path.write_text(json.dumps(export))
    with pytest.raises(SystemExit) as exited:  # `mythos audit game.json`, in this process (the command's own run is below)
        cli.main(["audit", str(path)])
    said = capsys.readouterr()
    assert exited.value.code == 0, said.out + said.err
    assert "VERIFIED" in said.out

    events = [Event.from_json(r) for r in export["events"]]
    seating = Seating(game)
    stride = max(1, len(events) // MAX_AT_CHECKS)
    table, folded = None, 0  # the local fold of events[:n], carried from one n to the next
    for n in sorted({*range(1, len(events) + 1, stride), len(events)}):
        remote = api.get(f"/v1/games/{created['id']}/state", at=n).json()
        table, folded = seating.fold(table, events[folded:n]), n
        local = view_of(seating, table, EVERYONE)
        assert remote["version"] == n and remote["view"] == json.loads(json.dumps(local)), f"at={n}"


def test_the_mythos_command_verifies_an_export_and_not_once_it_is_tampered_with(api, tmp_path):
    game_id = next(iter(GAMES))
    created = api.create(game_id, [{"name": "A", "ai": "random"}, {"name": "B", "ai": "random"}])
    api.wait_finished(created["id"])
    export = api.get(f"/v1/games/{created['id']}/export").json()
    path = tmp_path / "game.json"
    path.write_text(json.dumps(export))
    verified = subprocess.run([sys.executable, "-m", "session_service.cli.main", "audit", str(path)], capture_output=True, text=True)
    assert verified.returncode == 0 and "VERIFIED" in verified.stdout, verified.stdout + verified.stderr
    export["events"][2]["data"]["tampered"] = True
    path.write_text(json.dumps(export))
    verified = subprocess.run([sys.executable, "-m", "session_service.cli.main", "audit", str(path)], capture_output=True, text=True)
    assert verified.returncode == 1
    assert "hash chain broken at version 3" in verified.stdout


def test_a_running_game_is_not_exported(api):
    created = api.create(next(iter(GAMES)), [{"name": "A"}, {"name": "B"}])
    reply = api.get(f"/v1/games/{created['id']}/export")
    assert reply.status_code == 409 and reply.json()["error"]["code"] == "game/not_finished"
