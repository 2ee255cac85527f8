"""What a terminal seat does around the game (the session's ``chat`` and ``rematch`` messages, and the words
``say``, ``mute``, ``unmute``, ``rematch``, ``decline``, ``leave`` and ``join``), as a part of ``Session``: the
session's handler tables wire them, this says them in words (``around.py``) and asks the API.

Chat lines show as the game's stream brings them (your own too, in the table's order); once the stream has ended
(the game is over) ``AfterTheEnd`` asks for the rematch and the chat now and then, and your own line shows at
once. A refusal is said in the server's own words. A table to go on to (a rematch that started, a seat kept for
you and taken) is left in ``follow``: ``play.run`` opens a session there."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .api import AfterTheEnd, Api, Inbox, PlayError, StreamReader
from .around import AFTER_THE_END, chat_text, invitation_text, rematch_text
from .screen import prose


class TableTalk:
    api: Api
    game_id: str
    seat: int | None
    inbox: Inbox
    input_over: bool
    seats: list[dict[str, Any]]
    turn: dict[str, Any]

    def __init__(self, me: Mapping[str, Any] | None, invited: int | None, host: str | None):
        self.me, self.invited, self.host = me, invited, host
        self.follow: tuple[str, int | None] | None = None  # the table to go on to, and the seat there
        self.chat_seen: set[int] = set()
        self.chat_after = 0  # the last chat line read, on either channel
        self.speakers: dict[str, tuple[str, str]] = {}  # a name in lower case -> the name and its player, for mute
        self.after_the_end: AfterTheEnd | None = None
        self.reader: StreamReader | None = None  # the game's stream, once the session runs

    def say(self, text: str = "") -> None:
        raise NotImplementedError

    @property
    def names(self) -> list[str]:
        raise NotImplementedError

    def tell(self, text: str) -> None:
        for line in prose(text):
            self.say(line)

    # -- chat ------------------------------------------------------------------------------------------
    def on_chat(self, line: dict[str, Any]) -> bool:
        number = int(line.get("id", 0))
        if number in self.chat_seen:
            return False
        self.chat_seen.add(number)
        self.chat_after = max(self.chat_after, number)
        said = line.get("from") or {}
        if said.get("player") and said.get("name"):
            self.speakers[str(said["name"]).lower()] = (str(said["name"]), str(said["player"]))
        for text in prose(chat_text(line, self.seat, self.player_id), indent="  ", more="    "):
            self.say(text)
        return False

    def _ask(self, refusal: str, method: str, path: str, body: Any = None) -> tuple[bool, Any]:
        """``(True, the API's answer)``, or ``(False, None)`` once the refusal is told: ``refusal``, then the server's
        own words (too long, rate limited, not your table …)."""
        try:
            return True, self.api.call(method, path, body)
        except PlayError as exc:
            self.tell(f"{refusal}: {exc}.")
            return False, None

    @property
    def player_id(self) -> str | None:
        return str(self.me["id"]) if self.me else None

    def say_to_table(self, text: str) -> bool:
        if not text:
            self.say("Type say and your words: say good luck")
            return False
        if self.seat is None and self.me is None:
            self.tell("Those who watch talk with a player key: come back with --key to talk to the other spectators.")
            return False
        ok, line = self._ask("Not sent", "POST", f"/v1/games/{self.game_id}/chat", {"text": text})
        if not ok:
            return False
        if self.after_the_end is not None:  # no stream brings it now
            self.on_chat(line)
        return False

    def mute(self, name: str) -> bool:
        return self.set_muted(name, True)

    def unmute(self, name: str) -> bool:
        return self.set_muted(name, False)

    def set_muted(self, name: str, muted: bool) -> bool:
        word = "mute" if muted else "unmute"
        if not name:
            self.say(f"Type {word} and a name: {word} Ada")
            return False
        if self.me is None:
            self.tell("Muting is for players: come back with your player key (--key) to mute someone.")
            return False
        known = {**{str(s["name"]).lower(): (str(s["name"]), str(s["player"])) for s in self.seats
                    if s.get("name") and s.get("player")}, **self.speakers}
        if name.lower() not in known:
            self.tell(f"Nobody called {name} plays here or has spoken with a player key, so there is nobody to {word}.")
            return False
        name, player = known[name.lower()]
        if player == self.player_id:
            self.say("That is you.")
            return False
        ok, _ = self._ask("Not done", "POST", f"/v1/players/{player}/{word}")
        if not ok:
            return False
        self.tell(f"You will not read {name}'s lines any more (unmute {name} reads them again)." if muted
                      else f"You read {name}'s lines again.")
        return False

    # -- the rematch -----------------------------------------------------------------------------------
    def on_rematch(self, rematch: dict[str, Any]) -> bool:
        self.tell(rematch_text(rematch, self.names, self.seat))
        if rematch.get("game"):
            self.follow = (str(rematch["game"]), self.seat)
            return True
        return False

    def offer_rematch(self, _: str = "") -> bool:
        if self.seat is None:
            self.say("Those who watch play no rematch.")
            return False
        ok, answer = self._ask("No rematch", "POST", f"/v1/games/{self.game_id}/rematch")
        if not ok:
            return False
        if self.after_the_end is not None:
            self.after_the_end.rematch = answer["rematch"]  # said here: the next look need not say it again
        return self.on_rematch(answer["rematch"])

    def after_end(self) -> bool:
        """At the end: a person stays for the rematch and the chat (True: nothing to stay for)."""
        if self.seat is None or self.input_over:
            return True
        channels = {"players": self.chat_after, "spectators": 0}  # the seats read the spectators' once it is over
        self.after_the_end = AfterTheEnd(self.api, self.game_id, self.inbox, channels)
        self.after_the_end.start()
        self.tell(AFTER_THE_END)
        return False

    def stop(self) -> None:
        """The session is over: its readers put nothing more in the inbox it shares with the next one."""
        for reader in (self.reader, self.after_the_end):
            if reader is not None:
                reader.stop.set()

    # -- before the start ------------------------------------------------------------------------------
    def decline(self, _: str = "") -> bool:
        """Turn down the rematch on offer, or (before the start) the seat kept for you."""
        if self.turn.get("status") == "finished":
            ok, answer = self._ask("Nothing to decline", "POST", f"/v1/games/{self.game_id}/rematch/decline")
            if not ok:
                return False
            return self.on_rematch(answer["rematch"])
        if self.invited is None:
            self.tell("There is nothing to decline: no rematch is on offer, and no seat here is kept for you.")
            return False
        ok, _ = self._ask("Not declined", "POST", f"/v1/games/{self.game_id}/decline")
        if not ok:
            return False
        self.tell("You declined the invitation: the seat is open for anyone now.")
        return True

    def join(self, _: str = "") -> bool:
        if self.invited is None:
            self.say("You have a seat here already." if self.seat is not None else "No seat here is kept for you.")
            return False
        ok, answer = self._ask("Not seated", "POST", f"/v1/games/{self.game_id}/join", {})
        if not ok:
            return False
        self.say(f"You took seat {answer['seat']}.")
        self.follow = (self.game_id, int(answer["seat"]))
        return True

    def leave_table(self, _: str = "") -> bool:
        """Give the seat back while the table waits (the creator leaving calls it off)."""
        if self.seat is None:
            self.say("You hold no seat here: q stops watching.")
            return False
        ok, answer = self._ask("You stay", "POST", f"/v1/games/{self.game_id}/leave")
        if not ok:
            return False
        called_off = any(e.get("type") == "table_aborted" for e in answer.get("events") or [])
        self.tell("You left, and the table is called off: you opened it." if called_off
                  else "You left the table: your seat is open again for anyone.")
        return True

    def show_invitation(self) -> None:
        if self.invited is not None:
            self.tell(invitation_text(self.host, self.invited, self.names))
