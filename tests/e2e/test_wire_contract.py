"""Everything the services send in a full game of each kind conforms to the served OpenAPI document (issue 29, item 2).

On the real stack, over HTTP: a seeded game of each kind is played to its end (its commands from a kernel playout of
the same seed, seat 0 held by a player, the others by seat tokens) while a seat's NDJSON stream, a spectator's SSE
stream and the player's own stream (``/v1/me/stream``) are read. Every message of each stream, every answer to a
command, the seat's and a spectator's state, the events page, the game resource, the export, a chat line and a
rematch offer are checked against the document's components with jsonschema, strictly (a field the document does not
describe is a defect): each stream message against the stream's union (``GameStreamMessage``, ``GameStreamEvent``,
``PlayerStreamMessage``) with the unions of all games narrowed to the game played, its data against the game's
own components (``<Game>SeatView`` while the game is on, ``<Game>SpectatorView`` for a spectator, each event by its
type, each legal command by its type), and whole-number scores as integers. The served document, and its 3.1 and
3.0 renderings, pass openapi-spec-validator (its checks of Schema Objects by jsonschema-rs:
tests/support/spec_validation.py), and copies of it with a broken schema do not.
"""

from __future__ import annotations

import threading
import uuid
from collections.abc import Iterator
from typing import Any

import orjson
import pytest
import requests
from openapi_spec_validator.validation.exceptions import OpenAPIValidationError

from shared.games import GAMES
from shared.wire.contract import pascal
from tests.support.client import ApiClient
from tests.support.contract import Contract
from tests.support.properties import random_playout
from tests.support.spec_validation import validate

pytestmark = pytest.mark.e2e

# players and a seed per game: short games that still show each game's table (tests/e2e docs: a full game each)
GAMES_PLAYED = {"pocket-madness": (2, 6), "arkham-ritual": (3, 4), "great-old-one": (2, 7), "rise-of-cthulhu": (2, 7),
                "rites-of-cthulhu": (4, 7)}
READS = 6  # state and events reads per seat and spectator over a game


@pytest.fixture(scope="module")
def document(stack) -> dict[str, Any]:
    return requests.get(stack.url + "/openapi.json", timeout=30).json()


@pytest.fixture(scope="module")
def contract(document) -> Contract:
    return Contract(document)


def test_the_served_document_and_its_renderings_pass_openapi_spec_validator(stack, document):
    assert document["openapi"] == "3.2.0"
    validate(document)
    for version in ("3.1", "3.0"):
        rendering = requests.get(f"{stack.url}/openapi-{version}.json", timeout=30).json()
        assert rendering["openapi"].startswith(version)
        validate(rendering)
    # the same validation refuses a schema its dialect does not allow, in a parameter and in a component
    def parameter_schema(copy: dict[str, Any]) -> dict[str, Any]:
        return next(parameter["schema"] for item in copy["paths"].values() for op in item.values()
                    if isinstance(op, dict) for parameter in op.get("parameters", []) if "schema" in parameter)

    for where, key, value in ((parameter_schema, "minimum", "one"),
                              (lambda copy: next(iter(copy["components"]["schemas"].values())), "type", "strin")):
        broken = orjson.loads(orjson.dumps(document))
        where(broken)[key] = value
        with pytest.raises(OpenAPIValidationError, match=value):
            validate(broken)


def lines(reply: requests.Response, separator: bytes) -> Iterator[bytes]:
    buffer = b""
    for chunk in reply.iter_content(chunk_size=None):
        buffer += chunk
        while separator in buffer:
            block, buffer = buffer.split(separator, 1)
            yield block


class Follow(threading.Thread):
    """Read one stream in the background: its messages as sent (NDJSON lines parsed, SSE events as their fields),
    until ``until`` says the message is the last wanted."""

    def __init__(self, url: str, token: str | None, sse: bool, until: Any):
        super().__init__(daemon=True)
        headers = {"Accept": "text/event-stream" if sse else "application/x-ndjson"}
        if token:
            headers["Authorization"] = f"Bearer {token}"
        self.reply = requests.get(url, headers=headers, stream=True, timeout=60)
        assert self.reply.status_code == 200, self.reply.text
        self.sse, self.until, self.messages, self.keepalives = sse, until, [], 0
        self.done = threading.Event()
        self.start()

    def run(self) -> None:
        try:
            for block in lines(self.reply, b"\n\n" if self.sse else b"\n"):
                if not block or block.startswith(b":"):
                    self.keepalives += 1
                    continue
                message = (dict(line.split(": ", 1) for line in block.decode().splitlines()) if self.sse
                           else orjson.loads(block))
                self.messages.append(message)
                if self.until(message):
                    return
        finally:
            self.reply.close()
            self.done.set()

    def wait(self, timeout_s: float = 120) -> list[dict[str, Any]]:
        assert self.done.wait(timeout_s), f"the stream did not end: {self.messages[-3:]}"
        return self.messages


def kind_of(message: dict[str, Any]) -> str:
    return message.get("type") or message.get("event") or "retry"


def data_of(message: dict[str, Any]) -> Any:
    return orjson.loads(message["data"]) if isinstance(message.get("data"), str) else message.get("data")


class Checks:
    """The game's checks of one game played: each stream message, state, event and command by its component."""

    def __init__(self, contract: Contract, game_id: str):
        self.name = pascal(game_id)
        self.all = contract
        self.narrow = contract.narrowed({"Command": self.name + "Command", "View": self.name + "View",
                                         "Outcome": self.name + "Outcome"})

    def event(self, event: dict[str, Any]) -> None:
        self.narrow.check(self.name + pascal(event["type"]) + "Event", event)

    def view(self, view: dict[str, Any], status: str, seat: bool) -> None:
        if status in ("finished", "aborted"):
            self.narrow.check(self.name + "View", view)  # every hand, for everyone
        else:
            self.narrow.check(self.name + ("SeatView" if seat else "SpectatorView"), view)

    def state(self, state: dict[str, Any], seat: bool, component: str = "State") -> None:
        """A state (or a turn message's data): the component, then its view and each legal command by its own."""
        self.narrow.check(component, {**state, "legal_commands": []})
        self.view(state["view"], state["status"], seat)
        for command in state["legal_commands"]:
            self.narrow.check(self.name + pascal(command["type"]), command)
        self.outcome(state["outcome"])

    def outcome(self, outcome: dict[str, Any] | None) -> None:
        if outcome is not None:
            self.narrow.check(self.name + "Outcome", outcome)
            assert all(type(score) is int for score in outcome["scores"] or []), outcome

    def game_message(self, message: dict[str, Any], sse: bool, seat: bool) -> None:
        kind, data = kind_of(message), data_of(message)
        union = "GameStreamEvent" if sse else "GameStreamMessage"
        if kind in ("state", "turn"):  # the union without its (long) lists of legal commands; each one below
            self.narrow.check(union, message if sse else {**message, "data": {**data, "legal_commands": []}})
            self.state(data, seat, "State" if kind == "state" else "Turn")
        else:
            self.narrow.check(union, message)
        if kind == "event":
            self.event(data)
        if kind == "end":
            self.outcome(data["outcome"])


@pytest.mark.parametrize("game_id", sorted(GAMES_PLAYED))
def test_every_message_view_and_event_of_a_full_game_conforms_to_the_document(stack, contract, game_id):
    game, (players, seed) = GAMES[game_id], GAMES_PLAYED[game_id]
    checks = Checks(contract, game_id)
    api = ApiClient(stack.url)
    playout = random_playout(game, players, seed)
    player = api.http.post(f"{stack.url}/v1/players", json={"name": "Ada"}, timeout=30).json()
    contract.check("Player", player)
    key = player["key"]
    kinds: set[str] = set()  # the player's stream picks a new table up within a keep-alive: after the game, maybe
    mine = Follow(f"{stack.url}/v1/me/stream", key, sse=False,
                  until=lambda m: kinds.add(m["type"]) or {"game_finished", "rematch"} <= kinds)
    created = api.http.post(f"{stack.url}/v1/games", headers={"Authorization": f"Bearer {key}"}, timeout=30, json={
        "game": game_id, "seats": [{"me": True}, *({"name": f"Seat {i}"} for i in range(1, players))],
        "options": playout.options, "seed": seed.to_bytes(8, "big").hex()}).json()
    contract.check("GameResource", created)
    game_url = f"{stack.url}/v1/games/{created['id']}"
    tokens = {0: key, **{s["seat"]: s["token"] for s in created["seats"] if s.get("token")}}
    seat_stream = Follow(game_url + "/events/stream", key, sse=False, until=lambda m: m["type"] == "end")
    watcher = Follow(game_url + "/events/stream", None, sse=True, until=lambda m: m.get("event") == "end")
    said = api.http.post(game_url + "/chat", headers={"Authorization": f"Bearer {key}"}, json={"text": "good luck"},
                         timeout=30)
    contract.check("ChatLine", said.json())

    version, stride = created["version"], max(1, len(playout.commands) // READS)
    for index, (seat, command) in enumerate(playout.commands):
        if index % stride == 0:
            checks.state(api.get(f"/v1/games/{created['id']}/state", key).json(), seat=True)
            checks.state(api.get(f"/v1/games/{created['id']}/state").json(), seat=False)
            page = api.get(f"/v1/games/{created['id']}/events", key, after=max(0, version - 10)).json()
            checks.narrow.check("EventPage", page)
            for event in page["events"]:
                checks.event(event)
            checks.narrow.check("GameResource", api.get(f"/v1/games/{created['id']}").json())
        reply = api.post_command(created["id"], tokens[seat], command, version)
        assert reply.status_code == 200, reply.text
        checks.narrow.check("CommandResult", reply.json())
        for event in reply.json()["events"]:
            checks.event(event)
        version = reply.json()["version"]

    for follower, sse, seated in ((seat_stream, False, True), (watcher, True, False)):
        messages = follower.wait()
        assert {"state", "event", "turn", "chat", "end"} <= {kind_of(m) for m in messages}
        for message in messages:
            checks.game_message(message, sse, seated)
    over = api.get(f"/v1/games/{created['id']}").json()
    checks.narrow.check("GameResource", over)
    checks.outcome(over["outcome"])
    checks.state(api.get(f"/v1/games/{created['id']}/state", key).json(), seat=True)
    checks.narrow.check("Export", api.get(f"/v1/games/{created['id']}/export").json())
    checks.narrow.check("Audit", api.get(f"/v1/games/{created['id']}/audit").json())
    offered = api.http.post(game_url + "/rematch", headers={"Authorization": f"Bearer {key}"}, timeout=30)
    contract.check("RematchAnswer", offered.json())

    told = mine.wait()
    assert [kind_of(m) for m in told][:1] == ["tables"] and {"game_finished", "rematch"} <= {kind_of(m) for m in told}
    for message in told:
        checks.narrow.check("PlayerStreamMessage", message)


def test_a_players_stream_of_invitations_declines_and_seats_given_back_conforms(stack, contract):
    """The account stream's lobby messages: an invitation, the invitation turned down, a seat given back."""
    def player(name: str) -> dict[str, Any]:
        return requests.post(f"{stack.url}/v1/players", json={"name": f"{name} {uuid.uuid4().hex[:6]}"}, timeout=30).json()

    host, guest = player("Host"), player("Guest")
    auth = {h: {"Authorization": f"Bearer {p['key']}"} for h, p in (("host", host), ("guest", guest))}
    # the guest's stream picks the table up within a keep-alive period (an invitation); the host's knows it at once
    guests = Follow(f"{stack.url}/v1/me/stream", guest["key"], sse=True, until=lambda m: m["event"] == "invited")
    table = requests.post(f"{stack.url}/v1/games", headers=auth["host"], timeout=30, json={
        "game": "pocket-madness", "seats": [{"me": True}, {"open": True, "player": guest["id"]}, {"open": True}]}).json()
    hosts = Follow(f"{stack.url}/v1/me/stream", host["key"], sse=False, until=lambda m: m["type"] == "seat_left")
    assert [kind_of(m) for m in guests.wait()] == ["tables", "invited"]
    url = f"{stack.url}/v1/games/{table['id']}"
    assert requests.post(url + "/decline", headers=auth["guest"], timeout=30).status_code == 200
    assert requests.post(url + "/join", headers=auth["guest"], json={}, timeout=30).status_code == 200
    assert requests.post(url + "/leave", headers=auth["guest"], timeout=30).status_code == 200
    kinds = [kind_of(m) for m in hosts.wait()]
    assert {"tables", "seat_declined", "seat_left"} <= set(kinds)
    for message in hosts.messages:
        contract.check("PlayerStreamMessage", message)
    for message in guests.messages:
        contract.check("PlayerStreamEvent", message)
        contract.check(pascal(kind_of(message)) + "PlayerMessage", {"type": kind_of(message), "data": data_of(message)})
