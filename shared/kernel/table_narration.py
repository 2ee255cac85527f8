"""The table's own events in words (who sat down, resigned, called the table off …), and the voice that tells a
game's whole log: the table's sentences with the game's own (``shared.kernel.narration``)."""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from typing import Any

from shared.kernel.game import Game
from shared.kernel.narration import Narrator, Text, Voice, plural, say
from shared.kernel.table import (SeatDeclined, SeatJoined, SeatLeft, SeatResigned, TableAbandoned, TableAborted, TableEnd,
                                 TableEnded, TableOpened, TableStarted)


def _opened(data: Mapping[str, Any], voice: Voice) -> Text:
    seats = data["seats"]
    taken = [voice.named(i, s["name"]).seat(i) for i, s in enumerate(seats) if not s.get("open")]
    open_count = len(seats) - len(taken)
    if not taken:
        return say(plural(open_count, "A table opened with one open seat", "A table opened with {open} open seats"),
                   open=open_count)
    if not open_count:
        return say("{seats} sat down at the table", seats=taken)
    return say("{seats} sat down at the table, with " + plural(open_count, "one open seat", "{open} open seats"),
               seats=taken, open=open_count)


def _joined(data: Mapping[str, Any], voice: Voice) -> Text:
    seat = voice.named(data["seat"], data["name"]).seat(data["seat"])
    if data.get("ai"):
        return say("{seat} took an open seat (AI: {level})", seat=seat, level=data["ai"])
    return say("{seat} took an open seat", seat=seat)


def _ended(data: Mapping[str, Any], voice: Voice) -> Text:
    outcome = data["outcome"]
    winners = voice.seats(outcome.get("winners") or [])
    if outcome.get("reason") == TableEnd.RESIGNATION:
        return say("{winners} won: every other seat resigned", winners=winners)
    if not winners:
        return say("The game ended with no winner")
    return say("{winners} won the game", winners=winners)


def _abandoned(data: Mapping[str, Any], voice: Voice) -> Text:
    minutes = data["idle_s"] // 60
    if minutes:
        return say("The table was abandoned: nobody moved for " + plural(minutes, "a minute", "{minutes} minutes"),
                   minutes=minutes)
    return say("The table was abandoned: nobody moved for {seconds} seconds", seconds=data["idle_s"])


def _aborted(data: Mapping[str, Any], voice: Voice) -> Text:
    if data["seat"] is None:
        return say("The table was called off: its seats never filled")
    return say("{seat} called the table off", seat=voice.seat(data["seat"]))


TABLE_NARRATOR = Narrator({
    TableOpened.TYPE: _opened,
    SeatJoined.TYPE: _joined,
    SeatLeft.TYPE: lambda data, voice: say("{seat} left the table: the seat is open again", seat=voice.seat(data["seat"])),
    SeatDeclined.TYPE: lambda data, voice: say("The invitation to seat {number} was declined: the seat is open to anyone",
                                               number=data["seat"] + 1),
    TableStarted.TYPE: lambda data, voice: say("The game began"),
    SeatResigned.TYPE: lambda data, voice: say("{seat} resigned: the table's AI plays on", seat=voice.seat(data["seat"])),
    TableAborted.TYPE: _aborted,
    TableAbandoned.TYPE: _abandoned,
    TableEnded.TYPE: _ended,
})


def voice_for(game: Game, reader: int | None, names: Sequence[str | None]) -> Voice:
    """How ``game``'s log reads to ``reader`` (a seat, or None for a spectator) at a table whose seats are called
    ``names`` (one per seat): the table's sentences and the game's own."""
    return Voice(_with_table(game.catalogue.narrator or NO_SENTENCES), reader, tuple(names))


NO_SENTENCES = Narrator()


@functools.cache
def _with_table(narrator: Narrator) -> Narrator:
    """The table's sentences and ``narrator``'s, joined once per game (a narrator hashes by identity)."""
    return TABLE_NARRATOR | narrator


def heard(voice: Voice, event_type: str, data: Mapping[str, Any]) -> Voice:
    """``voice`` after an event that names a seat: a live stream opened before a seat was taken names it from then
    on."""
    return voice.named(data["seat"], data["name"]) if event_type == SeatJoined.TYPE else voice
