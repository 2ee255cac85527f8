"""One game a bot plays, on the game's own stream (README, "A bot that reads only its stream").

On every ``state`` and ``turn`` that waits on the bot's seat, the bot's ``choose(view, legal_commands)`` picks one of
the legal commands (read into the game's command records), and it is posted with ``expected_version`` = the version
it was offered at and an ``Idempotency-Key`` named by that version. So:

- a command whose answer was lost (the connection cut) is sent again with the same key: the server answers what it
  answered the first time, and writes nothing twice;
- a 409 (another seat moved first, or a simultaneous choice went in) is answered by waiting for the next ``turn``,
  which is on its way; nothing is re-chosen from a position that is gone;
- a dropped stream is resumed after the last version seen (``StreamReader``: every event once, in order, then a
  ``turn``).

A ``choose`` that raises, or returns a command that is not legal now, is logged, and the first legal command goes in
instead: a bot never holds a table up (its etiquette, docs/writing-a-bot.md). At the end the runner is told the
outcome and the game's audit (``GET /v1/games/{id}/audit``)."""

from __future__ import annotations

import queue
import threading
import time
import traceback
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from shared.kernel.commands import Command, CommandRefused
from session_service.cli.terminal.api import Api, Inbox, PlayError, StreamReader

Choose = Callable[[Any, list[Any]], Any]
RETRY_FOR_S = 60.0  # how long a command whose answer did not come is sent again before the game is left to the stream
RETRIED = frozenset({"client/unreachable", "service/unavailable", "request/rate_limited"})


@dataclass
class Played:
    """What the runner says of a game once it is over (or once it stopped following it)."""

    game_id: str
    game: str
    seat: int
    names: list[str] = field(default_factory=list)
    outcome: dict[str, Any] | None = None
    audit: dict[str, Any] | None = None
    posted: int = 0
    conflicts: int = 0  # commands answered 409: the game had moved on
    replaced: int = 0  # choices that raised or were not legal, played as the first legal command instead
    resumed: list[int | None] = field(default_factory=list)  # the version the stream resumed after, per drop
    stopped: str | None = None  # why it stopped before the end


class GameLoop(threading.Thread):
    """Plays the bot's seat at one table to the end; ``done`` is told what it played (from this thread)."""

    def __init__(self, base: str, key: str, played: Played, choose: Choose, records: Mapping[str, type[Command]],
                 log: Callable[[str], None], done: Callable[[Played], None]):
        super().__init__(name=f"game {played.game_id}", daemon=True)
        self.api = Api(base)  # an HTTP session of its own: requests' sessions are not shared across threads
        self.api.token = key
        self.played, self.choose, self.records, self.log, self.done = played, choose, records, log, done
        self.floor = 0  # standings below this version are known to be gone (a command went in, or a 409 said so)
        self.path = f"/v1/games/{played.game_id}"

    def run(self) -> None:
        try:
            self.play()
        except PlayError as exc:
            self.played.stopped = str(exc)
        finally:
            self.done(self.played)

    def play(self) -> None:
        inbox: Inbox = queue.Queue()
        reader = StreamReader(self.api, self.played.game_id, inbox, reopened=self.reopened)
        reader.start()
        try:
            while True:
                source, (_, message) = inbox.get()
                if source == "error":
                    raise PlayError(str(message))
                kind, data = message.get("type"), message.get("data") or {}
                if kind in ("state", "turn"):
                    self.on_standing(data)
                elif kind == "end":
                    self.played.outcome = data.get("outcome")
                    self.played.audit = self.audit()
                    return
        finally:
            reader.stop.set()

    def reopened(self, after: int | None) -> None:
        self.played.resumed.append(after)
        self.log(f"{self.played.game_id}: the stream dropped; resumed after version {after}")

    def on_standing(self, data: Mapping[str, Any]) -> None:
        version = int(data.get("version", 0))
        if (version < self.floor or data.get("status") != "active" or self.played.seat not in (data.get("to_act") or [])
                or not data.get("legal_commands")):
            return
        legal = [self.record(raw) for raw in data["legal_commands"]]
        self.post(self.chosen(data.get("view") or {}, legal), version)

    def record(self, raw: Mapping[str, Any]) -> Command:
        """A legal command as its game's record (what ``choose`` is given)."""
        kind = self.records.get(str(raw.get("type")))
        try:
            if kind is None:
                raise CommandRefused(str(raw.get("type")), {"type": ["no such command in this client's records"]})
            return kind.from_wire(raw)
        except CommandRefused as exc:
            raise PlayError(f"the server offers a command this client cannot read ({exc}): update the client") from exc

    def chosen(self, view: Any, legal: list[Command]) -> Command:
        """The bot's choice, or the first legal command when it failed to make one."""
        try:
            choice = self.choose(view, legal)
        except Exception:  # noqa: BLE001 - the author's code: whatever it raised, the table goes on
            self.played.replaced += 1
            self.log(f"{self.played.game_id}: choose raised; playing {legal[0].to_wire()} instead\n"
                     + traceback.format_exc().rstrip())
            return legal[0]
        if isinstance(choice, Command) and choice.to_wire() in [c.to_wire() for c in legal]:
            return choice
        self.played.replaced += 1
        self.log(f"{self.played.game_id}: choose returned {choice!r}, which is not one of the legal commands; playing "
                 f"{legal[0].to_wire()} instead")
        return legal[0]

    def post(self, command: Command, version: int) -> None:
        """Post ``command`` as offered at ``version``, sent again (same key) while no answer comes."""
        body = {"command": command.to_wire(), "expected_version": version}
        key = {"Idempotency-Key": f"bot-{self.played.game_id}-{self.played.seat}-v{version}"}
        give_up = time.monotonic() + RETRY_FOR_S
        while True:
            try:
                answer = self.api.call("POST", f"{self.path}/commands", body, headers=key)
            except PlayError as exc:
                if exc.code == "game/version_conflict":
                    self.played.conflicts += 1
                    self.floor = max(self.floor, int(exc.details.get("current_version", version + 1)))
                    return  # the next turn is on its way
                if (exc.code in RETRIED or exc.status >= 500) and time.monotonic() < give_up:
                    time.sleep(min(max(exc.retry_after or 0.5, 0.5), 10.0))  # as long as the server asks (429, 503)
                    continue
                if exc.code != "game/finished":
                    self.log(f"{self.played.game_id}: {command.to_wire()} was refused: {exc} ({exc.code})")
                return
            self.played.posted += 1
            self.floor = max(self.floor, int(answer["version"]))
            return

    def audit(self) -> dict[str, Any] | None:
        try:
            found: dict[str, Any] = self.api.call("GET", f"{self.path}/audit")
            return found
        except PlayError as exc:
            self.log(f"{self.played.game_id}: the audit could not be read: {exc}")
            return None
