"""Hostile input, a table per service: every request gets the API's error body with the documented status and
code (never a 500, never an HTML page), and writes nothing. Then the request size limit and the rate limit."""

from __future__ import annotations

import json

import pytest
import requests

from shared.games import GAMES
from tests.trust.conftest import GAME_IDS
from tests.trust.helpers import record_figures

pytestmark = pytest.mark.e2e

DEEP = 5000
BIG = 123456789012345678901234567890


def deep(n: int) -> str:
    return "[" * n + "]" * n


# (name, method, path, headers, body, expected status, expected code). ``{gid}`` is a running game, ``{tok}``
# a seat token of it; a str body is sent as it is, anything else as JSON.
SESSION_CASES = [
    ("body over the size limit", "POST", "/v1/games/{gid}/commands", {}, '{"command":{"type":"x","pad":"' + "a" * 100_000 + '"}}', 413, "request/too_large"),
    ("games body over the size limit", "POST", "/v1/games", {}, '{"game":"' + "a" * 100_000 + '"}', 413, "request/too_large"),
    ("deeply nested body", "POST", "/v1/games/{gid}/commands", {}, deep(DEEP), 400, "request/malformed"),
    ("deeply nested command", "POST", "/v1/games/{gid}/commands", {}, '{"command":{"type":"x","f":' + deep(300) + "}}", 400, "request/malformed"),
    ("deeply nested options", "POST", "/v1/games", {}, '{"game":"%s","seats":{seats},"options":{"o":' + deep(300) + "}}", 400, "request/malformed"),
    ("integer beyond 64 bits in a command", "POST", "/v1/games/{gid}/commands", {}, '{"command":{"type":"x","n":%d}}' % BIG, 422, "rules/unknown_command"),
    ("integer beyond 64 bits in options", "POST", "/v1/games", {}, '{"game":"%s","seats":{seats},"options":{"o":%d}}' % ("%s", BIG), 422, "rules/invalid_option"),
    ("integer beyond 64 bits as version", "POST", "/v1/games/{gid}/commands", {}, '{"command":{"type":"x"},"expected_version":%d}' % BIG, 400, "request/malformed"),
    ("lone surrogate in a seat name", "POST", "/v1/games", {}, '{"game":"%s","seats":[{"name":"\\ud800"},{"name":"b"},{"name":"c"}]}', 400, "request/malformed"),
    ("lone surrogate in a command type", "POST", "/v1/games/{gid}/commands", {}, '{"command":{"type":"\\udfff"}}', 400, "request/malformed"),
    ("lone surrogate in an option name", "POST", "/v1/games", {}, '{"game":"%s","seats":{seats},"options":{"\\ud800":1}}', 400, "request/malformed"),
    ("NaN", "POST", "/v1/games/{gid}/commands", {}, '{"command":{"type":"x","n":NaN}}', 400, "request/malformed"),
    ("Infinity", "POST", "/v1/games/{gid}/commands", {}, '{"command":{"type":"x"},"expected_version":1e999}', 400, "request/malformed"),
    ("invalid UTF-8", "POST", "/v1/games/{gid}/commands", {}, b'{"command":{"type":"\xff\xfe"}}', 400, "request/malformed"),
    ("not JSON", "POST", "/v1/games/{gid}/commands", {}, '{"command":', 400, "request/malformed"),
    ("empty body", "POST", "/v1/games/{gid}/commands", {}, "", 400, "request/malformed"),
    ("JSON null", "POST", "/v1/games/{gid}/commands", {}, "null", 400, "request/malformed"),
    ("JSON list", "POST", "/v1/games", {}, "[1,2]", 400, "request/malformed"),
    ("text/plain body", "POST", "/v1/games/{gid}/commands", {"Content-Type": "text/plain"}, '{"command":{"type":"x"}}', 400, "request/malformed"),
    ("command is a list", "POST", "/v1/games/{gid}/commands", {}, {"command": [1, 2]}, 400, "request/malformed"),
    ("command is a string", "POST", "/v1/games/{gid}/commands", {}, {"command": "draw"}, 400, "request/malformed"),
    ("command without a type", "POST", "/v1/games/{gid}/commands", {}, {"command": {}}, 400, "request/malformed"),
    ("command type is a number", "POST", "/v1/games/{gid}/commands", {}, {"command": {"type": 7}}, 400, "request/malformed"),
    ("unknown command type", "POST", "/v1/games/{gid}/commands", {}, {"command": {"type": "summon_azathoth"}}, 422, "rules/unknown_command"),
    ("huge unknown command type", "POST", "/v1/games/{gid}/commands", {}, {"command": {"type": "x" * 50_000}}, 422, "rules/unknown_command"),
    ("unknown envelope field", "POST", "/v1/games/{gid}/commands", {}, {"command": {"type": "x"}, "seat": 1}, 400, "request/malformed"),
    ("version as a string", "POST", "/v1/games/{gid}/commands", {}, {"command": {"type": "x"}, "expected_version": "3"}, 400, "request/malformed"),
    ("version as a float", "POST", "/v1/games/{gid}/commands", {}, {"command": {"type": "x"}, "expected_version": 3.5}, 400, "request/malformed"),
    ("negative version", "POST", "/v1/games/{gid}/commands", {}, {"command": {"type": "x"}, "expected_version": -1}, 400, "request/malformed"),
    ("version past 2^31", "POST", "/v1/games/{gid}/commands", {}, {"command": {"type": "x"}, "expected_version": 2**40}, 400, "request/malformed"),
    ("version as a bool", "POST", "/v1/games/{gid}/commands", {}, {"command": {"type": "x"}, "expected_version": True}, 400, "request/malformed"),
    ("stale version", "POST", "/v1/games/{gid}/commands", {}, {"command": {"type": "x"}, "expected_version": 0}, 409, "game/version_conflict"),
    ("future version", "POST", "/v1/games/{gid}/commands", {}, {"command": {"type": "x"}, "expected_version": 2**31}, 409, "game/version_conflict"),
    ("Idempotency-Key too long", "POST", "/v1/games/{gid}/commands", {"Idempotency-Key": "k" * 129}, {"command": {"type": "x"}}, 400, "request/malformed"),
    ("empty Idempotency-Key", "POST", "/v1/games/{gid}/commands", {"Idempotency-Key": ""}, {"command": {"type": "x"}}, 400, "request/malformed"),
    ("no token", "POST", "/v1/games/{gid}/commands", {"Authorization": None}, {"command": {"type": "x"}}, 401, "auth/missing_token"),
    ("empty bearer", "POST", "/v1/games/{gid}/commands", {"Authorization": "Bearer "}, {"command": {"type": "x"}}, 401, "auth/bad_token"),
    ("wrong scheme", "POST", "/v1/games/{gid}/commands", {"Authorization": "Token {tok}"}, {"command": {"type": "x"}}, 401, "auth/bad_token"),
    ("unknown token", "POST", "/v1/games/{gid}/commands", {"Authorization": "Bearer " + "z" * 32}, {"command": {"type": "x"}}, 401, "auth/bad_token"),
    ("4 KB token", "POST", "/v1/games/{gid}/commands", {"Authorization": "Bearer " + "z" * 4000}, {"command": {"type": "x"}}, 401, "auth/bad_token"),
    ("latin-1 token", "GET", "/v1/games/{gid}/state", {"Authorization": "Bearer tök\u00e9n"}, None, 401, "auth/bad_token"),
    ("token with spaces", "GET", "/v1/games/{gid}/state", {"Authorization": "Bearer a b c"}, None, 401, "auth/bad_token"),
    ("unknown game", "POST", "/v1/games", {}, {"game": "necronomicon", "seats": [{"name": "a"}]}, 422, "rules/unknown_game"),
    ("unknown AI level", "POST", "/v1/games", {}, '{"game":"%s","seats":[{"name":"a","ai":"shoggoth"},{"name":"b"},{"name":"c"}]}', 422, "rules/unknown_ai"),
    ("too many seats", "POST", "/v1/games", {}, '{"game":"%s","seats":' + json.dumps([{"name": "a"}] * 17) + "}", 400, "request/malformed"),
    ("no seats", "POST", "/v1/games", {}, '{"game":"%s","seats":[]}', 400, "request/malformed"),
    ("seats is an object", "POST", "/v1/games", {}, '{"game":"%s","seats":{"name":"a"}}', 400, "request/malformed"),
    ("seat name is a number", "POST", "/v1/games", {}, '{"game":"%s","seats":[{"name":5},{"name":"b"},{"name":"c"}]}', 400, "request/malformed"),
    ("empty seat name", "POST", "/v1/games", {}, '{"game":"%s","seats":[{"name":""},{"name":"b"},{"name":"c"}]}', 400, "request/malformed"),
    ("65-character seat name", "POST", "/v1/games", {}, '{"game":"%s","seats":[{"name":"' + "n" * 65 + '"},{"name":"b"},{"name":"c"}]}', 400, "request/malformed"),
    ("timeout as a float", "POST", "/v1/games", {}, '{"game":"%s","seats":{seats},"turn_timeout_s":1.5}', 400, "request/malformed"),
    ("timeout of zero", "POST", "/v1/games", {}, '{"game":"%s","seats":{seats},"turn_timeout_s":0}', 400, "request/malformed"),
    ("unknown option", "POST", "/v1/games", {}, '{"game":"%s","seats":{seats},"options":{"no_such_option":1}}', 422, "rules/invalid_option"),
    ("state at -1", "GET", "/v1/games/{gid}/state?at=-1", {}, None, 400, "request/malformed"),
    ("state at 2^40", "GET", "/v1/games/{gid}/state?at=1099511627776", {}, None, 400, "request/malformed"),
    ("state at past the head", "GET", "/v1/games/{gid}/state?at=100000", {}, None, 400, "request/malformed"),
    ("state at a word", "GET", "/v1/games/{gid}/state?at=now", {}, None, 400, "request/malformed"),
    ("another seat's state", "GET", "/v1/games/{gid}/state?seat=1", {}, None, 403, "auth/not_your_seat"),
    ("events after -5", "GET", "/v1/games/{gid}/events?after=-5", {}, None, 400, "request/malformed"),
    ("events limit 0", "GET", "/v1/games/{gid}/events?limit=0", {}, None, 400, "request/malformed"),
    ("events limit 10^9", "GET", "/v1/games/{gid}/events?limit=1000000000", {}, None, 400, "request/malformed"),
    ("games limit -1", "GET", "/v1/games?limit=-1", {}, None, 400, "request/malformed"),
    ("games unknown status", "GET", "/v1/games?status=haunted", {}, None, 400, "request/malformed"),
    ("Last-Event-ID a word", "GET", "/v1/games/{gid}/events/stream", {"Last-Event-ID": "abc"}, None, 400, "request/malformed"),
    ("Last-Event-ID negative", "GET", "/v1/games/{gid}/events/stream", {"Last-Event-ID": "-1"}, None, 400, "request/malformed"),
    ("Last-Event-ID huge", "GET", "/v1/games/{gid}/events/stream", {"Last-Event-ID": "9" * 30}, None, 400, "request/malformed"),
    ("stream after -1", "GET", "/v1/games/{gid}/events/stream?after=-1", {}, None, 400, "request/malformed"),
    ("unknown game id", "GET", "/v1/games/g_nothing_here/state", {}, None, 404, "game/not_found"),
    ("game id with braces", "GET", "/v1/games/%7Bx%7D/state", {}, None, 404, "game/not_found"),
    ("game id in unicode", "GET", "/v1/games/%F0%9F%90%99", {}, None, 404, "game/not_found"),
    ("game id of 300 characters", "GET", "/v1/games/" + "g" * 300, {}, None, 404, "game/not_found"),
    ("export of a running game", "GET", "/v1/games/{gid}/export", {}, None, 409, "game/not_finished"),
    ("unknown route", "GET", "/v1/elder-things", {}, None, 404, "request/not_found"),
    ("wrong method", "DELETE", "/v1/games/{gid}", {}, None, 405, "request/method_not_allowed"),
]

RULES_CASES = [
    ("body over the size limit", "POST", "/v1/decide", {}, '{"game":"' + "a" * 300_000 + '"}', 413, "request/too_large"),
    ("deeply nested state", "POST", "/v1/legal-commands", {}, '{"game":"%s","seat":0,"state":' + deep(DEEP) + "}", 400, "request/malformed"),
    ("nested state past the limit", "POST", "/v1/legal-commands", {}, '{"game":"%s","seat":0,"state":' + deep(300) + "}", 400, "request/malformed"),
    ("state of unknown classes", "POST", "/v1/legal-commands", {}, '{"game":"%s","seat":0,"state":{"$":"os.system"}}', 400, "request/malformed"),
    ("state of wrong fields", "POST", "/v1/decide", {}, '{"game":"%s","seat":0,"entropy":"00","command":{"type":"x"},"state":{"$s":[1,2]}}', 400, "request/malformed"),
    ("junk events", "POST", "/v1/legal-commands", {}, '{"game":"%s","seat":0,"events":[{"type":"no_such_event","data":{}}]}', 400, "request/malformed"),
    ("both state and events", "POST", "/v1/legal-commands", {}, '{"game":"%s","seat":0,"events":[],"state":null}', 400, "request/malformed"),
    ("neither state nor events", "POST", "/v1/legal-commands", {}, '{"game":"%s","seat":0}', 400, "request/malformed"),
    ("odd entropy", "POST", "/v1/setup", {}, '{"game":"%s","players":2,"entropy":"abc"}', 400, "request/malformed"),
    ("entropy not hex", "POST", "/v1/setup", {}, '{"game":"%s","players":2,"entropy":"zz"}', 400, "request/malformed"),
    ("zero players", "POST", "/v1/setup", {}, '{"game":"%s","players":0,"entropy":"00"}', 400, "request/malformed"),
    ("players as a string", "POST", "/v1/setup", {}, '{"game":"%s","players":"2","entropy":"00"}', 400, "request/malformed"),
    ("too many players", "POST", "/v1/setup", {}, '{"game":"%s","players":64,"entropy":"00"}', 422, "rules/player_count"),
    ("integer beyond 64 bits in options", "POST", "/v1/setup", {}, '{"game":"%s","players":{players},"entropy":"00","options":{"o":%d}}' % ("%s", BIG), 422, "rules/invalid_option"),
    ("lone surrogate", "POST", "/v1/setup", {}, '{"game":"\\ud800","players":2,"entropy":"00"}', 400, "request/malformed"),
    ("unknown game", "POST", "/v1/setup", {}, '{"game":"necronomicon","players":2,"entropy":"00"}', 422, "rules/unknown_game"),
    ("seat out of range", "POST", "/v1/legal-commands", {}, '{"game":"%s","seat":99,"events":[]}', 400, "request/malformed"),
    ("not JSON", "POST", "/v1/decide", {}, "{", 400, "request/malformed"),
    ("unknown route", "GET", "/v1/nothing", {}, None, 404, "request/not_found"),
]


def send(base: str, method: str, path: str, headers: dict, body) -> requests.Response:
    sent = {"Content-Type": "application/json"}
    for name, value in headers.items():
        if value is None:
            sent.pop(name, None)
        else:
            sent[name] = value
    data = body.encode() if isinstance(body, str) else body if isinstance(body, bytes) or body is None else json.dumps(body).encode()
    return requests.request(method, base + path, headers=sent, data=data, timeout=30)


def fill(body, game):
    """Put the game id and a full table of seats into a body template."""
    if isinstance(body, str):
        seats = json.dumps([{"name": f"Seat {i}"} for i in range(game.min_players)])
        body = body.replace("{seats}", seats).replace("{players}", str(game.min_players)).replace('"game":"%s"', f'"game":"{game.id}"')
    return body


def check(reply: requests.Response, status: int, code: str) -> None:
    assert reply.headers.get("Content-Type", "").startswith("application/json"), reply.text[:300]
    error = reply.json()["error"]
    assert (reply.status_code, error["code"]) == (status, code), reply.text[:500]
    assert isinstance(error["message"], str) and error["message"] and isinstance(error["details"], dict)


@pytest.fixture(scope="module", params=GAME_IDS)
def running(request, api):
    game = GAMES[request.param]
    created = api.create(game.id, [{"name": f"Seat {i}"} for i in range(game.min_players)])
    return game, created


@pytest.mark.parametrize("case", SESSION_CASES, ids=[c[0] for c in SESSION_CASES])
def test_the_session_service_answers_hostile_input_with_the_error_body_and_writes_nothing(api, trust_redis, trust_stack, running, case):
    name, method, path, headers, body, status, code = case
    game, created = running
    token = created["seats"][0]["token"]
    headers = {"Authorization": f"Bearer {token}", **{k: (v.replace("{tok}", token) if v else v) for k, v in headers.items()}}
    body = fill(body, game)
    before = (api.get(f"/v1/games/{created['id']}").json()["version"], trust_redis.zcard(f"{trust_stack.key_prefix}:games"))
    reply = send(api.base, method, path.replace("{gid}", created["id"]), headers, body)
    check(reply, status, code)
    after = (api.get(f"/v1/games/{created['id']}").json()["version"], trust_redis.zcard(f"{trust_stack.key_prefix}:games"))
    assert after == before, f"{name} wrote something"
    record_figures("hostile", service="session", case=name)


@pytest.mark.parametrize("case", RULES_CASES, ids=[c[0] for c in RULES_CASES])
def test_the_rules_service_answers_hostile_input_with_the_error_body(trust_stack, running, case):
    name, method, path, headers, body, status, code = case
    game, _ = running
    body = fill(body, game)
    check(send(trust_stack.rules_url, method, path, headers, body), status, code)
    record_figures("hostile", service="rules", case=name)


def test_unicode_names_are_kept_exactly(api):
    names = ["Ñyarlathotep", "🐙" * 64, "Shub\u202eNiggurath", "Y'golonac\u0000", "ダゴン", "  spaces  "]
    game = GAMES[GAME_IDS[0]]
    seats = [{"name": n} for n in names[: game.max_players]]
    seats += [{"name": f"Seat {i}"} for i in range(len(seats), game.min_players)]
    created = api.create(game.id, seats)
    assert [s["name"] for s in api.get(f"/v1/games/{created['id']}").json()["seats"]] == [s["name"] for s in seats]


def test_a_chunked_body_without_a_length_is_not_read(api):
    """A chunked body (no Content-Length), however large, is not read into memory."""
    game = GAMES[GAME_IDS[0]]
    created = api.create(game.id, [{"name": f"Seat {i}"} for i in range(game.min_players)])
    chunks = (b'{"command":{"type":"x","pad":"', b"a" * 200_000, b'"}}')
    reply = requests.post(f"{api.base}/v1/games/{created['id']}/commands", data=iter(chunks), timeout=30,
                          headers={"Authorization": f"Bearer {created['seats'][0]['token']}", "Content-Type": "application/json"})
    # Without a Content-Length the body is not read at all (werkzeug's safe default): nothing is parsed or written.
    check(reply, 400, "request/malformed")


def test_writes_past_the_rate_limit_get_429_with_the_limit_and_write_nothing(real_redis, prefix):
    """The limit counts writes per client (seat token, else address) per minute, in Redis, across processes."""
    from tests.support.stack import make_session_app
    from tests.support.toy import GAME as TOY

    app, _ = make_session_app(real_redis, prefix, {"toy": TOY}, RATE_LIMIT_PER_MINUTE=5)
    client = app.test_client()
    game = client.post("/v1/games", json={"game": "toy", "seats": [{"name": "Ada"}, {"name": "Bo"}]}).json
    ada, bo = ({"Authorization": f"Bearer {s['token']}"} for s in game["seats"])
    statuses = [client.post(f"/v1/games/{game['id']}/commands", json={"command": {"type": "no_such"}}, headers=ada).status_code
                for _ in range(5)]
    assert statuses == [422] * 5  # refused moves count too: the limit is on requests, not on successes
    limited = client.post(f"/v1/games/{game['id']}/commands", json={"command": {"type": "draw_card"}}, headers=ada)
    assert limited.status_code == 429
    assert limited.json["error"]["code"] == "request/rate_limited"
    assert limited.json["error"]["details"] == {"limit_per_minute": 5}
    assert client.get(f"/v1/games/{game['id']}").json["version"] == 3
    assert client.get(f"/v1/games/{game['id']}/state", headers=ada).status_code == 200  # reads are not limited
    assert client.post(f"/v1/games/{game['id']}/commands", json={"command": {"type": "no_such"}}, headers=bo).status_code == 422


def test_the_body_limit_is_the_configured_one(real_redis, prefix):
    from tests.support.stack import make_session_app
    from tests.support.toy import GAME as TOY

    app, _ = make_session_app(real_redis, prefix, {"toy": TOY}, RATE_LIMIT_PER_MINUTE=0, MAX_CONTENT_LENGTH=1000)
    client = app.test_client()
    small = client.post("/v1/games", json={"game": "toy", "seats": [{"name": "a" * 60}, {"name": "b"}]})
    assert small.status_code == 201
    big = client.post("/v1/games", json={"game": "toy", "seats": [{"name": "a" * 60}] * 16})
    assert (big.status_code, big.json["error"]["code"]) == (413, "request/too_large")
    assert real_redis.zcard(f"{prefix}:games") == 1
