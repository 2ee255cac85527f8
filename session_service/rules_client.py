"""How the session service reaches the rules: over HTTP in deployment, in process for unit tests only.

Both clients answer the same way: events, or the kernel's own exceptions (RuleViolation, MalformedCommand,
GameOver), or ``service/unavailable`` when the rules service cannot be reached, so callers write nothing.
"""

from __future__ import annotations

from typing import Any

import orjson
import urllib3

from shared.kernel import Event, Game, RuleViolation
from shared.kernel.game import GameOver, MalformedCommand
from shared.wire.errors import malformed, unavailable


JSON_HEADERS = {"Content-Type": "application/json"}


class HttpRules:
    """The rules service over HTTP, through one bare urllib3 connection pool for its host: ``requests`` on top
    of it cost about a tenth of the session service's CPU per command (proxy and cookie handling this internal
    call never needs), and a PoolManager a further ~5% (parsing the URL and finding the pool on every call)."""

    def __init__(self, base_url: str, timeout_s: float = 10.0):
        self.base_url = base_url.rstrip("/")
        self.timeout_s = timeout_s
        self._path = urllib3.util.parse_url(self.base_url).path or ""
        # no retries, as with requests' defaults: a failed call is service/unavailable and nothing is written
        self.http = urllib3.connection_from_url(self.base_url, maxsize=64, retries=urllib3.Retry(0, read=False))

    def setup(self, game: Game, players: int, options: dict[str, Any], entropy: bytes) -> tuple[dict[str, Any], list[Event]]:
        reply = self._post("/v1/setup", {"game": game.id, "players": players, "options": options, "entropy": entropy.hex()})
        return reply["options"], [Event.from_json(e) for e in reply["events"]]

    def decide(self, game: Game, state: Any, command: Any, seat: int, entropy: bytes) -> list[Event]:
        body = {"game": game.id, "state": game.codec.encode(state), "command": command, "seat": seat, "entropy": entropy.hex()}
        return [Event.from_json(e) for e in self._post("/v1/decide", body)["events"]]

    def ready(self) -> bool:
        try:
            return self.http.urlopen("GET", self._path + "/healthz", timeout=2).status == 200
        except urllib3.exceptions.HTTPError:
            return False

    def _post(self, path: str, body: dict[str, Any]) -> dict[str, Any]:
        try:
            data = orjson.dumps(body)
        except orjson.JSONEncodeError:
            # The state is ours and always encodes: what does not is the caller's command or options.
            raise malformed("the request holds a value too deeply nested (or too large) to pass on") from None
        try:
            reply = self.http.urlopen("POST", self._path + path, body=data, headers=JSON_HEADERS, timeout=self.timeout_s)
        except urllib3.exceptions.HTTPError:
            raise unavailable("the rules service") from None
        try:
            answer = orjson.loads(reply.data)
        except ValueError:
            raise unavailable("the rules service") from None
        if reply.status == 200:
            return answer
        try:
            error = answer["error"]
        except (KeyError, TypeError):
            raise unavailable("the rules service") from None
        if reply.status == 422:
            raise RuleViolation(error["code"], error["message"], error.get("details"))
        if reply.status == 409:
            raise GameOver()
        if reply.status == 400:
            raise MalformedCommand(error["message"], error.get("details"))
        raise unavailable("the rules service")


class LocalRules:
    """The rules in process, with the state put through the wire codec as HTTP would. Unit tests only."""

    def setup(self, game: Game, players: int, options: dict[str, Any], entropy: bytes) -> tuple[dict[str, Any], list[Event]]:
        options, events = game.start(players, options, entropy)
        return options, [Event.from_json(orjson.loads(orjson.dumps(e.to_json()))) for e in events]

    def decide(self, game: Game, state: Any, command: Any, seat: int, entropy: bytes) -> list[Event]:
        state = game.codec.decode(orjson.loads(orjson.dumps(game.codec.encode(state))))
        events = game.checked_decide(state, command, seat, entropy)
        return [Event.from_json(orjson.loads(orjson.dumps(e.to_json()))) for e in events]

    def ready(self) -> bool:
        return True
