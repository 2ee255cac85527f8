"""One seat at one table in a terminal (or a spectator's chair): the loop that follows the game's stream and the
player's lines, both arriving in one inbox from their own threads, so a prompt never holds the stream.

The choices on screen are always the seat's current ``legal_commands``: when the table moves and they change,
they are shown again; a number typed against choices that are no longer current is not posted ("the table
moved on") but asked again; a choice is posted with the latest version seen, and a choice refused only because
the table moved in between (409) is posted again at the next turn if it is still offered unchanged.

Stream messages and typed words are dispatched by name (``message_handlers``, ``typed_words``), the one place each
is wired: the game's own here, what happens around it (chat, mutes, the rematch, leaving and declining) in
``table_talk.py``. After the end a person stays for the rematch and the chat until it types q or the rematch starts
(``follow`` then names the new table)."""

from __future__ import annotations

import queue
from collections.abc import Callable, Mapping
from typing import Any, TextIO

from .api import Api, Inbox, LineReader, PlayError, StreamReader
from .games import Seen, describe, layout_for
from .games.base import plural
from .screen import end_lines, now_line, table_lines, wrap
from .table_talk import TableTalk

HELP = ("Type a move's number to play it, or one of these words:",
        "t: the table · l: the moves you may make now · i: your cards' texts",
        "say WORDS: talk to the table (those who watch, to each other)",
        "mute NAME, unmute NAME: hide or show a player's lines (with a player key)",
        "leave: give your seat back before the start",
        "join, decline: take or turn down a seat kept for you",
        "rematch, decline: after the end, offer or accept a rematch, or turn it down",
        "q: leave this screen (the game goes on: come back with mythos play GAME_ID and your token or key)")
GAME_ENDED_FIRST = "The game ended before your move went in."  # a number typed as the last move was made


class Session(TableTalk):
    def __init__(self, api: Api, game_id: str, seat: int | None, resource: Mapping[str, Any], entry: Mapping[str, Any],
                 out: TextIO, inp: TextIO, me: Mapping[str, Any] | None = None, inbox: Inbox | None = None,
                 invited: int | None = None):
        """``me``: the player of a player key; ``inbox``: one whose lines someone reads already (a session after
        another); ``invited``: a seat kept for the reader, who watches until it types join or decline."""
        super().__init__(me, invited, (resource.get("host") or {}).get("name"))
        self.api, self.game_id, self.seat, self.out, self.inp = api, game_id, seat, out, inp
        self.entry, self.layout = entry, layout_for(entry)
        self.reads_lines = inbox is None
        self.inbox = inbox if inbox is not None else queue.Queue()
        self.seats: list[dict[str, Any]] = list(resource.get("seats") or [])
        self.turn: dict[str, Any] = {"version": 0, "status": resource.get("status", "active"), "to_act": [], "legal_commands": [],
                                     "view": {}, "outcome": resource.get("outcome"), "deadline": None}
        self.version = 0  # the latest version seen, events included
        self.shown: list[dict[str, Any]] | None = None  # the numbered choices on screen, while they may be chosen
        self.posted_at = 0  # the version the seat's last accepted command made: older turns are not offered again
        self.pending: tuple[dict[str, Any], int] | None = None  # a choice to post once the turn of that version arrives
        self.hinted = False  # said that moves are open out of turn
        self.told_waiting = True  # said who the game waits on since the seat's last move
        self.input_over = False
        self.drawn_at = -1  # the version of the table last drawn
        self.prompted = False  # "> " is the last thing on screen
        self.message_handlers: dict[str, Callable[[dict[str, Any]], bool]] = {
            "state": self.on_state, "event": self.on_event, "turn": self.on_turn, "end": self.on_end,
            "chat": self.on_chat, "rematch": self.on_rematch}
        self.typed_words: dict[str, Callable[[str], bool]] = {
            "t": self.show_table, "l": self.list_moves, "i": self.show_texts, "?": self.show_help, "q": self.quit,
            "say": self.say_to_table, "mute": self.mute, "unmute": self.unmute, "rematch": self.offer_rematch,
            "accept": self.offer_rematch, "decline": self.decline, "leave": self.leave_table, "join": self.join}

    # -- output --------------------------------------------------------------------------------------------
    def say(self, text: str = "") -> None:
        if self.prompted:  # a line arriving under an open prompt takes the prompt's line; the prompt comes back after
            self.out.write("\r" if self.out.isatty() else "\n")
            self.prompted = False
        self.out.write(text + "\n")
        self.out.flush()

    def prompt(self) -> None:
        self.out.write("> ")
        self.out.flush()
        self.prompted = True

    @property
    def names(self) -> list[str]:
        return [str(s.get("name") or ("an open seat" if s.get("open") else f"Seat {n}")) for n, s in enumerate(self.seats)]

    def seen(self) -> Seen:
        return Seen(view=self.turn.get("view") or {}, seat=self.seat, names=self.names, to_act=list(self.turn.get("to_act") or []),
                    status=str(self.turn.get("status", "active")), outcome=self.turn.get("outcome"), stuck=bool(self.turn.get("stuck")),
                    legal=list(self.turn.get("legal_commands") or []))

    def show_table(self, _: str = "") -> bool:
        self.drawn_at = int(self.turn.get("version", 0))
        seen = self.seen()
        if seen.status == "waiting" or not seen.view:
            for line in wrap(now_line(seen, self.layout.table(seen)) if seen.view else "Now: waiting for players to take the open seats."):
                self.say(line)
            return False
        drawn = self.layout.table(seen)
        for line in table_lines(str(self.entry.get("title", "")), drawn, seen, [s.get("ai") for s in self.seats],
                                self.turn.get("deadline"), [bool(s.get("bot")) for s in self.seats]):
            self.say(line)
        return False

    def show_texts(self, _: str = "") -> bool:
        drawn = self.layout.table(self.seen())
        for text in drawn.texts or ["Your cards have no text beyond their names."]:
            for line in wrap(text, indent="  "):
                self.say(line)
        return False

    def show_help(self, _: str = "") -> bool:
        for text in HELP:
            self.tell(text)
        return False

    def quit(self, _: str = "") -> bool:
        return True

    def list_moves(self, _: str = "") -> bool:
        if not self.current():
            self.tell("The table is moving: your moves follow when it stops.")
            return False
        legal = list(self.turn.get("legal_commands") or [])
        if not legal:
            self.tell("You have no move to make right now.")
            self.shown = None
            return False
        seen = self.seen()
        self.tell("Choose a move:" if self.seat in seen.to_act else "Moves open to you out of turn:")
        for number, command in enumerate(legal, 1):
            for line in wrap(f"{number:>3}. {describe(command, self.layout, seen)}", indent="  ", more="     "):
                self.say(line)
        self.shown = legal
        self.prompt()
        return False

    # -- the loop ----------------------------------------------------------------------------------------
    def run(self) -> int:
        try:
            return self.follow_the_table()
        finally:
            self.stop()

    def follow_the_table(self) -> int:
        who = (f"invited to seat {self.invited}" if self.invited is not None else "a spectator" if self.seat is None
               else f"{Seen({}, None, self.names).name(self.seat)} (seat {self.seat})")
        self.tell(f"{self.entry.get('title')} · game {self.game_id} · you are {who}. Type ? for help.")
        self.show_invitation()
        self.reader = StreamReader(self.api, self.game_id, self.inbox)
        self.reader.start()
        if self.reads_lines:
            LineReader(self.inp, self.inbox).start()
        while True:
            source, item = self.inbox.get()
            if source in ("stream", "error"):
                reader, item = item
                if reader.stop.is_set():
                    continue  # from a reader of the session before this one
            if source == "stream":
                handler = self.message_handlers.get(str(item.get("type")))
                if handler and handler(item.get("data") or {}):
                    return 0
            elif source == "line":
                self.prompted = False  # the player's Enter ended the prompt's line
                if self.on_line(item):
                    return 0
            elif source == "eof":
                self.input_over = True
                if self.shown is not None and self.seat in (self.turn.get("to_act") or []):
                    raise PlayError("no more input")
                if self.after_the_end is not None:
                    return 0  # nobody is left to answer a rematch
            elif source == "error":
                raise PlayError(str(item))

    # -- the stream --------------------------------------------------------------------------------------
    def on_state(self, data: dict[str, Any]) -> bool:
        self.turn, self.version = data, max(self.version, int(data.get("version", 0)))
        self.show_table()
        self.offer()
        return False

    def on_event(self, data: dict[str, Any]) -> bool:
        self.version = max(self.version, int(data.get("version", 0)))
        for line in wrap(f"· {sentence(data, self.names)}", indent="  ", more="  "):
            self.say(line)
        return False

    def on_turn(self, data: dict[str, Any]) -> bool:
        started = self.turn.get("status") == "waiting" and data.get("status") == "active"
        self.turn, self.version = data, max(self.version, int(data.get("version", 0)))
        if started:  # the open seats were taken: learn who sits there, and show the table as dealt
            self.seats = list(self.api.call("GET", f"/v1/games/{self.game_id}").get("seats") or self.seats)
            self.show_table()
        self.offer()
        return False

    def on_end(self, data: dict[str, Any]) -> bool:
        """The end: the table as it finished (the last turn's view holds every hand), winners and final scores; a move
        still waiting to go in is told it never will."""
        if self.pending is not None:
            self.pending = None
            self.tell(GAME_ENDED_FIRST)
        self.turn = {**self.turn, "status": "aborted" if self.turn.get("status") == "aborted" else "finished",
                     "outcome": data.get("outcome"), "to_act": []}
        if self.turn.get("view"):
            self.show_table()
        else:
            seen = self.seen()
            for line in [now_line(seen, self.layout.table(seen)), *end_lines(seen)]:
                self.say(line)
        return self.turn["status"] == "aborted" or self.after_end()

    def current(self) -> bool:
        """Is the last turn message at least as new as everything seen (events, and the seat's own move)?"""
        version = int(self.turn.get("version", 0))
        return version >= self.version and version >= self.posted_at

    def offer(self) -> None:
        """Show the seat's choices when they changed; post a pending choice if it is still offered unchanged."""
        if self.seat is None or self.turn.get("status") != "active" or not self.current():
            return
        legal = list(self.turn.get("legal_commands") or [])
        mine = self.seat in (self.turn.get("to_act") or [])
        if self.pending is not None:
            command, at = self.pending
            if int(self.turn["version"]) < at:
                return
            self.pending = None
            if legal == self.shown and command in legal:
                self.post(command)
                return
            self.tell("The table moved on before your move went in: choose again.")
            self.shown = None
        if legal == self.shown:
            if not self.prompted:
                self.prompt()  # the same choices, under the lines that just came: a number typed now is posted with this version
            return
        if mine and legal:
            if self.input_over:
                raise PlayError("no more input")
            self.hinted = False
            if self.drawn_at != int(self.turn.get("version", 0)):
                self.show_table()
            self.list_moves()
            return
        self.shown = None
        if legal and not self.hinted:
            self.tell(f"You may act out of turn ({plural(len(legal), 'move')}): type l to list them.")
            self.hinted = True
        elif not legal:
            self.hinted = False
        if not mine and not self.told_waiting:
            for line in wrap(now_line(self.seen(), self.layout.table(self.seen()))):
                self.say(line)
            self.told_waiting = True

    # -- the player's lines ------------------------------------------------------------------------------
    def on_line(self, line: str) -> bool:
        if not line:
            if self.shown is not None:
                self.prompt()
            return False
        word = line.split()[0].lower()
        if word in self.typed_words:
            return self.typed_words[word](line[len(word):].strip())
        if not line.isdigit():
            self.tell(f"{line!r} is not a move's number or a word this client knows: type ? for help.")
            return False
        if self.seat is None:
            self.tell("Spectators watch: there is no move to make.")
            return False
        if self.pending is not None:
            self.tell("Your move is on its way.")
            return False
        if self.shown is None:
            out_of_turn = self.current() and self.turn.get("legal_commands") and self.seat not in (self.turn.get("to_act") or [])
            self.tell("Type l to list the moves open to you out of turn." if out_of_turn else "You have no move to make right now.")
            return False
        if not 1 <= int(line) <= len(self.shown):
            self.tell(f"choose a number from 1 to {len(self.shown)}")
            self.prompt()
            return False
        command = self.shown[int(line) - 1]
        if not self.current():  # events newer than the choices arrived: their turn message will say what is offered
            self.pending = (command, self.version)
            return False
        if list(self.turn.get("legal_commands") or []) != self.shown:
            if self.turn.get("legal_commands"):
                self.tell("The table moved on: choose again.")
                self.list_moves()
            else:  # one sentence for one number: not "choose again" and then "you have no move"
                self.tell("The table moved on: you have no move to make right now.")
                self.shown = None
            return False
        self.post(command)
        return False

    def post(self, command: dict[str, Any]) -> None:
        version = int(self.turn.get("version", 0))
        try:
            reply = self.api.call("POST", f"/v1/games/{self.game_id}/commands", {"command": command, "expected_version": version})
        except PlayError as exc:
            if exc.code == "game/version_conflict":  # someone moved first: post it again if the next turn still offers it
                self.pending = (command, int(exc.details.get("current_version", version + 1)))
                return
            if exc.code == "game/finished":
                self.tell(GAME_ENDED_FIRST)
                return
            self.tell(f"refused: {exc}")
            self.prompt()
            return
        self.posted_at = int(reply.get("version", version))
        self.shown, self.told_waiting = None, False


def sentence(event: Mapping[str, Any], names: list[str]) -> str:
    """An event in words: its ``text.plain`` (told for this reader), else its type and whose it was, never data."""
    text = event.get("text")
    if isinstance(text, dict) and isinstance(text.get("plain"), str):
        return str(text["plain"])
    if isinstance(text, str):
        return text
    subject = (event.get("data") or {}).get("seat")
    who = f"{names[subject]}: " if isinstance(subject, int) and 0 <= subject < len(names) else ""
    return who + str(event.get("type", "something happened")).replace("_", " ")
