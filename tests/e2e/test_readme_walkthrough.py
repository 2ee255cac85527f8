"""The README's walk-through runs as written (issue 29, item 5).

Every ``sh`` block of the README's "A walk-through with curl" is run in order on the real stack: each ``curl`` as the
request it makes (its method, URL, headers and body, shell variables and quotes as a shell reads them), each
``NAME=…`` line as the README means it (set from the answer of the command above it). Every answer must be a success,
the streams must send what the README shows (an NDJSON line of each kind it shows, a ``turn`` message with every
field it names), and the command the README posts must be accepted. The players and the bot at the table play
their part: the friend moves when the game waits on them, the AI seat by itself.
"""

from __future__ import annotations

import re
import shlex
import time
from pathlib import Path
from typing import Any

import orjson
import pytest
import requests

pytestmark = pytest.mark.e2e

README = Path(__file__).resolve().parents[2] / "README.md"
FROM_ANSWER = {"KEY": "key", "FRIENDS_KEY": "key", "GAME": "id", "INVITE": "invite", "VERSION": "version"}
STREAM_READ_S = 3


def walkthrough() -> str:
    """The README's walk-through, up to its generated clients (tests/e2e/test_generated_clients.py runs those)."""
    text = README.read_text()
    return text.split("## A walk-through with curl", 1)[1].split("\n## ", 1)[0].split("### Generated clients")[0]


def sh_commands(section: str) -> list[str]:
    """The commands of the section's ``sh`` blocks, in order: continued lines joined, and a quote open at the end of
    a line (a JSON body over several lines) read on to its close, as a shell does."""
    out: list[str] = []
    for lang, block in re.findall(r"```(\w*)\n(.*?)```", section, flags=re.DOTALL):
        if lang != "sh":
            continue
        current = ""
        for line in block.replace("\\\n", " ").splitlines():
            current = f"{current}\n{line}" if current else line.strip()
            try:
                shlex.split(current)
            except ValueError:  # a quote still open
                continue
            if current:
                out.append(current)
            current = ""
        assert not current, f"an unclosed quote in the README: {current}"
    return out


def expand(command: str, env: dict[str, str]) -> str:
    """``$NAME`` replaced as a shell does: outside single quotes only (inside double quotes too)."""
    out, quoted = [], False
    for part in re.split(r"(\$[A-Z_]+|')", command):
        if part == "'":
            quoted = not quoted
            out.append(part)
        elif part.startswith("$") and not quoted:
            assert part[1:] in env, f"{part} is used before the walk-through sets it"
            out.append(env[part[1:]])
        else:
            out.append(part)
    return "".join(out)


def curl(command: str, base: str) -> tuple[requests.Response, list[bytes]]:
    """The request a curl command line makes (``-s``, ``-N``, ``-H``, ``-d``, ``-X``); a stream (``-N``) is read up to
    its first message (a few seconds at most), its lines returned."""
    words = shlex.split(command)
    assert words[0] == "curl", command
    headers, data, method, stream, url = {}, None, None, False, None
    rest = iter(words[1:])
    for word in rest:
        if word == "-H":
            name, value = next(rest).split(":", 1)
            headers[name.strip()] = value.strip()
        elif word == "-d":
            data = next(rest)
        elif word == "-X":
            method = next(rest)
        elif word == "-N":
            stream = True
        elif word == "-s":
            continue
        else:
            assert url is None and not word.startswith("-"), f"an option the walk-through test does not know: {word}"
            url = word
    assert url is not None and url.startswith("localhost:8000/"), url
    target = base + url.removeprefix("localhost:8000")
    method = method or ("POST" if data is not None else "GET")
    reply = requests.request(method, target, headers=headers, data=data, stream=stream, timeout=30)
    lines: list[bytes] = []
    if stream:
        deadline = time.monotonic() + STREAM_READ_S
        try:
            for line in reply.iter_lines(chunk_size=1):
                lines.append(line)
                first_message = line.startswith(b"{") or line.startswith(b"data: ")
                if first_message or time.monotonic() > deadline:
                    break
        finally:
            reply.close()
    return reply, lines


def seat_of(answer: dict[str, Any]) -> int:
    return answer["view"]["seat"]


def wait_for_my_turn(base: str, env: dict[str, str], state_command: str) -> dict[str, Any]:
    """The state as the README's command reads it once the game waits on the reader: meanwhile the friend plays
    (its first legal command) when the game waits on it, and the AI seat plays by itself."""
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        mine = curl(expand(state_command, env), base)[0].json()
        if seat_of(mine) in mine["to_act"]:
            return mine
        friend = requests.get(f"{base}/v1/games/{env['GAME']}/state", timeout=30,
                              headers={"Authorization": f"Bearer {env['FRIENDS_KEY']}"}).json()
        if seat_of(friend) in friend["to_act"] and friend["legal_commands"]:
            requests.post(f"{base}/v1/games/{env['GAME']}/commands", timeout=30,
                          headers={"Authorization": f"Bearer {env['FRIENDS_KEY']}"},
                          json={"command": friend["legal_commands"][0], "expected_version": friend["version"]})
        time.sleep(0.1)
    raise AssertionError("the game never waited on the walk-through's seat")


def test_the_readme_walkthrough_runs_as_written(stack):
    env: dict[str, str] = {}
    answer: Any = None
    previous = ""
    streams: dict[str, list[bytes]] = {}
    commands = sh_commands(walkthrough())
    assert sum(c.startswith("curl") for c in commands) >= 10
    for command in commands:
        if command.startswith("curl"):
            reply, lines = curl(expand(command, env), stack.url)
            assert reply.status_code < 300, f"{command}\n→ {reply.status_code} {reply.text[:500]}"
            if lines:
                streams[command] = lines
            else:
                answer = reply.json()
            previous = command
            continue
        names = re.findall(r"([A-Z_]+)=[^;\s]*…", command)
        assert names and re.fullmatch(r"([A-Z_]+=[^;]*…;?\s*)+", command), f"not a command the README can mean: {command}"
        if "VERSION" in names:
            answer = wait_for_my_turn(stack.url, env, previous)
        for name in names:
            env[name] = str(answer[FROM_ANSWER[name]])

    me_stream = next(lines for c, lines in streams.items() if "/v1/me/stream" in c)
    assert b'"tables"' in b"\n".join(me_stream) or any(b"event: tables" in line for line in me_stream)
    sse = next(lines for c, lines in streams.items() if "/events/stream" in c and "ndjson" not in c)
    assert b"event: state" in sse and any(line.startswith(b"data: {") for line in sse)
    ndjson = [orjson.loads(line) for c, lines in streams.items() if "ndjson" in c for line in lines if line]
    assert ndjson and ndjson[0]["type"] == "state"


def test_the_readme_shows_ndjson_lines_and_a_turn_message_as_the_stream_sends_them(stack):
    """The NDJSON lines the README shows are of the kinds a stream sends, and its ``turn`` line names every field
    a real ``turn`` message carries (its view too: a seat's own fields)."""
    blocks = re.findall(r"```(\w*)\n(.*?)```", walkthrough(), flags=re.DOTALL)
    shown = next(text for lang, text in blocks if not lang and text.startswith('{"type":')).splitlines()
    kinds = [re.match(r'\{"type":"(\w+)"', line).group(1) for line in shown if line.startswith("{")]
    assert kinds == ["state", "event", "turn"]
    turn_line = next(line for line in shown if line.startswith('{"type":"turn"'))
    table = requests.post(f"{stack.url}/v1/games", timeout=30, json={
        "game": "pocket-madness", "seats": [{"name": "Ada"}, {"name": "Cy"}, {"name": "Bot", "ai": "random"}]}).json()
    tokens = [s["token"] for s in table["seats"][:2]]
    state = requests.get(f"{stack.url}/v1/games/{table['id']}/state", timeout=30,
                         headers={"Authorization": f"Bearer {tokens[0]}"}).json()
    with requests.get(f"{stack.url}/v1/games/{table['id']}/events/stream?after={state['version']}", stream=True,
                      timeout=30, headers={"Authorization": f"Bearer {tokens[0]}",
                                           "Accept": "application/x-ndjson"}) as reply:
        before = []  # the AI seat may have moved since the state was read: its events come first, then the turn
        for line in filter(None, reply.iter_lines()):
            turn = orjson.loads(line)
            if turn["type"] != "event":
                break
            before.append(turn)
    assert turn["type"] == "turn" and [e["id"] for e in before] == list(range(state["version"] + 1, turn["data"]["version"] + 1))
    for field in [*turn["data"], *(f for f in ("seat", "hand", "phase", "turn", "deck") if f in turn["data"]["view"])]:
        assert f'"{field}":' in turn_line, f"the README's turn message does not show {field}"
