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

from session_service.cli.devstack import DEPLOY, free_port
from session_service.rules_client import FRAME, HopRules, HttpRules, LocalRules, decide_body, setup_body
from session_service.use_cases.errors import Unavailable
from shared.games import GAMES
from shared.kernel import RuleViolation, entropy_for, fold
from shared.kernel.game import GameOver
from shared.wire.commands import MalformedCommand
from tests.support.properties import random_playout

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def rules_service(tmp_path_factory):
    """One rules service under gunicorn with its public HTTP API and its hop, on free ports."""
    http_port, hop_port = free_port(), free_port()
    log = open(tmp_path_factory.mktemp("rules") / "rules.log", "ab")
    process = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "-c", str(DEPLOY / "gunicorn_rules.py"), "--bind", f"127.0.0.1:{http_port}",
         "rules_service.app:create_app()"], cwd=ROOT, stdout=log, stderr=subprocess.STDOUT, start_new_session=True,
        env={**os.environ, "RULES_HOP_BIND": f"127.0.0.1:{hop_port}", "RULES_WORKERS": "1"})
    hop = HopRules(f"tcp://127.0.0.1:{hop_port}")
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
    assert rules_service["hop"]._call({"op": "decide", **body}) == public.json()


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
        answer = orjson.loads(hop._exchange(FRAME.pack(len(framed)) + framed, 10))
        reply = requests.post(public.base_url + "/v1/decide", data=data, headers={"Content-Type": "application/json"},
                              timeout=10)
        assert (answer["status"], answer["body"]) == (reply.status_code, reply.json()), request
