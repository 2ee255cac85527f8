"""The campaign's clients and the history they write, in the manner of Jepsen: each client is a thread inside one
host's namespace that plays the human seats of one game after another, sends every command with an
Idempotency-Key (and half of them without an expected version, so the key alone keeps a retry from applying twice),
sends it again until it is answered, and records each acknowledgement: when it was sent and answered, its events
(version and hash) and its ``Mythos-Replicated`` value. The checker (checker.py) reads nothing else of the clients.

A client at ``edge`` goes through the balancer; a client on a service host talks to that host's session process,
as a client near that machine would: when the host is cut off, those clients are on its side of the partition.
"""

from __future__ import annotations

import random
import threading
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import requests

from shared.games import GAMES
from tests.partitions.hosts import EDGE, Deployment
from tests.partitions.network import enter, namespace

ANSWERED = (200, 201, 409, 422)  # anything else (a 502 from the balancer, a 503, no answer at all) is sent again
GAME_IDS = sorted(GAMES)
GIVE_UP_S = 180.0  # a request unanswered this long means a game is stuck: the client stops and says so
# Each request's own deadline: a request caught on its way to a host that is cut off waits for it (no one tells it
# the host is gone; TCP keeps trying), so a client that does not give up waits as long as the partition lasts. Past
# it the client sends the request again, with the same key, and the balancer takes it elsewhere. A command may take
# APPEND_RETRY_S (10 s) itself through a failover: one cut short is applied once however often it is sent again.
TIMEOUT_S = 5.0
GONE_AFTER_S = 30.0  # a game the service has said it does not know for this long is given up


class Unanswered(AssertionError):
    """A request was sent again and again for GIVE_UP_S without an answer."""


class Halted(Exception):
    """The campaign is being stopped (it failed elsewhere): the client ends where it is."""


@dataclass
class Ack:
    client: str
    home: str  # the host the client lives on
    game_id: str
    key: str
    sent: float  # the first attempt (time.monotonic)
    at: float  # the answer
    events: list[tuple[int, str]]  # (version, hash) of each event the answer gave
    replicated: str | None
    attempts: int


@dataclass
class Played:
    """A game a client created and played. ``gone``: the service answered 404 for it for GONE_AFTER_S (its creation
    was answered 201 and then lost, or so the client must believe; the checker looks)."""

    created: dict[str, Any]
    home: str
    created_at: float
    ai: bool = False  # every seat an AI's: the workers play it, through the queue's Redis
    finished: bool = False
    gone: bool = False
    head: str | None = None  # the head hash the game's resource showed at its end

    @property
    def id(self) -> str:
        return str(self.created["id"])


@dataclass
class History:
    lock: threading.Lock = field(default_factory=threading.Lock)
    acks: list[Ack] = field(default_factory=list)
    games: dict[str, Played] = field(default_factory=dict)
    answers: Counter[str] = field(default_factory=Counter)  # commands by answer, and every request sent again, by why
    retries: list[tuple[float, str, str]] = field(default_factory=list)  # (when, client, why) of each request sent again
    moved: dict[str, list[float]] = field(default_factory=dict)  # an all-AI game: when its version was seen to move
    problems: list[str] = field(default_factory=list)  # a client that could not go on

    def ack(self, ack: Ack) -> None:
        with self.lock:
            self.acks.append(ack)

    def count(self, kind: str) -> None:
        with self.lock:
            self.answers[kind] += 1

    def retried(self, client: str, why: str) -> None:
        with self.lock:
            self.answers[f"retried {why}"] += 1
            self.retries.append((time.monotonic(), client, why))


@dataclass
class Clients:
    """Every client thread, the games local clients hand over to the balancer's, and the two ways to stop them."""

    deployment: Deployment
    history: History
    homes: list[str]
    ai_watchers: int = 0  # clients behind the balancer that open all-AI tables and watch them play
    seed: int = 47
    threads: list[threading.Thread] = field(default_factory=list)
    spare: list[Played] = field(default_factory=list)
    no_new_games: bool = False
    lock: threading.Lock = field(default_factory=threading.Lock)  # the spare games and no_new_games together
    halt: threading.Event = field(default_factory=threading.Event)

    def start(self) -> None:
        everyone = [(Client, f"c{n}-{home}", home) for n, home in enumerate(self.homes)]
        everyone += [(AiWatcher, f"ai{n}-{EDGE}", EDGE) for n in range(self.ai_watchers)]
        for n, (kind, name, home) in enumerate(everyone):
            client = kind(self, name, home, random.Random(self.seed * 1000 + n))
            thread = threading.Thread(target=client.run, name=client.name, daemon=True)
            self.threads.append(thread)
            thread.start()

    def finish(self, timeout_s: float) -> list[str]:
        """No new games; every game under way (and every spare one) played to its end. Returns the clients still
        playing after ``timeout_s``."""
        with self.lock:
            self.no_new_games = True
        deadline = time.monotonic() + timeout_s
        for thread in self.threads:
            thread.join(max(0.0, deadline - time.monotonic()))
        return [t.name for t in self.threads if t.is_alive()]

    def hand_over(self, game: Played) -> bool:
        """Give ``game`` to the balancer's clients, unless they may already have stopped looking (then False: the
        caller plays it)."""
        with self.lock:
            if not self.no_new_games:
                self.spare.append(game)
            return not self.no_new_games

    def take(self, spare: bool) -> tuple[Played | None, bool]:
        """A spare game if ``spare`` and there is one, and whether new games are still wanted."""
        with self.lock:
            return (self.spare.pop(0) if spare and self.spare else None), not self.no_new_games

    def stop(self) -> None:
        self.halt.set()
        for thread in self.threads:
            thread.join(GIVE_UP_S)


class Client:
    def __init__(self, clients: Clients, name: str, home: str, rand: random.Random):
        self.clients, self.name, self.home, self.rand = clients, name, home, rand
        self.history, self.deployment = clients.history, clients.deployment
        url = self.deployment.url if home == EDGE else self.deployment.session_url(home)
        self.base, self.http = url, requests.Session()
        self.moves = 0

    def run(self) -> None:
        enter(namespace(self.home))
        try:
            while not self.clients.halt.is_set():
                game = self.next_game()
                if game is None:
                    return
                self.play(game)
        except Unanswered as exc:
            with self.history.lock:
                self.history.problems.append(f"{self.name}: {exc}")
        except Halted:
            pass
        except Exception as exc:  # noqa: BLE001 - a client that breaks says how, for the verdict
            with self.history.lock:
                self.history.problems.append(f"{self.name}: {type(exc).__name__}: {exc}")

    def next_game(self) -> Played | None:
        """A spare game if this client is the balancer's, else a new one (none once no new games are wanted). A
        client on a service host keeps a new game whose primary is on its own host (the game it can play when its
        host is cut off) and hands up to two others a round to the balancer's clients."""
        spare, wanted = self.clients.take(spare=self.home == EDGE)
        if spare is not None or not wanted:
            return spare
        for _ in range(3):
            game = self.create()
            if self.home == EDGE or self.deployment.primary_host(game.id, self.home) == self.home:
                return game
            if not self.clients.hand_over(game):
                return game
        return self.create()

    def create(self) -> Played:
        game_id = self.rand.choice(GAME_IDS)
        seats = [{"name": f"Seat {i}"} for i in range(GAMES[game_id].catalogue.min_players)]
        key = f"{self.name}-create-{self.moves}-{self.rand.getrandbits(32)}"
        reply = self.answered(lambda: self.send("POST", "/v1/games", {"game": game_id, "seats": seats},
                                                Idempotency_Key=key))
        assert reply.status_code == 201, reply.text
        played = Played(reply.json(), self.home, time.monotonic())
        with self.history.lock:
            self.history.games[played.id] = played
        return played

    def play(self, game: Played) -> None:
        tokens = {s["seat"]: s["token"] for s in game.created["seats"]}
        unknown_since = None
        while not self.clients.halt.is_set():
            reply = self.answered(lambda: self.send("GET", f"/v1/games/{game.id}"), also=(404,))
            if reply.status_code == 404:
                unknown_since = unknown_since or time.monotonic()
                if time.monotonic() - unknown_since > GONE_AFTER_S:
                    game.gone = True
                    return
                time.sleep(0.5)
                continue
            unknown_since, resource = None, reply.json()
            if resource["status"] != "active":
                game.finished, game.head = resource["status"] == "finished", resource["head_hash"]
                return
            seat = self.rand.choice(resource["to_act"])
            state = self.answered(lambda: self.send("GET", f"/v1/games/{game.id}/state", token=tokens[seat]), also=(404,))
            if state.status_code != 200 or not state.json()["legal_commands"]:
                continue
            self.command(game, tokens[seat], state.json())

    def command(self, game: Played, token: str, state: dict[str, Any]) -> None:
        self.moves += 1
        key = f"{self.name}-move-{self.moves}"
        command = self.rand.choice(state["legal_commands"])
        expected = state["version"] if self.rand.random() < 0.5 else None
        attempts: list[float] = []

        def post() -> requests.Response:
            attempts.append(time.monotonic())
            return self.send("POST", f"/v1/games/{game.id}/commands", {"command": command, "expected_version": expected},
                             token=token, Idempotency_Key=key)

        reply = self.answered(post, also=(404,))
        self.history.count(str(reply.status_code))
        if reply.status_code == 200:
            events = [(e["version"], e["hash"]) for e in reply.json()["events"]]
            self.history.ack(Ack(self.name, self.home, game.id, key, attempts[0], time.monotonic(), events,
                                 reply.headers.get("Mythos-Replicated"), len(attempts)))

    def send(self, method: str, path: str, body: Any = None, token: str | None = None, **headers: str) -> requests.Response:
        sent = {name.replace("_", "-"): value for name, value in headers.items()}
        if token:
            sent["Authorization"] = f"Bearer {token}"
        return self.http.request(method, self.base + path, json=body, headers=sent, timeout=TIMEOUT_S)

    def answered(self, call: Any, also: tuple[int, ...] = ()) -> requests.Response:
        """What a careful client does: send again (the same request, the same key) until it is answered."""
        deadline = time.monotonic() + GIVE_UP_S
        while time.monotonic() < deadline and not self.clients.halt.is_set():
            try:
                reply = call()
                if reply.status_code in ANSWERED or reply.status_code in also:
                    return reply
                self.history.retried(self.name, f"{reply.status_code} {error_code(reply)}".strip())
            except requests.RequestException as exc:
                self.history.retried(self.name, type(exc).__name__)
                self.http = requests.Session()  # its connections may be to a process that is gone
            time.sleep(0.1)
        if self.clients.halt.is_set():
            raise Halted()
        raise Unanswered(f"no answer for {GIVE_UP_S:.0f} s")


class AiWatcher(Client):
    """Opens an all-AI table (two ``random`` seats) after another and watches it play to its end: its moves go
    through the queue's Redis and the workers, which the faults cut off and fail over too. A table that does not
    move for GIVE_UP_S is stuck."""

    def next_game(self) -> Played | None:
        if not self.clients.take(spare=False)[1]:
            return None
        game_id = self.rand.choice(GAME_IDS)
        seats = [{"name": f"Bot {i}", "ai": "random"} for i in range(GAMES[game_id].catalogue.min_players)]
        key = f"{self.name}-create-{self.rand.getrandbits(32)}"
        reply = self.answered(lambda: self.send("POST", "/v1/games", {"game": game_id, "seats": seats},
                                                Idempotency_Key=key))
        assert reply.status_code == 201, reply.text
        played = Played(reply.json(), self.home, time.monotonic(), ai=True)
        with self.history.lock:
            self.history.games[played.id] = played
            self.history.moved[played.id] = [time.monotonic()]
        return played

    def play(self, game: Played) -> None:
        version, moved = -1, time.monotonic()
        while not self.clients.halt.is_set():
            reply = self.answered(lambda: self.send("GET", f"/v1/games/{game.id}"), also=(404,))
            if reply.status_code == 404:
                game.gone = time.monotonic() - moved > GONE_AFTER_S
                if game.gone:
                    return
            else:
                resource = reply.json()
                if resource["status"] != "active":
                    game.finished, game.head = resource["status"] == "finished", resource["head_hash"]
                    return
                if resource["version"] != version:
                    version, moved = resource["version"], time.monotonic()
                    with self.history.lock:
                        self.history.moved[game.id].append(moved)
                elif time.monotonic() - moved > GIVE_UP_S:
                    raise Unanswered(f"the all-AI game {game.id} did not move for {GIVE_UP_S:.0f} s")
            time.sleep(0.25)


def error_code(reply: requests.Response) -> str:
    """The API's error code of an answer (``service/unreplicated``…), or nothing (HAProxy's own answers have none)."""
    try:
        return str(reply.json()["error"]["code"])
    except (ValueError, KeyError, TypeError):
        return ""
