"""``mythos bot run``: a bot account's runner. It follows the player's stream (``GET /v1/me/stream``), plays every
table the bot sits at, each on its own thread and stream (``game.py``), seeks quick play games when asked (one seek
at a time, the server's limit, and only while it plays fewer games than ``concurrency``), answers every challenge
by its policy (``policy.py``: accepted, it is a table like the others), and logs each game's end and audit.

Everything arrives in one inbox, read by one thread (so the runner's state needs no lock): the player's stream
messages, and each game's end from its thread. The player's stream is reopened whenever it drops, for as long as the
runner runs; its first message lists the bot's tables, so a table found while it was away is played too, and an open
seek is looked up again (a seek lapses once the stream has been gone ``SEEK_LAPSE_S``).

Ctrl-C stops seeking (the open seek is withdrawn) and lets the games under way finish; a second Ctrl-C leaves at once
(their seats' turn timers play on)."""

from __future__ import annotations

import queue
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from shared.games import GAMES
from session_service.cli.bot.game import GameLoop, Played
from session_service.cli.bot.load import Bot
from session_service.cli.bot.policy import Policy
from session_service.cli.terminal.api import Api, Inbox, PlayError, StreamReader

SEEK_AGAIN_S = 5.0  # a seek refused for a limit is tried again this long after


@dataclass
class Options:
    quick: list[str] = field(default_factory=list)  # games to seek, in turn
    seek: dict[str, Any] = field(default_factory=dict)  # the rest of each seek's body (seats, rated, pool, ai fill)
    concurrency: int = 1  # games at once
    games: int | None = None  # stop once this many games were played (None: run until stopped)
    accept: Policy = field(default_factory=lambda: Policy.parse("all"))  # the challenges it accepts


class Runner:
    def __init__(self, base: str, key: str, bot: Bot, options: Options, log: Callable[[str], None]):
        self.base, self.key, self.bot, self.options, self.say = base, key, bot, options, log
        self.api = Api(base)
        self.api.token = key
        self.inbox: Inbox = queue.Queue()
        self.me: dict[str, Any] = {}
        self.running: dict[str, GameLoop] = {}
        self.taken: set[str] = set()  # every table this run played or plays
        self.lost: set[str] = set()  # tables whose loop stopped short of the end (a stream lost): followed again
        self.finished = 0
        self.seek: str | None = None
        self.seek_after = 0.0  # monotonic time before which no seek is made (one was refused for a limit)
        self.next_quick = 0
        self.answered: set[str] = set()  # challenges answered (the stream tells an open one again when it reopens)
        self.stopping = False

    # -- the loop ---------------------------------------------------------------------------------------------------
    def run(self) -> int:
        self.me = self.api.call("GET", "/v1/me")
        if not self.me.get("bot"):
            self.say(f"{self.me.get('name')} is not a bot account: a program plays as a player made with \"bot\": true "
                     "(mythos bot new --name NAME)")
            return 2
        games = self.bot.games(sorted(GAMES))
        for game in [g for g in self.options.quick if g not in games]:
            self.say(f"not seeking {game}: it is not one of the games {self.bot.spec} plays")
        self.options.quick = [g for g in self.options.quick if g in games]
        self.say(f"{self.me['name']} ({self.me['id']}) on {self.base}, playing {self.bot.spec} "
                 f"({', '.join(games)})" + (f"; quick play: {', '.join(self.options.quick)}" if self.options.quick else ""))
        setting = self.me.get("accept_challenges")
        if setting in ("auto", "never"):
            self.say(f"challenges: the server {'accepts every one' if setting == 'auto' else 'refuses them all'} "
                     f"(accept_challenges: {setting}, PATCH /v1/me), whatever --accept says")
        StreamReader(self.api, "", self.inbox, path="/v1/me/stream", give_up_s=None,
                     reopened=lambda _: self.say("the player's stream dropped; reopened")).start()
        while not self.over():
            try:
                self.step()
            except KeyboardInterrupt:
                if self.stopping:
                    return 130
                self.stop()
        return 0

    def step(self) -> None:
        try:
            source, (_, item) = self.inbox.get(timeout=1.0)
        except queue.Empty:
            self.maybe_seek()
            return
        if source == "error":
            raise PlayError(f"the player's stream: {item}")
        try:
            if source == "ended":
                self.ended(item)
            elif source == "stream":
                self.on_message(str(item.get("type")), item.get("data") or {})
        except PlayError as exc:  # a request on the way lost: the stream says it again (your_turn, tables once reopened)
            self.say(f"could not act on the player's stream yet: {exc}")

    def over(self) -> bool:
        limit = self.options.games
        return not self.running and (self.stopping or (limit is not None and self.finished >= limit))

    def stop(self) -> None:
        self.stopping = True
        self.withdraw()
        if self.running:
            self.say(f"stopping: finishing {len(self.running)} game(s) under way; Ctrl-C again to leave now")

    # -- the player's stream ----------------------------------------------------------------------------------------
    def on_message(self, kind: str, data: Mapping[str, Any]) -> None:
        if kind == "tables":
            for table in data.get("tables") or []:
                if table.get("status") == "active" and table.get("seat") is not None:
                    self.follow(str(table["game"]))
            found = self.api.call("GET", "/v1/seeks").get("seeks") or []
            self.seek = str(found[0]["id"]) if found else None
            self.maybe_seek()
        elif kind == "matched":
            if data.get("seek") == self.seek:
                self.seek = None
            self.follow(str(data["game"]))
            self.maybe_seek()
        elif kind in ("game_started", "your_turn") and data.get("seat") is not None:
            self.follow(str(data["game"]))
        elif kind == "challenge":
            self.answer(data.get("challenge") or {})
        elif kind == "challenge_accepted":  # accepted here, or by the server for a bot set to auto
            self.follow(str(data["game"]))
        elif kind == "challenge_declined":  # one the bot's owner made with its key
            challenge = data.get("challenge") or {}
            self.say(f"{(challenge.get('challenged') or {}).get('name')} declined the challenge ({challenge.get('game')})")
        elif kind in ("challenge_withdrawn", "challenge_expired"):
            challenge = data.get("challenge") or {}
            self.say(f"{_by(challenge)}'s challenge ({challenge.get('game')}) was {kind.split('_')[1]}")

    def follow(self, game_id: str) -> None:
        """Play the bot's seat at this table, unless this run plays it already or played it to its end."""
        if game_id in self.running or (game_id in self.taken and game_id not in self.lost):
            return
        table = self.api.call("GET", f"/v1/games/{game_id}")
        seat = next((s["seat"] for s in table["seats"] if s.get("player") == self.me["id"] and not s.get("open")), None)
        if seat is None or table.get("status") != "active":
            return
        choose, game = self.bot.plays(table["game"]), GAMES.get(table["game"])
        if choose is None or game is None:
            self.say(f"{game_id}: {self.bot.spec} does not play {table['game']}: this run leaves that seat alone")
            self.taken.add(game_id)
            return
        names = [s["name"] for s in table["seats"]]
        played = Played(game_id, table["game"], seat, names)
        loop = GameLoop(self.base, self.key, played, choose, game.catalogue.commands, self.say,
                        lambda p: self.inbox.put(("ended", (None, p))))
        self.running[game_id] = loop
        self.taken.add(game_id)
        others = ", ".join(n for i, n in enumerate(names) if i != seat)
        self.say(f"{game_id} {game.catalogue.title}: seat {seat} against {others}")
        loop.start()

    def ended(self, played: Played) -> None:
        self.running.pop(played.game_id, None)
        if played.stopped is not None:
            self.lost.add(played.game_id)
            self.say(f"{played.game_id}: stopped following the table ({played.stopped}); it is taken up again when "
                     "the player's stream lists it")
            return
        self.lost.discard(played.game_id)
        self.finished += 1
        for line in report(played):
            self.say(line)
        self.maybe_seek()

    # -- challenges -------------------------------------------------------------------------------------------------
    def answer(self, challenge: Mapping[str, Any]) -> None:
        """Accept or decline a challenge made to the bot, once."""
        challenge_id = str(challenge.get("id"))
        if challenge_id in self.answered or challenge.get("status", "open") != "open":
            return
        self.answered.add(challenge_id)
        game, limit = str(challenge.get("game")), self.options.games
        why = (self.options.accept.refuses(challenge)
               or (f"{self.bot.spec} does not play {game}" if self.bot.plays(game) is None else None)
               or ("it is stopping" if self.stopping else None)
               or (f"it plays {len(self.running)} game(s) at once already" if len(self.running) >= self.options.concurrency
                   else None)
               or (f"it plays {limit} game(s) in this run" if limit is not None and len(self.taken) >= limit else None))
        verb = "decline" if why else "accept"
        try:
            answered = self.api.call("POST", f"/v1/challenges/{challenge_id}/{verb}")
        except PlayError as exc:  # withdrawn or lapsed meanwhile (409 challenge/closed)
            self.say(f"{_by(challenge)}'s challenge ({game}) could not be {verb}ed: {exc}")
            return
        if why:
            self.say(f"declined {_by(challenge)}'s challenge ({game}): {why}")
            return
        self.say(f"accepted {_by(challenge)}'s challenge ({game}, {'rated' if challenge.get('rated') else 'casual'})")
        self.follow(str(answered["table"]))
        if len(self.running) >= self.options.concurrency:
            self.withdraw()  # a seek matched now would be one game too many

    # -- quick play -------------------------------------------------------------------------------------------------
    def maybe_seek(self) -> None:
        options = self.options
        if (not options.quick or self.stopping or self.seek is not None or len(self.running) >= options.concurrency
                or (options.games is not None and len(self.taken) >= options.games)
                or time.monotonic() < self.seek_after):
            return
        game = options.quick[self.next_quick % len(options.quick)]
        self.next_quick += 1
        try:
            seek = self.api.call("POST", "/v1/seeks", {"game": game, **options.seek})
        except PlayError as exc:
            if exc.status == 429 or exc.code in ("client/unreachable", "service/unavailable"):
                self.seek_after = time.monotonic() + SEEK_AGAIN_S
                self.say(f"seeking {game} must wait: {exc}")
            else:
                options.quick.remove(game)
                self.say(f"seeking {game} was refused, so it is sought no more: {exc}")
            return
        self.seek = str(seek["id"])  # until its matched comes (or the stream, reopened, lists no such seek)
        kind = f"{'rated' if seek.get('rated') else 'casual'}, the {seek.get('pool')} pool"
        if not seek.get("waiting"):
            self.say(f"seeking {game} ({kind}): seated at once")
            return
        others = int(seek.get("pool_size", 1)) - 1
        self.say(f"seeking {game} ({kind}, {others} other{'' if others == 1 else 's'} waiting)")

    def withdraw(self) -> None:
        if self.seek is None:
            return
        try:
            self.api.call("DELETE", f"/v1/seeks/{self.seek}")
            self.say("the open seek is withdrawn")
        except PlayError:
            pass  # matched meanwhile, or lapsed: its table, if any, is played to the end
        self.seek = None


def report(played: Played) -> list[str]:
    """A game's end and its audit, in a line each."""
    outcome = played.outcome or {}
    names = played.names
    winners = [("you" if s == played.seat else names[s] if s < len(names) else f"seat {s}") for s in outcome.get("winners") or []]
    result = "won" if played.seat in (outcome.get("winners") or []) else "did not win"
    counts = f"{played.posted} commands"
    if played.conflicts:
        counts += f", {played.conflicts} answered 409"
    if played.replaced:
        counts += f", {played.replaced} choices replaced by the first legal command"
    if played.resumed:
        counts += f", the stream resumed {len(played.resumed)} time(s)"
    lines = [f"{played.game_id} over ({outcome.get('reason')}): {result}; winners: {', '.join(winners) or 'none'}; "
             f"scores {outcome.get('scores')}; {counts}"]
    audit = played.audit
    if audit is None:
        lines.append(f"{played.game_id} audit: not read")
    else:
        verdict = "verified" if audit.get("chain_ok") and audit.get("replay_ok") else "NOT VERIFIED"
        lines.append(f"{played.game_id} audit: {verdict} (hash chain {_ok(audit.get('chain_ok'))}, re-decision "
                     f"{_ok(audit.get('replay_ok'))}, {audit.get('events')} events, head {str(audit.get('head_hash'))[:12]})")
        if audit.get("first_divergence"):
            lines.append(f"{played.game_id} audit: first divergence {audit['first_divergence']}")
    return lines


def _by(challenge: Mapping[str, Any]) -> str:
    return str((challenge.get("challenger") or {}).get("name") or "someone")


def _ok(value: Any) -> str:
    return "ok" if value is True else "not checked" if value is None else "FAILED"
