"""Schemathesis against the OpenAPI document each service serves: every operation, positive and negative cases,
checked for server errors, undocumented statuses, wrong content types and responses that break the schema.

Path ids point half the time at real games (one running, one finished, so the event stream ends) and requests
carry a real seat token half the time, so the cases reach past "no such game" into the use cases themselves.
"""

from __future__ import annotations

import os
import random

import hypothesis
import pytest
import schemathesis
from hypothesis import strategies as st
from schemathesis import GenerationMode
from schemathesis.checks import not_a_server_error
from schemathesis.core.parameters import ParameterLocation
from schemathesis.specs.openapi._hypothesis import _draw_negated_locations
from schemathesis.specs.openapi.checks import (content_type_conformance, negative_data_rejection, positive_data_acceptance,
                                               response_schema_conformance, status_code_conformance)

from shared.games import GAMES
from tests.trust.conftest import GAME_IDS
from tests.trust.helpers import record_figures

pytestmark = pytest.mark.e2e

EXAMPLES = int(os.environ.get("MYTHOS_FUZZ_EXAMPLES", "8"))
GUNICORN_LINE_LIMIT = 8190  # deploy/gunicorn_*.py: limit_request_line
CHECKS = [not_a_server_error, status_code_conformance, content_type_conformance, response_schema_conformance]
# Issue 45: the document says every rule of a request that JSON Schema can say, so a request it admits is never
# refused as malformed (400): what the server refuses of such a request is a 422 with its own code, or a refusal of
# the caller (401, 403), of the game's moment (404, 409), of its size (413, 414, 431) or its rate (429). And a
# request the document refuses, the server refuses too. Only for a case as the generator made it: ``aim`` changes
# cases (a real game, a real token, a hostile header), which may make a refused one admitted and the reverse.
AGREEMENT = {GenerationMode.POSITIVE: positive_data_acceptance, GenerationMode.NEGATIVE: negative_data_rejection}
ADMITTED = ["2xx", "401", "403", "404", "409", "413", "414", "422", "429", "431"]
# A negative case is refused as schemathesis expects, or as too large by gunicorn itself (a generated path or query
# past its 4,096-byte request line is a 414, a header past its limit a 431: refusals, not acceptances).
TOO_LARGE = ["413", "414", "431"]


@pytest.fixture(scope="module")
def targets(api):
    """A running game and a finished one (all AI seats), with a seat token of the running one."""
    game = GAMES[GAME_IDS[0]]
    running = api.create(game.id, [{"name": f"Seat {i}"} for i in range(game.catalogue.min_players)])
    finished = api.create(game.id, [{"name": f"Bot {i}", "ai": "random"} for i in range(game.catalogue.min_players)])
    api.wait_finished(finished["id"])
    return {"running": running["id"], "finished": finished["id"], "token": running["seats"][0]["token"], "game": game.id}


# Header values no schema generates: odd spellings of a real token (one seat, however spelled), non-ASCII
# digits, over-long values and control characters (gunicorn's parser refuses those before the app, with the
# API's error body). ``{tok}`` is a real seat token. Values are latin-1, as HTTP carries them.
# (``Last-Event-ID: ²`` and the other superscript digits belong here once the streams rework handles them.)
HOSTILE_HEADERS = {
    "Authorization": ["bearer {tok}", "BEARER {tok}", "Bearer    {tok}   ", "Bearer\t{tok}", "Bearer {tok} {tok}",
                      "Basic Zm9vOmJhcg==", "Bearer", "Bearer \u00b2\u00b3", "Bearer " + "z" * 6000, "Bearer {tok}\x00",
                      "Bearer \x1b[31m{tok}"],
    "Idempotency-Key": ["\u00b2\u00b3", "\u00b9", "\u00bd", "k" * 200, "k" * 7000, "k\x00", "\x7f", "k\x1f"],
    "Last-Event-ID": ["\u00bc", "\u00b2", "\u00b9\u00b2", "+1", "", "1\x02", "9" * 40, "-1", "0x10", "1e3", "9" * 8000],
    "X-Forwarded-For": ["999.0.0.1, <x>", "\x01"],
}


def aim(case, targets, rand: random.Random) -> bool:
    """Point the case at real games and give it a real token, each half the time; a hostile header a third. True
    when the case is no longer as generated (its path, a header or its body changed)."""
    before = repr((case.path_parameters, case.headers, case.body))
    if "game_id" in (case.path_parameters or {}) and rand.random() < 0.5:
        streaming = case.path.endswith("/stream")
        case.path_parameters["game_id"] = targets["finished" if streaming or rand.random() < 0.3 else "running"]
    if rand.random() < 0.5:
        case.headers = {**(case.headers or {}), "Authorization": f"Bearer {targets['token']}"}
    if rand.random() < 0.33:
        name = rand.choice(sorted(HOSTILE_HEADERS))
        case.headers = {**(case.headers or {}), name: rand.choice(HOSTILE_HEADERS[name]).replace("{tok}", targets["token"])}
    if isinstance(case.body, dict) and "game" in case.body and rand.random() < 0.5:
        case.body["game"] = targets["game"]
    return repr((case.path_parameters, case.headers, case.body)) != before


def negatable(operation) -> bool:
    """Whether schemathesis can break any part of the operation's request (a parameter or the body).

    Where it cannot (no parameters, or only path ids whose one rule is ``minLength: 1``: a string on the wire
    whatever is generated) every negative draw is rejected, and Hypothesis gives up as Unsatisfiable only after
    some 460 of them: 3 s of generation per such operation. This is schemathesis's own test, which picks the
    locations a negative case breaks (private: the version is pinned in requirements.lock); it draws a choice
    only when there is one, answered here with the first."""
    locations = _draw_negated_locations(lambda _strategy: True, operation, GenerationMode.NEGATIVE,
                                        explicit=dict.fromkeys(ParameterLocation), body_is_generated=True)
    return locations is not None


def fuzz(url: str, targets, service: str, examples: int) -> tuple[int, dict[str, int], list[str]]:
    """Run ``examples`` positive and ``examples`` negative cases per operation (negative ones where its request
    has anything to break); (cases, statuses, failures).

    Failures are collected rather than raised, so one run reports all of them and Hypothesis does not spend
    the budget shrinking."""
    schema = schemathesis.openapi.from_url(url + "/openapi.json")
    schema.config.checks.positive_data_acceptance.expected_statuses = ADMITTED
    rejection = schema.config.checks.negative_data_rejection
    rejection.expected_statuses = [*rejection.expected_statuses, *TOO_LARGE]
    cases, statuses, failures, refused_by_server = 0, {}, [], [0]
    for result in schema.get_all_operations():
        operation = result.ok()
        modes = (GenerationMode.POSITIVE, GenerationMode.NEGATIVE) if negatable(operation) else (GenerationMode.POSITIVE,)
        for mode in modes:
            strategy = operation.as_strategy(generation_mode=mode)

            @hypothesis.settings(max_examples=examples, deadline=None, database=None, derandomize=True,
                                 suppress_health_check=list(hypothesis.HealthCheck), phases=[hypothesis.Phase.generate])
            @hypothesis.given(data=st.data())
            def run(data):
                nonlocal cases
                case = data.draw(strategy)
                rand = random.Random(repr(case.body) + repr(case.path_parameters) + repr(case.query) + repr(case.headers))
                changed = aim(case, targets, rand)
                if case.path.endswith("/stream") and (case.path_parameters or {}).get("game_id") == targets["running"]:
                    return  # a running game's stream never ends; the finished one's does
                try:
                    response = case.call(base_url=url, timeout=20)
                    statuses[str(response.status_code)] = statuses.get(str(response.status_code), 0) + 1
                    if len(response.request.url) > GUNICORN_LINE_LIMIT:
                        refused_by_server[0] += 1  # a request line gunicorn refuses itself (with the API's error body)
                    case.validate_response(response, checks=CHECKS if changed else [*CHECKS, AGREEMENT[mode]])
                except (Exception, BaseExceptionGroup) as exc:  # noqa: BLE001 - every failure is reported below
                    failures.append(f"{mode} {case.method} {case.formatted_path}: {type(exc).__name__}: {str(exc)[:600]}")
                cases += 1

            run()  # Unsatisfiable if schemathesis made no case of a mode it says it can: a failure
    record_figures("fuzz", service=service, cases=cases, statuses=statuses, failures=len(failures),
                   refused_by_gunicorn=refused_by_server[0])
    return cases, statuses, failures


def test_the_session_service_keeps_its_openapi_document(stack, targets):
    cases, statuses, failures = fuzz(stack.url, targets, "session", EXAMPLES)
    assert not failures, "\n".join(failures[:20])
    assert cases > 10 * EXAMPLES and not any(s.startswith("5") for s in statuses)


def test_the_rules_service_keeps_its_openapi_document(stack, targets):
    targets = {**targets, "token": "no-token-here"}
    cases, statuses, failures = fuzz(stack.rules_url, targets, "rules", EXAMPLES)
    assert not failures, "\n".join(failures[:20])
    assert cases > 5 * EXAMPLES and not any(s.startswith("5") for s in statuses)
