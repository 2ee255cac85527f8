"""Hostile input, a table per service: every request gets the API's error body with the documented status and
code (never a 500, never an HTML page), and writes nothing. Then the request size limit and the rate limit.

A case runs once unless the game's own code reads it (``PER_GAME``: its options, AI levels, command catalogue,
state codec, facts, player count): one framing, header, token or version check is the same code for every game,
so it is asked once, of one of the games in turn (every game still meets some of each kind); what a game reads
itself is asked of every game."""

from __future__ import annotations

import json
import socket

import pytest
import requests

from session_service.storage.index import GameIndex
from session_service.storage.store import EventStore
from shared.games import GAMES
from tests.support.absurd import long_hands, million_card_hands
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
    ("body just under the size limit", "POST", "/v1/games/{gid}/commands", {}, '{"command":{"type":"x","pad":"' + "a" * 60_000 + '"}}', 422, "rules/unknown_command"),
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
    ("text/plain body", "POST", "/v1/games/{gid}/commands", {"Content-Type": "text/plain"}, '{"command":{"type":"x"}}', 415, "request/unsupported_media_type"),
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
    # Header values. One token in any scheme case and with spaces around it is the same seat; other shapes are
    # refused by the app (401), or by gunicorn's parser before the app (control characters, a field past 8,190
    # bytes, more than 100 fields), which now also answers with the API's error body (shared/wire/gunicorn_errors.py).
    ("scheme in lower case", "POST", "/v1/games/{gid}/commands", {"Authorization": "bearer {tok}"}, {"command": {"type": "x"}}, 422, "rules/unknown_command"),
    ("scheme in upper case", "POST", "/v1/games/{gid}/commands", {"Authorization": "BEARER {tok}"}, {"command": {"type": "x"}}, 422, "rules/unknown_command"),
    ("spaces around the token", "POST", "/v1/games/{gid}/commands", {"Authorization": "Bearer    {tok}   "}, {"command": {"type": "x"}}, 422, "rules/unknown_command"),
    ("tab after the scheme", "POST", "/v1/games/{gid}/commands", {"Authorization": "Bearer\t{tok}"}, {"command": {"type": "x"}}, 401, "auth/bad_token"),
    ("token twice", "POST", "/v1/games/{gid}/commands", {"Authorization": "Bearer {tok} {tok}"}, {"command": {"type": "x"}}, 401, "auth/bad_token"),
    ("scheme alone", "POST", "/v1/games/{gid}/commands", {"Authorization": "Bearer"}, {"command": {"type": "x"}}, 401, "auth/bad_token"),
    ("basic credentials", "POST", "/v1/games/{gid}/commands", {"Authorization": "Basic dXNlcjpwYXNz"}, {"command": {"type": "x"}}, 401, "auth/bad_token"),
    ("non-ASCII digits as token", "POST", "/v1/games/{gid}/commands", {"Authorization": "Bearer \u00b2\u00b3\u00b9"}, {"command": {"type": "x"}}, 401, "auth/bad_token"),
    ("UTF-8 token", "GET", "/v1/games/{gid}/state", {"Authorization": "Bearer \u0663\u0664\U0001f419".encode()}, None, 401, "auth/bad_token"),
    ("8 KB token", "POST", "/v1/games/{gid}/commands", {"Authorization": "Bearer " + "z" * 8000}, {"command": {"type": "x"}}, 401, "auth/bad_token"),
    ("NUL in the token", "POST", "/v1/games/{gid}/commands", {"Authorization": "Bearer {tok}\x00"}, {"command": {"type": "x"}}, 400, "request/malformed"),
    ("control character in the token", "GET", "/v1/games/{gid}/state", {"Authorization": "Bearer \x01{tok}"}, None, 400, "request/malformed"),
    ("DEL in a header", "POST", "/v1/games", {"X-Note": "a\x7fb"}, '{"game":"%s","seats":{seats}}', 400, "request/malformed"),
    ("header field past 8 KB", "POST", "/v1/games", {"X-Pad": "p" * 9000}, '{"game":"%s","seats":{seats}}', 431, "request/too_large"),
    ("over 100 header fields", "POST", "/v1/games", {f"X-Pad-{i}": "p" for i in range(101)}, '{"game":"%s","seats":{seats}}', 431, "request/too_large"),
    ("non-ASCII digits as Idempotency-Key", "POST", "/v1/games/{gid}/commands", {"Idempotency-Key": "\u00b2\u00b3"}, {"command": {"type": "x"}}, 422, "rules/unknown_command"),
    ("UTF-8 Idempotency-Key", "POST", "/v1/games/{gid}/commands", {"Idempotency-Key": "\u0661\u0662".encode()}, {"command": {"type": "x"}}, 422, "rules/unknown_command"),
    ("Idempotency-Key of 8 KB", "POST", "/v1/games/{gid}/commands", {"Idempotency-Key": "k" * 8000}, {"command": {"type": "x"}}, 400, "request/malformed"),
    ("control character in Idempotency-Key", "POST", "/v1/games/{gid}/commands", {"Idempotency-Key": "k\x1bk"}, {"command": {"type": "x"}}, 400, "request/malformed"),
    ("Last-Event-ID in Arabic-Indic digits", "GET", "/v1/games/{gid}/events/stream", {"Last-Event-ID": "\u0661\u0662".encode()}, None, 400, "request/malformed"),
    ("Last-Event-ID in full-width digits", "GET", "/v1/games/{gid}/events/stream", {"Last-Event-ID": "\uff11\uff12".encode()}, None, 400, "request/malformed"),
    ("Last-Event-ID a fraction", "GET", "/v1/games/{gid}/events/stream", {"Last-Event-ID": "\u00bc"}, None, 400, "request/malformed"),
    ("Last-Event-ID with a control character", "GET", "/v1/games/{gid}/events/stream", {"Last-Event-ID": "1\x02"}, None, 400, "request/malformed"),
    ("Last-Event-ID of 9 KB", "GET", "/v1/games/{gid}/events/stream", {"Last-Event-ID": "1" * 9000}, None, 431, "request/too_large"),
    ("forged X-Forwarded-For", "POST", "/v1/games", {"X-Forwarded-For": "999.0.0.1, <script>, ::zz"}, "[1,2]", 400, "request/malformed"),
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
    ("state at past the head", "GET", "/v1/games/{gid}/state?at=100000", {}, None, 422, "game/version_out_of_range"),
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
    # str.isdigit() takes "²" for a digit and int() then refuses it: this was a 500
    ("Last-Event-ID superscript two", "GET", "/v1/games/{gid}/events/stream", {"Last-Event-ID": "\u00b2"}, None, 400, "request/malformed"),
    ("Last-Event-ID superscripts", "GET", "/v1/games/{gid}/events/stream", {"Last-Event-ID": "\u00b9\u00b2"}, None, 400, "request/malformed"),
    ("Last-Event-ID with a plus sign", "GET", "/v1/games/{gid}/events/stream", {"Last-Event-ID": "+1"}, None, 400, "request/malformed"),
    ("Last-Event-ID in exponent form", "GET", "/v1/games/{gid}/events/stream", {"Last-Event-ID": "1e3"}, None, 400, "request/malformed"),
    ("Last-Event-ID in hex", "GET", "/v1/games/{gid}/events/stream", {"Last-Event-ID": "0x10"}, None, 400, "request/malformed"),
    ("empty Last-Event-ID", "GET", "/v1/games/{gid}/events/stream", {"Last-Event-ID": ""}, None, 400, "request/malformed"),
    ("stream after in superscript", "GET", "/v1/games/{gid}/events/stream?after=%C2%B2", {}, None, 400, "request/malformed"),
    ("events after in superscript", "GET", "/v1/games/{gid}/events?after=%C2%B2", {}, None, 400, "request/malformed"),
    ("Last-Event-ID past the head", "GET", "/v1/games/{gid}/events/stream", {"Last-Event-ID": "100000"}, None, 422,
     "game/version_out_of_range"),
    ("stream after past the head", "GET", "/v1/games/{gid}/events/stream?after=100000", {}, None, 422, "game/version_out_of_range"),
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
    ("body under the size limit is read", "POST", "/v1/decide", {}, '{"game":"' + "a" * 200_000 + '"}', 400, "request/malformed"),
    ("deeply nested state", "POST", "/v1/legal-commands", {}, '{"game":"%s","seat":0,"state":' + deep(DEEP) + "}", 400, "request/malformed"),
    ("nested state past the limit", "POST", "/v1/legal-commands", {}, '{"game":"%s","seat":0,"state":' + deep(300) + "}", 400, "request/malformed"),
    ("state of unknown classes", "POST", "/v1/legal-commands", {}, '{"game":"%s","seat":0,"state":{"$":"os.system"}}', 400, "request/malformed"),
    ("state of wrong fields", "POST", "/v1/decide", {}, '{"game":"%s","seat":0,"entropy":"00","command":{"type":"x"},"state":{"$s":[1,2]}}', 400, "request/malformed"),
    ("junk events", "POST", "/v1/legal-commands", {}, '{"game":"%s","seat":0,"events":[{"type":"no_such_event","data":{}}]}', 400, "request/malformed"),
    ("both state and events", "POST", "/v1/legal-commands", {}, '{"game":"%s","seat":0,"events":[],"state":null}', 400, "request/malformed"),
    ("neither state nor events", "POST", "/v1/legal-commands", {}, '{"game":"%s","seat":0}', 400, "request/malformed"),
    ("odd entropy", "POST", "/v1/setup", {}, '{"game":"%s","players":2,"entropy":"abc"}', 400, "request/malformed"),
    ("entropy not hex", "POST", "/v1/setup", {}, '{"game":"%s","players":2,"entropy":"zz"}', 400, "request/malformed"),
    ("entropy with a trailing newline", "POST", "/v1/setup", {}, '{"game":"%s","players":{players},"entropy":"000\\n"}', 400, "request/malformed"),
    ("zero players", "POST", "/v1/setup", {}, '{"game":"%s","players":0,"entropy":"00"}', 400, "request/malformed"),
    ("players as a string", "POST", "/v1/setup", {}, '{"game":"%s","players":"2","entropy":"00"}', 400, "request/malformed"),
    ("too many players", "POST", "/v1/setup", {}, '{"game":"%s","players":64,"entropy":"00"}', 422, "rules/player_count"),
    ("integer beyond 64 bits in options", "POST", "/v1/setup", {}, '{"game":"%s","players":{players},"entropy":"00","options":{"o":%d}}' % ("%s", BIG), 422, "rules/invalid_option"),
    ("lone surrogate", "POST", "/v1/setup", {}, '{"game":"\\ud800","players":2,"entropy":"00"}', 400, "request/malformed"),
    ("unknown game", "POST", "/v1/setup", {}, '{"game":"necronomicon","players":2,"entropy":"00"}', 422, "rules/unknown_game"),
    ("seat out of range", "POST", "/v1/legal-commands", {}, '{"game":"%s","seat":99,"events":[]}', 400, "request/malformed"),
    ("not JSON", "POST", "/v1/decide", {}, "{", 400, "request/malformed"),
    ("unknown route", "GET", "/v1/nothing", {}, None, 404, "request/not_found"),
    ("control character in a header", "POST", "/v1/decide", {"X-Note": "\x00"}, "{}", 400, "request/malformed"),
    ("header field past 8 KB", "POST", "/v1/decide", {"X-Pad": "p" * 9000}, "{}", 431, "request/too_large"),
    ("odd Authorization (ignored)", "POST", "/v1/setup", {"Authorization": "BEARER  \u00b2 x"}, '{"game":"%s","players":0,"entropy":"00"}', 400, "request/malformed"),
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
        seats = json.dumps([{"name": f"Seat {i}"} for i in range(game.catalogue.min_players)])
        body = body.replace("{seats}", seats).replace("{players}", str(game.catalogue.min_players)).replace('"game":"%s"', f'"game":"{game.id}"')
    return body


def check(reply: requests.Response, status: int, code: str) -> None:
    assert reply.headers.get("Content-Type", "").startswith("application/json"), reply.text[:300]
    assert reply.headers.get("X-Content-Type-Options") == "nosniff"
    error = reply.json()["error"]
    assert (reply.status_code, error["code"]) == (status, code), reply.text[:500]
    assert isinstance(error["message"], str) and error["message"] and isinstance(error["details"], dict)


# The cases a game's own code reads, asked of every game; the names are those of the tables above.
PER_GAME = {
    "session": {
        "deeply nested options", "integer beyond 64 bits in options", "lone surrogate in an option name",
        "unknown option",  # the game's options
        "unknown AI level",  # the game's AI levels
        "unknown command type", "huge unknown command type",  # the game's command catalogue
    },
    "rules": {
        "deeply nested state", "nested state past the limit", "state of unknown classes", "state of wrong fields",
        "both state and events", "neither state nor events", "seat out of range",  # the game's state codec
        "junk events",  # the game's facts
        "too many players", "integer beyond 64 bits in options",  # the game's table and options
    },
}


def cases(service: str, table: list[tuple]) -> list:
    """``table``'s cases, each with the game (or games) it is asked of."""
    picked, turn = [], 0
    for case in table:
        if case[0] in PER_GAME[service]:
            picked += [pytest.param(game_id, case, id=f"{case[0]}-{game_id}") for game_id in GAME_IDS]
        else:
            game_id, turn = GAME_IDS[turn % len(GAME_IDS)], turn + 1
            picked.append(pytest.param(game_id, case, id=f"{case[0]}-{game_id}"))
    return picked


def test_every_per_game_case_names_a_case():
    for service, table in (("session", SESSION_CASES), ("rules", RULES_CASES)):
        assert PER_GAME[service] <= {case[0] for case in table}, service


@pytest.fixture(scope="module")
def running(api):
    """One running game of each kind, by id: its game and its creation reply."""
    tables = {}
    for game_id in GAME_IDS:
        game = GAMES[game_id]
        tables[game_id] = game, api.create(game.id, [{"name": f"Seat {i}"} for i in range(game.catalogue.min_players)])
    return tables


@pytest.mark.parametrize(("game_id", "case"), cases("session", SESSION_CASES))
def test_the_session_service_answers_hostile_input_with_the_error_body_and_writes_nothing(api, trust_redis, stack, running, game_id, case):
    name, method, path, headers, body, status, code = case
    game, created = running[game_id]
    token = created["seats"][0]["token"]
    headers = {"Authorization": f"Bearer {token}", **{k: (v.replace("{tok}", token) if isinstance(v, str) else v) for k, v in headers.items()}}
    body = fill(body, game)
    before = (api.get(f"/v1/games/{created['id']}").json()["version"], GameIndex(EventStore(trust_redis, stack.key_prefix)).count())
    reply = send(api.base, method, path.replace("{gid}", created["id"]), headers, body)
    check(reply, status, code)
    after = (api.get(f"/v1/games/{created['id']}").json()["version"], GameIndex(EventStore(trust_redis, stack.key_prefix)).count())
    assert after == before, f"{name} wrote something"
    record_figures("hostile", service="session", case=name)


@pytest.mark.parametrize(("game_id", "case"), cases("rules", RULES_CASES))
def test_the_rules_service_answers_hostile_input_with_the_error_body(stack, game_id, case):
    name, method, path, headers, body, status, code = case
    game = GAMES[game_id]
    body = fill(body, game)
    check(send(stack.rules_url, method, path, headers, body), status, code)
    record_figures("hostile", service="rules", case=name)


# A liveness check, not a timing: a refused position costs milliseconds, and before the bounds these requests
# answered 48 MB (Pocket Madness) or 8 MB (Great Old One, quadratic) after seconds of CPU.
LIVENESS_S = 10


@pytest.mark.parametrize("build", [million_card_hands, lambda: long_hands(2000)],
                         ids=["pocket-madness hands of 10^6 cards", "great-old-one hands of 2000 cards"])
@pytest.mark.parametrize("path", ["/v1/legal-commands", "/v1/decide"])
def test_the_rules_service_refuses_a_small_position_claiming_huge_hands(stack, build, path):
    game, body = build()
    body = {k: body[k] for k in ("game", "state", "seat")} if path == "/v1/legal-commands" else {**body, "entropy": "00"}
    reply = requests.post(stack.rules_url + path, json=body, timeout=LIVENESS_S)
    check(reply, 413, "request/too_large")
    assert len(reply.content) < 1000
    record_figures("hostile", service="rules", case=f"absurd position {game.id} {path}", request_bytes=len(json.dumps(body)))


def test_unicode_names_are_kept_exactly(api):
    names = ["Ñyarlathotep", "🐙" * 64, "Shub\u202eNiggurath", "Y'golonac\u0000", "ダゴン", "  spaces  "]
    game = GAMES[GAME_IDS[0]]
    seats = [{"name": n} for n in names[: game.catalogue.max_players]]
    seats += [{"name": f"Seat {i}"} for i in range(len(seats), game.catalogue.min_players)]
    created = api.create(game.id, seats)
    assert [s["name"] for s in api.get(f"/v1/games/{created['id']}").json()["seats"]] == [s["name"] for s in seats]


def test_a_chunked_body_without_a_length_is_not_read(api):
    """A chunked body (no Content-Length), however large, is not read into memory."""
    game = GAMES[GAME_IDS[0]]
    created = api.create(game.id, [{"name": f"Seat {i}"} for i in range(game.catalogue.min_players)])
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
    assert client.get(f"/v1/games/{game['id']}").json["version"] == game["version"]
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
    assert GameIndex(EventStore(real_redis, prefix)).count() == 1


@pytest.mark.parametrize("codings, status, code", [
    ("xchunked", 400, "request/malformed"),  # no length at all (RFC 9112 6.3): HAProxy answers it 400 too
    ("gzip, xchunked", 400, "request/malformed"),
    ("xchunked, chunked", 501, "request/unsupported_transfer_coding"),  # a length, after a coding nobody knows
])
def test_an_unknown_transfer_coding_sent_to_gunicorn_is_the_client_s_error(stack, codings, status, code):
    """Issue 41, L4: gunicorn answered `Transfer-Encoding: xchunked` 501 with `service/internal`, a server failure."""
    for port in (stack.port, stack.rules_port):
        with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
            sock.sendall(f"POST /v1/games HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                         f"Transfer-Encoding: {codings}\r\n\r\n".encode())
            answer = b""
            while chunk := sock.recv(65536):
                answer += chunk
        head, _, body = answer.partition(b"\r\n\r\n")
        assert head.split(b" ")[1] == str(status).encode(), (port, head)
        assert json.loads(body)["error"]["code"] == code
