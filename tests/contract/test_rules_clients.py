"""The rules clients' contract: every door to the rules service decides alike (issue 32).

The session service reaches the rules over its internal hop (``HopRules``, rules_service/hop.py); third parties
over the public HTTP API (``HttpRules`` speaks it); unit tests decide in process (``LocalRules``). The same setups
and decisions, and the same refusals, go through all three against one real rules service (gunicorn, started from
deploy/gunicorn_rules.py as every stack starts it), and every answer must be the same: events, options and rules
version, or the same exception with the same code and details.
"""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import orjson
import pytest
import requests

from deploy.stacks.dev import DEPLOY, free_port
from session_service.rules_client import (
    FRAME, HopRules, HttpRules, LocalRules, Ruling, decide_body, decide_fields, setup_body,
)
from session_service.use_cases.errors import Unavailable
from shared.games import GAMES
from shared.kernel import RuleViolation, entropy_for, fold
from shared.kernel.game import GameOver
from shared.wire.commands import MalformedCommand
from tests.support.properties import random_playout
from tests.support.stack import TEST_HOP_SECRET

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def rules_service(tmp_path_factory):
    """One rules service under gunicorn with its public HTTP API and its hop, on free ports."""
    http_port, hop_port = free_port(), free_port()
    log = open(tmp_path_factory.mktemp("rules") / "rules.log", "ab")
    process = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "-c", str(DEPLOY / "gunicorn_rules.py"), "--bind", f"127.0.0.1:{http_port}",
         "rules_service.app:create_app()"], cwd=ROOT, stdout=log, stderr=subprocess.STDOUT, start_new_session=True,
        env={**os.environ, "RULES_HOP_BIND": f"127.0.0.1:{hop_port}", "RULES_WORKERS": "1", "HOP_SECRET": TEST_HOP_SECRET})
    hop = HopRules(f"tcp://127.0.0.1:{hop_port}", TEST_HOP_SECRET.encode())
    deadline = time.monotonic() + 60
    while not hop.ready():
        assert process.poll() is None and time.monotonic() < deadline, f"the rules service did not start: {log.name}"
        time.sleep(0.1)
    try:
        yield {"in process": LocalRules(), "hop": hop, "public API": HttpRules(f"http://127.0.0.1:{http_port}")}
    finally:
        os.killpg(process.pid, signal.SIGTERM)
        process.wait(30)


def outcome(call) -> Any:
    """What a client answered: its value as JSON, or its exception's kind, code and details."""
    try:
        value = call()
    except RuleViolation as exc:
        return ("RuleViolation", exc.code, exc.details)
    except MalformedCommand as exc:
        return ("MalformedCommand", exc.details)
    except GameOver:
        return ("GameOver",)
    except Unavailable as exc:
        return ("Unavailable", exc.code)
    if isinstance(value, Ruling):  # a decide: its events (the hop's name for the position after them aside)
        return [e.to_json() for e in value.events]
    if isinstance(value, tuple):  # setup: options and events
        return value[0], [e.to_json() for e in value[1]]
    if isinstance(value, dict):  # a raw answer
        return value
    return [e.to_json() for e in value]


def same_everywhere(clients: dict[str, Any], call) -> Any:
    answers = {name: outcome(lambda client=client: call(client)) for name, client in clients.items()}
    first = answers["in process"]
    assert all(answer == first for answer in answers.values()), answers
    return first


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_a_whole_game_and_its_refusals_decide_alike_through_every_client(rules_service, game_id):
    game = GAMES[game_id]
    play = random_playout(game, game.catalogue.min_players, seed=11, keep_states=True)
    _, setup = same_everywhere(rules_service, lambda c: c.setup(game, game.catalogue.min_players, {}, entropy_for(b"s", 0)))
    assert setup
    chooser = random.Random(3)
    for step, ((seat, command), state) in enumerate(zip(play.commands, play.states)):
        entropy = entropy_for(b"contract", step)
        events = same_everywhere(rules_service, lambda c: c.decide(game, state, command, seat, entropy))
        assert events, f"{game_id}: a legal command decided no event"
        if step % 7 == 0:  # refusals, now and then: another seat's move, a made-up command, a broken one
            other = chooser.choice([s for s in range(game.catalogue.min_players) if s != seat] or [seat])
            same_everywhere(rules_service, lambda c: c.decide(game, state, command, other, entropy))
            same_everywhere(rules_service, lambda c: c.decide(game, state, {"type": "no_such_command"}, seat, entropy))
            same_everywhere(rules_service, lambda c: c.decide(game, state, {**command, "type": 7}, seat, entropy))
    final = play.states[-1]
    assert game.decider.outcome(final) is not None
    over = same_everywhere(rules_service, lambda c: c.decide(game, final, play.commands[-1][1], 0, entropy_for(b"x", 1)))
    assert over[0] in ("GameOver", "RuleViolation"), over


def test_a_rules_version_no_process_provides_is_unavailable_through_both_doors(rules_service):
    """What a session service of a newer release would ask of an older rules process: never decided under it."""
    body = {**setup_body(GAMES["rites-of-cthulhu"], 2, {}, b"e"), "rules_version": "9999-12-31"}
    hop, public = rules_service["hop"], rules_service["public API"]
    answers = [outcome(lambda: hop._call({"op": "setup", **body})), outcome(lambda: public._post("/v1/setup", body))]
    assert answers == [("Unavailable", "service/unavailable")] * 2


def test_the_public_api_answers_what_the_hop_answers_byte_for_byte(rules_service):
    """The same decide as a third party posts it and as the session service frames it: one body."""
    game = GAMES["arkham-ritual"]
    play = random_playout(game, game.catalogue.min_players, seed=5)
    state = fold(game, play.events[:play.batches[0]])
    seat, command = play.commands[0]
    body = decide_body(game, state, command, seat, entropy_for(b"y", 1))
    public = requests.post(rules_service["public API"].base_url + "/v1/decide", json=body, timeout=10)
    assert public.status_code == 200
    framed = rules_service["hop"]._call({"op": "decide", **body})
    assert isinstance(framed.pop("kept"), str)  # the hop's own: the name of the position it keeps
    assert framed == public.json()


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_a_game_decided_on_kept_positions_decides_as_one_sent_its_states(rules_service, game_id):
    """The hop keeps each position it decided (rules_service/hop.py): a whole game decided by naming them, with
    no state sent after the first, decides each command as the in-process rules decide it from the state (folded
    here from the events decided so far)."""
    game, hop, chooser = GAMES[game_id], rules_service["hop"], random.Random(8)
    state = fold(game, game.start(game.catalogue.min_players, {}, entropy_for(b"kept", -1))[1])
    kept, step = None, 0
    while game.decider.outcome(state) is None and step < 400:
        seat = min(game.decider.to_act(state))
        command = chooser.choice(game.decider.legal_commands(state, seat)).to_wire()
        entropy = entropy_for(b"kept", step)
        expected = LocalRules().decide(game, state, command, seat, entropy).events
        fields = {"op": "decide", **decide_fields(game, command, seat, entropy)}
        answer = hop._call({**fields, "kept": kept} if kept else {**fields, "state": game.codec.encode(state)})
        assert answer["events"] == [e.to_json() for e in expected], f"{game_id}: step {step} decided otherwise"
        kept, state, step = answer["kept"], fold(game, expected, state), step + 1
    assert step > 10


def test_a_position_the_hop_does_not_keep_is_asked_for_and_then_sent(rules_service):
    """A name the rules process lacks (restarted, evicted, another game's) is answered ``position/unknown`` and
    the client sends the state instead: same events, and nothing refused."""
    hop, game = rules_service["hop"], GAMES["pocket-madness"]
    play = random_playout(game, 2, seed=2, keep_states=True)
    (seat, command), state = play.commands[0], play.states[0]
    fields = {"op": "decide", **decide_fields(game, command, seat, entropy_for(b"u", 0))}
    process = hop._call({**fields, "state": game.codec.encode(state)})["kept"].partition(".")[0]
    other = GAMES["arkham-ritual"]
    other_kept = hop._call({"op": "decide", **decide_fields(other, *random_playout(other, 4, seed=1).commands[0][::-1],
                                                               entropy_for(b"o", 0)), "state": other.codec.encode(
        random_playout(other, 4, seed=1, keep_states=True).states[0])})
    for name in (f"{process}.999999999", "nobody.1", other_kept.get("kept", "x.1"), 7):
        status, body = hop._roundtrip({**fields, "kept": name})
        assert (status, body["error"]["code"]) == (404, "position/unknown"), name
        ruling = hop.decide(game, state, command, seat, entropy_for(b"u", 0), kept=name if isinstance(name, str) else None)
        assert [e.to_json() for e in ruling.events] == [
            e.to_json() for e in LocalRules().decide(game, state, command, seat, entropy_for(b"u", 0)).events]


def test_odd_bodies_are_answered_alike_by_both_doors(rules_service):
    """The hop takes plain bodies past marshmallow (``schemas.plain_decide_request``) and leaves the rest to the
    schema: whatever a caller sends, the hop answers what the public API answers."""
    from tests.unit.test_plain_loads import decide_bodies, mutations

    hop, public = rules_service["hop"], rules_service["public API"]
    base = next(iter(decide_bodies()))
    for body in list(mutations(base))[::3]:
        request = orjson.loads(orjson.dumps(body))
        data = orjson.dumps(request)
        framed = orjson.dumps({"op": "decide", **request})
        connection, raw = hop._exchange(FRAME.pack(len(framed)) + framed, 10)
        hop._keep(connection)
        answer = orjson.loads(raw)
        answer["body"].pop("kept", None)  # the hop's own: the name of the position it keeps
        reply = requests.post(public.base_url + "/v1/decide", data=data, headers={"Content-Type": "application/json"},
                              timeout=10)
        assert (answer["status"], answer["body"]) == (reply.status_code, reply.json()), request
