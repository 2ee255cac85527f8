"""The public API as the terminal client uses it: requests with the seat's credentials, refusals in the
server's own words, and the game's live stream read on a thread of its own (NDJSON), so a prompt never holds it.

The stream reader hands every message to an inbox (a queue) as ``("stream", (reader, message))``: the inbox and the
input's reader outlive a session, so each message names its reader, and a session reads only its own (a stopped
reader's are dropped). It resumes after the last version (and the last chat line) it saw when the connection drops
or the server asks it to reconnect, and says ``("error", (reader, text))`` when it cannot. Once the game's stream
has ended, ``AfterTheEnd`` asks for the table's rematch and chat every few seconds and hands them to the inbox the
same way, as ``rematch`` and ``chat`` messages."""

from __future__ import annotations

import json
import queue
import threading
import time
from collections.abc import Callable
from typing import Any

import requests

Inbox = queue.Queue[tuple[str, Any]]
GIVE_UP_AFTER_S = 30.0  # a stream that cannot be reopened for this long is reported, not retried for ever


class PlayError(Exception):
    """A refusal in the server's own words (the error body's message), with its stable code."""

    def __init__(self, message: str, code: str = "", details: dict[str, Any] | None = None, status: int = 0,
                 retry_after: float | None = None):
        super().__init__(message)
        self.code, self.details, self.status, self.retry_after = code, details or {}, status, retry_after


class Api:
    def __init__(self, base: str):
        self.base = base.rstrip("/")
        self.http = requests.Session()
        self.token: str | None = None

    def headers(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.token}"} if self.token else {}

    def call(self, method: str, path: str, body: Any = None, headers: dict[str, str] | None = None) -> Any:
        """The answer's JSON; ``PlayError`` for a refusal (its code and status) or no answer (``client/unreachable``)."""
        try:
            reply = self.http.request(method, self.base + path, json=body, headers={**self.headers(), **(headers or {})},
                                      timeout=30)
        except requests.RequestException as exc:
            raise PlayError(f"cannot reach {self.base}: {exc.__class__.__name__}", "client/unreachable") from exc
        try:
            data = reply.json() if reply.content else None
        except ValueError:
            data = None
        if not reply.ok:
            error = (data or {}).get("error", {}) if isinstance(data, dict) else {}
            raise PlayError(error.get("message") or f"the server answered {reply.status_code}", error.get("code", ""),
                            error.get("details"), reply.status_code, _seconds(reply.headers.get("Retry-After")))
        return data


class StreamReader(threading.Thread):
    """Reads one game's stream into ``inbox`` until its ``end`` message, or until ``stop`` is set (its session is
    over: a seat taken, say, opens a stream of its own); a daemon, it never keeps the client up. ``path``: another
    stream (the player's, which has no end); ``give_up_s``: None never gives up; ``reopened``: told the version a
    stream resumed after, each time it was opened again."""

    def __init__(self, api: Api, game_id: str, inbox: Inbox, *, path: str | None = None,
                 give_up_s: float | None = GIVE_UP_AFTER_S, reopened: Callable[[int | None], None] | None = None):
        super().__init__(name=f"stream {path or game_id}", daemon=True)
        self.url = api.base + (path or f"/v1/games/{game_id}/events/stream")
        self.give_up_s, self.reopened, self.connections = give_up_s, reopened, 0
        self.headers = {"Accept": "application/x-ndjson", **api.headers()}
        self.inbox = inbox
        self.http = requests.Session()  # a session of its own: requests' sessions are not shared across threads
        self.after: int | None = None
        self.chat_after: int | None = None
        self.stop = threading.Event()  # set when its session is over: nothing more reaches the inbox

    def put(self, item: tuple[str, Any]) -> None:
        if not self.stop.is_set():
            self.inbox.put((item[0], (self, item[1])))

    def run(self) -> None:
        failing_since: float | None = None
        while not self.stop.is_set():
            wait_s = 0.5
            try:
                if self.read_once():
                    return
                failing_since = None
            except _Refused as exc:
                self.put(("error", str(exc)))
                return
            except _Reconnect as exc:
                wait_s, failing_since = exc.wait_s, None
            except (requests.RequestException, ValueError):
                failing_since = failing_since or time.monotonic()
                if self.give_up_s is not None and time.monotonic() - failing_since > self.give_up_s:
                    self.put(("error", "the game's stream was lost and could not be reopened"))
                    return
            time.sleep(wait_s)  # a pause before reconnecting, never a way to wait for a message

    def read_once(self) -> bool:
        """One connection: True once the game's end arrived, False when the connection ended before it."""
        url = self.url + (f"?after={self.after}" if self.after is not None else "")
        if self.after is not None and self.chat_after is not None:
            url += f"&chat_after={self.chat_after}"
        with self.http.get(url, headers=self.headers, stream=True, timeout=(10, 60)) as reply:
            if reply.status_code in (429, 503) or reply.status_code >= 500:
                raise _Reconnect(float(reply.headers.get("Retry-After", "2") or 2))
            if not reply.ok:
                try:
                    message = reply.json().get("error", {}).get("message")
                except ValueError:
                    message = None
                raise _Refused(message or f"the stream was refused ({reply.status_code})")
            self.connections += 1
            if self.connections > 1 and self.reopened is not None:
                self.reopened(self.after)
            for line in reply.iter_lines():
                if not line:
                    continue  # a keep-alive
                message = json.loads(line)
                if message.get("type") == "retry":
                    raise _Reconnect(min(float((message.get("data") or {}).get("retry_ms", 1000)) / 1000, 10.0))
                if message.get("id") is not None:
                    self.after = int(message["id"])
                if message.get("type") == "chat":
                    self.chat_after = max(self.chat_after or 0, int((message.get("data") or {}).get("id", 0)))
                self.put(("stream", message))
                if message.get("type") == "end" or self.stop.is_set():
                    return True
        return False


class AfterTheEnd(threading.Thread):
    """After a game's stream ended: its rematch (when it changed) and the chat lines said since, asked every
    ``every_s`` seconds until ``stop`` is set, into the inbox as ``("stream", (self, {"type": "rematch"|"chat", "data"}))``.
    The game stream closes at the end, so there is nothing to follow but these (the web table asks the same)."""

    def __init__(self, api: Api, game_id: str, inbox: Inbox, after: dict[str, int], every_s: float = 2.0):
        super().__init__(name=f"after {game_id}", daemon=True)
        self.api = Api(api.base)  # a session of its own, for this thread
        self.api.token = api.token
        self.path, self.inbox, self.after, self.every_s = f"/v1/games/{game_id}", inbox, dict(after), every_s
        self.stop = threading.Event()
        self.rematch: Any = None

    def put(self, item: tuple[str, Any]) -> None:
        if not self.stop.is_set():
            self.inbox.put((item[0], (self, item[1])))

    def run(self) -> None:
        while not self.stop.is_set():
            try:
                self.look()
            except PlayError:
                pass  # the next look tries again
            self.stop.wait(self.every_s)

    def look(self) -> None:
        rematch = self.api.call("GET", f"{self.path}/rematch").get("rematch")
        if rematch is not None and rematch != self.rematch:
            self.put(("stream", {"type": "rematch", "data": rematch}))
        self.rematch = rematch
        for channel, after in self.after.items():
            page = self.api.call("GET", f"{self.path}/chat?channel={channel}&after={after}&limit=200")
            for line in page.get("messages") or []:
                self.put(("stream", {"type": "chat", "data": line}))
            self.after[channel] = int(page.get("next", after))


class LineReader(threading.Thread):
    """Reads the player's lines into the inbox as ``("line", text)``, then ``("eof", None)`` when input ends."""

    def __init__(self, inp: Any, inbox: Inbox):
        super().__init__(name="input", daemon=True)
        self.inp, self.inbox = inp, inbox

    def run(self) -> None:
        while True:
            line = self.inp.readline()
            if not line:
                self.inbox.put(("eof", None))
                return
            self.inbox.put(("line", line.strip()))


def _seconds(header: str | None) -> float | None:
    try:
        return float(header) if header else None
    except ValueError:
        return None  # an HTTP date: not sent by this server


class _Refused(Exception):
    pass


class _Reconnect(Exception):
    def __init__(self, wait_s: float):
        super().__init__(wait_s)
        self.wait_s = wait_s
