"""Live streams on the real stack over HTTP (issue 13): they hold while idle, hundreds of them leave the service
answering, a bot can play from the stream alone and resume it without a gap or a repeat, and the limits and
the shutdown behave as documented.

The stack here has a keep-alive period of 2.5 s, just past its Redis clients' reply timeout (REDIS_TIMEOUT_S, 2 s
here; 5 s by default), which killed every idle stream whose wait (then an XREAD BLOCK of one keep-alive period)
outlasted it; shorter than the timeout, the old code held. And a cap of 4 streams per client.
"""

from __future__ import annotations

import os
import random
import selectors
import signal
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import requests

from deploy.stacks.dev import Stack
from tests.support.client import ApiClient
from tests.support.real_stack import running_stack
from tests.support.streams import StreamReader

pytestmark = pytest.mark.e2e
REDIS_TIMEOUT_S = 2.0
KEEPALIVE_S = 2.5
PER_CLIENT = 4


@pytest.fixture(scope="module")
def live() -> Iterator[Stack]:
    with running_stack("streams", {"SESSION_WORKERS": "2", "RULES_WORKERS": "2", "RATE_LIMIT_PER_MINUTE": "100000",
                                   "REDIS_TIMEOUT_S": str(REDIS_TIMEOUT_S),
                                   "SSE_KEEPALIVE_S": str(KEEPALIVE_S), "STREAMS_PER_CLIENT": str(PER_CLIENT),
                                   "STREAMS_PER_ADDRESS": "100000"}) as stack:  # the tests hold hundreds from one address
        yield stack


@pytest.fixture(autouse=True)
def session_running(live) -> None:
    """The session service running before each test, started again if a test before stopped it."""
    if live.processes["session"].poll() is not None:
        live.start_session()
        live.wait_ready()


@pytest.fixture(scope="module")
def api(live) -> ApiClient:
    return ApiClient(live.url)


def humans(api: ApiClient, n: int = 2) -> tuple[dict, dict[int, str]]:
    game = api.create("pocket-madness", [{"name": f"P{i}"} for i in range(n)])
    return game, {s["seat"]: s["token"] for s in game["seats"]}


def session_log(live: Stack) -> str:
    return (Path(live.log_dir) / "session.log").read_text(errors="replace")


def test_an_idle_stream_outlives_three_keepalive_periods_receiving_each_keepalive(live, api):
    game, tokens = humans(api)
    started = time.monotonic()
    keepalives = 0
    with StreamReader(live.url, game["id"], tokens[0], timeout_s=2 * KEEPALIVE_S + 5) as stream:
        messages = iter(stream)
        assert next(messages).kind == "state"
        while keepalives < 3 or time.monotonic() - started < 3 * KEEPALIVE_S:  # idle three periods, each said
            message = next(messages)
            assert message.kind == "keepalive", message
            keepalives += 1
        assert keepalives >= 3
        # still live after the idle spell: a move arrives on the same connection
        seat = game["to_act"][0]
        state = api.get(f"/v1/games/{game['id']}/state", tokens[seat]).json()
        assert api.post_command(game["id"], tokens[seat], state["legal_commands"][0], state["version"]).status_code == 200
        message = next(m for m in messages if m.kind != "keepalive")
        assert message.kind == "event" and message.id == state["version"] + 1
    # the client went away: one line in the log, no traceback (the server notices at its next write or the one after)
    deadline = time.monotonic() + 3 * KEEPALIVE_S + 10
    while f"stream {game['id']} (seat 0) closed: client gone" not in session_log(live):
        assert time.monotonic() < deadline, "the closed stream was never logged"
        time.sleep(0.2)
    assert "Traceback" not in session_log(live)


def test_ndjson_carries_the_same_messages_one_per_line_with_empty_keepalive_lines(live, api):
    game, tokens = humans(api)
    with StreamReader(live.url, game["id"], tokens[1], ndjson=True, timeout_s=2 * KEEPALIVE_S + 5) as stream:
        assert stream.reply.headers["Content-Type"].startswith("application/x-ndjson")
        messages = iter(stream)
        first = next(messages)
        assert first.kind == "state" and first.id == game["version"] and first.data["version"] == game["version"]
        assert next(messages).kind == "keepalive"  # an empty line
        seat = game["to_act"][0]
        state = api.get(f"/v1/games/{game['id']}/state", tokens[seat]).json()
        reply = api.post_command(game["id"], tokens[seat], state["legal_commands"][0], state["version"]).json()
        got = []
        for message in messages:
            if message.kind != "keepalive":
                got.append(message)
            if message.kind == "turn":
                break
        assert [m.id for m in got if m.kind == "event"] == list(range(state["version"] + 1, reply["version"] + 1))
        turn = got[-1].data
        assert turn["version"] == reply["version"]
        assert set(turn) == {"game", "version", "status", "to_act", "legal_commands", "deadline", "outcome", "view"}
        mine = api.get(f"/v1/games/{game['id']}/state", tokens[1]).json()
        assert turn["to_act"] == mine["to_act"] and turn["legal_commands"] == mine["legal_commands"]
        assert turn["view"] == mine["view"]  # the seat's own view, redacted as GET /state redacts it


def play_from_the_stream(base: str, game_id: str, seat: int, token: str, ndjson: bool, drop_after: int,
                         seen: dict[str, list]) -> None:
    """A bot that reads only its stream: it acts on each ``turn`` that names its seat, drops its connection
    once after ``drop_after`` events and resumes from the last id it saw."""
    rand = random.Random(seat)
    ids, resumed_with, dropped = seen["ids"], seen["resumed_with"], False
    last: str | None = None
    deadline = time.monotonic() + 180
    while True:
        with StreamReader(base, game_id, token, last_event_id=last, ndjson=ndjson) as stream:
            for message in stream:
                assert time.monotonic() < deadline, f"seat {seat}: the game did not end from the stream alone"
                seen["kinds"].append(message.kind)
                if last is not None and len(resumed_with) < 1:
                    resumed_with.append(message.kind)
                if message.kind == "state":
                    seen["start"] = message.id
                    standing = message.data
                elif message.kind == "event":
                    ids.append(message.id)
                    if not dropped and len(ids) >= drop_after:
                        dropped, last = True, str(message.id)
                        break  # a dropped connection, between an event and its turn
                    continue
                elif message.kind == "turn":
                    standing = message.data
                elif message.kind == "end":
                    seen["end"] = message.data
                    return
                else:
                    continue
                if seat in standing["to_act"] and standing["legal_commands"]:
                    command = rand.choice(standing["legal_commands"])
                    reply = requests.post(f"{base}/v1/games/{game_id}/commands", headers={"Authorization": f"Bearer {token}"},
                                          json={"command": command, "expected_version": standing["version"]}, timeout=30)
                    assert reply.status_code in (200, 409), reply.text
            else:
                raise AssertionError("the stream closed before the end")


def test_bots_play_a_whole_game_from_the_stream_alone_each_event_once_in_order_across_a_resume(live, api):
    game, tokens = humans(api)
    seen = {seat: {"ids": [], "resumed_with": [], "kinds": []} for seat in tokens}
    failures: list[BaseException] = []

    def run(seat: int) -> None:
        try:
            play_from_the_stream(live.url, game["id"], seat, tokens[seat], ndjson=seat == 1, drop_after=7 + 5 * seat,
                                 seen=seen[seat])
        except BaseException as exc:  # noqa: BLE001 - reported below
            failures.append(exc)

    bots = [threading.Thread(target=run, args=(seat,)) for seat in tokens]
    [b.start() for b in bots]
    [b.join(240) for b in bots]
    assert not any(b.is_alive() for b in bots)
    assert not failures, failures
    final = api.get(f"/v1/games/{game['id']}").json()
    assert final["status"] == "finished"
    for seat in tokens:
        assert seen[seat]["ids"] == list(range(seen[seat]["start"] + 1, final["version"] + 1))  # once each, in order
        assert seen[seat]["resumed_with"][0] != "state"  # a resume sends no state
        assert seen[seat]["end"] == {"game": final["game"], "version": final["version"], "outcome": final["outcome"]}
        assert seen[seat]["kinds"][-2:] == ["turn", "end"]


def test_a_resume_point_past_the_head_is_refused_with_the_error_body(live, api):
    game, tokens = humans(api)
    for params, headers in (({"after": game["version"] + 1}, {}), ({}, {"Last-Event-ID": str(game["version"] + 1)})):
        reply = requests.get(f"{live.url}/v1/games/{game['id']}/events/stream", params=params,
                             headers={"Authorization": f"Bearer {tokens[0]}", **headers}, timeout=10)
        assert reply.status_code == 422, reply.text
        assert reply.json()["error"]["code"] == "game/version_out_of_range"
        assert reply.json()["error"]["details"]["current_version"] == game["version"]


def test_a_resume_at_the_head_starts_with_where_the_game_stands(live, api):
    game, tokens = humans(api)
    with StreamReader(live.url, game["id"], tokens[0], last_event_id=str(game["version"])) as stream:
        first = next(iter(stream))
    mine = api.get(f"/v1/games/{game['id']}/state", tokens[0]).json()
    assert first.kind == "turn"
    assert first.data == {k: mine[k] for k in ("game", "version", "status", "to_act", "legal_commands", "deadline", "outcome", "view")}


def test_the_per_client_cap_answers_429_with_retry_after_and_frees_a_place_when_a_stream_closes(live, api):
    game, tokens = humans(api)
    readers = [StreamReader(live.url, game["id"], tokens[0], timeout_s=10) for _ in range(PER_CLIENT)]
    try:
        assert all(r.reply.status_code == 200 for r in readers)
        refused = requests.get(f"{live.url}/v1/games/{game['id']}/events/stream",
                               headers={"Authorization": f"Bearer {tokens[0]}"}, timeout=10)
        assert refused.status_code == 429
        assert refused.json()["error"]["code"] == "request/rate_limited"
        assert int(refused.headers["Retry-After"]) > 0
        # another client (the other seat's token) is not held to the first one's count
        with StreamReader(live.url, game["id"], tokens[1], timeout_s=10) as other:
            assert other.reply.status_code == 200
        readers.pop().close()
        deadline = time.monotonic() + 3 * KEEPALIVE_S + 10  # the server notices a gone client at a next write
        while True:
            again = StreamReader(live.url, game["id"], tokens[0], timeout_s=10)
            if again.reply.status_code == 200:
                readers.append(again)
                break
            again.close()
            assert time.monotonic() < deadline, "a closed stream never gave its place back"
            time.sleep(0.3)
    finally:
        for r in readers:
            r.close()


def open_raw_stream(port: int, game_id: str, token: str) -> socket.socket:
    """A stream held open as cheaply as a client can: a socket with the request sent, read only when needed."""
    sock = socket.create_connection(("127.0.0.1", port), timeout=10)
    sock.sendall(f"GET /v1/games/{game_id}/events/stream HTTP/1.1\r\nHost: test\r\n"
                 f"Authorization: Bearer {token}\r\n\r\n".encode())
    return sock


def read_until(socks: list[socket.socket], marker: bytes, timeout_s: float) -> dict[socket.socket, bytes]:
    """Read each socket until ``marker`` has arrived on it."""
    got = {s: b"" for s in socks}
    waiting = set(socks)
    selector = selectors.DefaultSelector()
    for s in socks:
        selector.register(s, selectors.EVENT_READ)
    deadline = time.monotonic() + timeout_s
    try:
        while waiting:
            assert time.monotonic() < deadline, f"{len(waiting)} of {len(socks)} streams never showed {marker!r}"
            for key, _ in selector.select(timeout=1):
                chunk = key.fileobj.recv(65536)
                assert chunk, "a stream closed"
                got[key.fileobj] += chunk
                if marker in got[key.fileobj]:
                    waiting.discard(key.fileobj)
                    selector.unregister(key.fileobj)
    finally:
        selector.close()
    return got


def test_with_500_streams_open_health_state_reads_and_commands_still_answer_within_a_second(live, api):
    games = [humans(api) for _ in range(125)]
    socks: list[socket.socket] = []
    try:
        for game, tokens in games:
            for token in tokens.values():
                socks += [open_raw_stream(live.port, game["id"], token) for _ in range(2)]
        assert len(socks) == 500
        heads = read_until(socks, b"event: state", timeout_s=60)
        assert all(h.startswith(b"HTTP/1.1 200") for h in heads.values())
        # a request timeout of one second is the liveness check; the game is the one whose streams opened first
        assert requests.get(f"{live.url}/healthz", timeout=1).status_code == 200
        game, tokens = games[0]
        seat = game["to_act"][0]
        state = requests.get(f"{live.url}/v1/games/{game['id']}/state", headers={"Authorization": f"Bearer {tokens[seat]}"},
                             timeout=1)
        assert state.status_code == 200
        reply = requests.post(f"{live.url}/v1/games/{game['id']}/commands", headers={"Authorization": f"Bearer {tokens[seat]}"},
                              json={"command": state.json()["legal_commands"][0], "expected_version": state.json()["version"]},
                              timeout=1)
        assert reply.status_code == 200, reply.text
        # the move reaches the four streams watching that game, and every one of the 500 is still open
        read_until(socks[:4], f"id: {reply.json()['version']}\n".encode(), timeout_s=10)
        read_until(socks, b": keep-alive", timeout_s=3 * KEEPALIVE_S + 10)
    finally:
        for s in socks:
            s.close()


def test_a_worker_told_to_stop_ends_its_streams_with_a_retry_hint_and_no_traceback(live, api):
    game, tokens = humans(api)
    readers = [StreamReader(live.url, game["id"], tokens[s % 2], ndjson=bool(s % 2), timeout_s=30) for s in range(4)]
    try:
        assert all(r.reply.status_code == 200 for r in readers)
        workers = [int(p) for p in Path(f"/proc/{live.processes['session'].pid}/task/{live.processes['session'].pid}/children")
                   .read_text().split()]
        assert workers
        messages = [iter(r) for r in readers]
        firsts = [next(m).kind for m in messages]  # every stream has its state, so it is open and waits
        # A worker told to stop waits for its idle keep-alive connections to time out (gunicorn's keepalive, 5 s):
        # this test's own are closed first, so what is waited for below is the streams' end and the worker's.
        api.http.close()
        for pid in workers:
            os.kill(pid, signal.SIGTERM)
        for first, rest in zip(firsts, messages):
            kinds = [first, *(m.kind for m in rest)]  # ends by itself (a clean end of the chunked body), no exception
            assert kinds[0] == "state" and kinds[-1] == "retry", kinds
    finally:
        for r in readers:
            r.close()
    # A worker told to stop may still take a connection while it winds down (and answer it 503 "shutting down",
    # as it should): the next test must not meet one, so wait until each is gone and the new ones answer.
    end = time.monotonic() + 30
    while any(Path(f"/proc/{pid}").exists() for pid in workers) and time.monotonic() < end:
        time.sleep(0.1)
    assert not any(Path(f"/proc/{pid}").exists() for pid in workers), "a worker told to stop is still running"
    live.wait_ready()  # the master has started new workers
    text = session_log(live)
    assert text.count(f"stream {game['id']} (seat 0) closed: shutdown") == 2
    assert "Traceback" not in text


def test_a_stopping_master_ends_every_stream_with_a_retry_hint(live, api):
    game, tokens = humans(api)
    with StreamReader(live.url, game["id"], tokens[0], timeout_s=30) as reader:
        messages = iter(reader)
        assert next(messages).kind == "state"
        api.http.close()  # no idle keep-alive connection of this test's for the stopping workers to wait out
        os.kill(live.processes["session"].pid, signal.SIGTERM)
        kinds = [m.kind for m in messages]
    assert kinds[-1] == "retry", kinds
    live.processes["session"].wait(15)
    assert "Traceback" not in session_log(live)
