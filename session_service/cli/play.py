"""``mythos play``: a terminal client for a seat. It creates a table (the other seats AI) or takes a seat it holds
a token for (or, with a player key, a seat the player holds; or joins an open one), shows the seat's view, lists
the legal commands by number, reads the choice from stdin and follows the game on its live stream (NDJSON), like
any third-party client.

Only the public API is used (stdlib + requests): nothing here knows a game's rules; card names come from the
catalogue's card data."""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Iterator
from typing import Any, TextIO

import requests

# Which command and view fields name cards, per game, and the card-data group (and its id field) they index.
CARD_FIELDS: dict[str, dict[str, tuple[str, str]]] = {
    "rites-of-cthulhu": {**dict.fromkeys(["card", "cards", "book", "ridge_card", "hand", "hands", "captured"], ("entities", "id")),
                         **dict.fromkeys(["artifact", "coveted", "give", "take"], ("artifacts", "id")),
                         "rite": ("rites", "id")},
    "pocket-madness": {**dict.fromkeys(["location", "hand", "melds", "discards", "known_cards"], ("locations", "number")),
                       "portal": ("portals", "number")},
    "arkham-ritual": dict.fromkeys(["card", "cards", "own_card", "discards"], ("cards", "id")),
    "great-old-one": {**dict.fromkeys(["card", "cards", "centre", "hand", "chosen", "centre_card", "take", "horrors"], ("cards", "id")),
                      "story": ("stories", "key")},
}
SEAT_FIELDS = ("seat", "to", "target")


class Client:
    def __init__(self, base: str, out: TextIO = sys.stdout, inp: TextIO = sys.stdin):
        self.base, self.out, self.inp = base.rstrip("/"), out, inp
        self.http = requests.Session()
        self.token: str | None = None
        self.game: dict[str, Any] = {}
        self.names: dict[tuple[str, str], str] = {}
        self.seats: list[dict[str, Any]] = []

    def say(self, text: str = "") -> None:
        self.out.write(text + "\n")
        self.out.flush()

    def call(self, method: str, path: str, body: Any = None) -> Any:
        headers = {"Authorization": f"Bearer {self.token}"} if self.token else {}
        reply = self.http.request(method, self.base + path, json=body, headers=headers, timeout=30)
        data = reply.json() if reply.content else None
        if not reply.ok:
            raise PlayError((data or {}).get("error", {}).get("message") or f"the server answered {reply.status_code}")
        return data

    # -- names -------------------------------------------------------------------------------------------
    def learn(self, game_type: str) -> None:
        games = {g["id"]: g for g in self.call("GET", "/v1/catalog")["games"]}
        self.game = games[game_type]
        data = self.game.get("card_data", {})
        for group, entries in data.items():
            rows = entries.values() if isinstance(entries, dict) else entries if isinstance(entries, list) else []
            for row in rows:
                if isinstance(row, dict):
                    for id_field in ("id", "number", "key"):
                        if id_field in row:
                            name = row.get("name") or row.get("title") or f"{row.get('colour', '')} {row.get('number', '')}".strip()
                            self.names[(group, str(row[id_field]))] = name

    def name(self, field: str, value: Any) -> str:
        group = CARD_FIELDS.get(self.game.get("id", ""), {}).get(field)
        if isinstance(value, list):
            return " + ".join(self.name(field, v) for v in value)
        if group and (group[0], str(value)) in self.names:
            return self.names[(group[0], str(value))]
        if isinstance(value, str):  # Rise of Cthulhu names its cards by string ids
            for group_name in ("cultists", "old_ones", "monsters", "artifacts", "locations", "stories"):
                if (group_name, value) in self.names:
                    return self.names[(group_name, value)]
        if field in SEAT_FIELDS and isinstance(value, int) and value < len(self.seats):
            return f"{self.seats[value]['name'] or 'open'} (seat {value})"
        return str(value)

    def label(self, command: dict[str, Any]) -> str:
        fields = ", ".join(f"{k} {self.name(k, v)}" for k, v in command.items() if k != "type" and v is not None and v is not False)
        return str(command["type"]).replace("_", " ") + (f": {fields}" if fields else "")

    # -- showing -----------------------------------------------------------------------------------------
    def show_view(self, view: dict[str, Any], indent: str = "  ") -> None:
        for key, value in view.items():
            if isinstance(value, dict) and value and len(json.dumps(value)) > 70:
                self.say(f"{indent}{key}:")
                self.show_view(value, indent + "  ")
                continue
            if isinstance(value, list) and value and all(isinstance(v, (int, str)) for v in value) and key in CARD_FIELDS.get(self.game["id"], {}):
                text = ", ".join(self.name(key, v) for v in value)
            elif isinstance(value, (int, str)) and key in CARD_FIELDS.get(self.game["id"], {}):
                text = self.name(key, value)
            else:
                text = json.dumps(value)
            self.say(f"{indent}{key}: {text[:200]}")

    # -- the game ----------------------------------------------------------------------------------------
    def stream(self, game_id: str) -> Iterator[dict[str, Any]]:
        headers = {"Accept": "application/x-ndjson", **({"Authorization": f"Bearer {self.token}"} if self.token else {})}
        after = None
        while True:
            url = f"{self.base}/v1/games/{game_id}/events/stream" + (f"?after={after}" if after is not None else "")
            with self.http.get(url, headers=headers, stream=True, timeout=(10, 60)) as reply:
                if not reply.ok:
                    raise PlayError(reply.json().get("error", {}).get("message", f"stream refused ({reply.status_code})"))
                try:
                    for line in reply.iter_lines():
                        if not line:
                            continue
                        message = json.loads(line)
                        if message.get("id") is not None:
                            after = int(message["id"])
                        yield message
                        if message["type"] == "end":
                            return
                except requests.exceptions.RequestException:
                    pass  # the connection dropped: resume after the last version seen

    def play(self, game_id: str, seat: int | None) -> int:
        resource = self.call("GET", f"/v1/games/{game_id}")
        self.seats = resource["seats"]
        self.learn(resource["game"])
        who = "a spectator" if seat is None else f"seat {seat}"
        self.say(f"{self.game['title']} · game {game_id} · you are {who}")
        for message in self.stream(game_id):
            kind, data = message["type"], message.get("data") or {}
            if kind == "state":
                self.say(f"-- state at version {data['version']}")
                self.show_view(data["view"])
                if seat is not None:
                    self.turn(game_id, seat, data, data["view"])
            elif kind == "event":
                by = "" if data.get("seat") is None else f" (seat {data['seat']})"
                self.say(f"  {data['version']}. {data['type']}{by}")
            elif kind == "turn" and seat is not None:
                self.turn(game_id, seat, data)
            elif kind == "end":
                outcome = data.get("outcome") or {}
                self.say(f"Game over ({outcome.get('reason')}). Winners: {outcome.get('winners')}")
                return 0
        return 0

    def turn(self, game_id: str, seat: int, turn: dict[str, Any], view: dict[str, Any] | None = None) -> None:
        """Offer the legal commands of a turn (or of the first state) and post the one chosen."""
        legal = turn.get("legal_commands") or []
        if turn.get("status") != "active" or not legal:
            return
        mine = seat in (turn.get("to_act") or [])
        if view is None:
            state = self.call("GET", f"/v1/games/{game_id}/state")
            if state["version"] != turn["version"]:
                return  # the game moved on; a newer turn message follows
            self.say(f"-- version {turn['version']}" + (f", deadline {turn['deadline']}" if turn.get("deadline") else ""))
            self.show_view(state["view"])
        self.say("Your move:" if mine else "You may act out of turn (Enter to wait):")
        for number, command in enumerate(legal, 1):
            self.say(f"  {number:>3}. {self.label(command)}")
        while True:
            self.out.write("> ")
            self.out.flush()
            line = self.inp.readline()
            if not line:
                raise PlayError("no more input")
            line = line.strip()
            if not line and not mine:
                return
            if not line.isdigit() or not 1 <= int(line) <= len(legal):
                self.say(f"choose a number from 1 to {len(legal)}")
                continue
            try:
                self.call("POST", f"/v1/games/{game_id}/commands", {"command": legal[int(line) - 1], "expected_version": turn["version"]})
            except PlayError as exc:
                self.say(f"refused: {exc}")
            return


class PlayError(Exception):
    """A refusal in the server's own words (the error body's message)."""


def run(args: Any) -> int:
    client = Client(args.server)
    try:
        seat: int | None
        if args.key:  # a player: one key for every seat it holds, so coming back needs no seat token
            client.token = args.key
            me = client.call("GET", "/v1/me")
        if args.game_id and args.watch:
            seat = None
        elif args.game_id and args.token and not args.key:
            client.token, seat = args.token, args.seat
        elif args.game_id and args.key:
            held = [s["seat"] for s in client.call("GET", f"/v1/games/{args.game_id}")["seats"] if s.get("player") == me["id"]]
            seat = held[0] if held else client.call("POST", f"/v1/games/{args.game_id}/join", {})["seat"]
        elif args.game_id:
            answer = client.call("POST", f"/v1/games/{args.game_id}/join", {"name": args.name})
            client.token, seat = answer.get("token"), answer["seat"]
        else:
            bots = [{"name": f"Bot {n}", "ai": "random"} for n in range(1, args.players)]
            you = {"me": True} if args.key else {"name": args.name}
            created = client.call("POST", "/v1/games", {"game": args.game, "seats": [you] + bots})
            args.game_id, seat = created["id"], 0
            if not args.key:
                client.token = created["seats"][0]["token"]
                client.say(f"created {args.game_id}; your seat token (keep it to come back): {client.token}")
            else:
                client.say(f"created {args.game_id}; come back with: mythos play {args.game_id} --key …")
        return client.play(args.game_id, seat)
    except PlayError as exc:
        client.say(f"error: {exc}")
        return 1
    except KeyboardInterrupt:
        return 130


def add_parser(sub: Any) -> None:
    play = sub.add_parser("play", help="play a seat in the terminal: create a table (other seats AI), join one, or watch")
    play.add_argument("game_id", nargs="?", help="a table to take a seat at (with --token), join, or --watch")
    play.add_argument("--server", default="http://127.0.0.1:8000")
    play.add_argument("--game", default="pocket-madness", help="the game type of a new table")
    play.add_argument("--players", type=int, default=2, help="seats at a new table (you and AI seats)")
    play.add_argument("--name", default="Player")
    play.add_argument("--token", help="your seat token at GAME_ID")
    play.add_argument("--seat", type=int, default=0, help="the seat of --token")
    play.add_argument("--watch", action="store_true", help="watch GAME_ID as a spectator")
    play.add_argument("--key", default=os.environ.get("MYTHOS_KEY"),
                      help="your player key (POST /v1/players; default $MYTHOS_KEY): create, join and come back as that "
                           "player, no seat token needed")
