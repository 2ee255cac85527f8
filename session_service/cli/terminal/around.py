"""Around the table in words (pure: no I/O): a chat line as the terminal shows it, a rematch as it stands, an
invitation, and the hint after the end. Names only, never a player's or a game's id.

The session (``session.py``) wires the stream's ``chat`` and ``rematch`` messages and the words ``say``, ``mute``,
``rematch``, ``decline``, ``leave`` and ``join`` to the API; this module only says what happened."""

from __future__ import annotations

import datetime
from collections.abc import Mapping, Sequence
from typing import Any

from .games.base import listing

CHAT_MARK = "»"  # a chat line, apart from the log's "·" and the seats' marks
AFTER_THE_END = "Type rematch to offer a rematch, say and your words to talk, q to leave."


def chat_text(line: Mapping[str, Any], seat: int | None, player: str | None) -> str:
    """ "» Ada: good luck", "» You: thanks", "» Cy (watching): go Ada": the speaker by name, then the text."""
    said = line.get("from") or {}
    mine = (seat is not None and said.get("seat") == seat) or (player is not None and said.get("player") == player)
    who = "You" if mine else str(said.get("name") or "Someone")
    watching = " (watching)" if line.get("channel") == "spectators" else ""
    return f"{CHAT_MARK} {who}{watching}: {line.get('text', '')}"


def rematch_text(rematch: Mapping[str, Any], names: Sequence[str], seat: int | None, now: datetime.datetime | None = None) -> str:
    """The rematch as it stands, and what the reader may type about it."""
    def who(s: Any) -> str:
        return "you" if s == seat else names[s] if isinstance(s, int) and 0 <= s < len(names) else "someone"

    status = rematch.get("status")
    if rematch.get("game"):
        return "Everyone said yes: the rematch is on. Here is the new table."
    if status == "declined":
        return f"{who(rematch.get('declined_by')).capitalize()} declined the rematch. Type rematch to offer another."
    if status == "expired":
        return "The rematch offer lapsed. Type rematch to offer another."
    accepted = list(rematch.get("accepted") or [])
    by = rematch.get("offered_by")
    offer = "You offer a rematch" if by == seat else f"{who(by)} offers a rematch"
    lapse = lapses_in(str(rematch.get("expires_at") or ""), now)
    said = f" (said yes: {listing(who(s) for s in accepted)}{'; it lapses in ' + lapse if lapse else ''})"
    if seat in accepted:
        return f"{offer}{said}. Waiting for the others; type decline to withdraw."
    return f"{offer}{said}. Type rematch to accept, or decline to turn it down."


def lapses_in(expires_at: str, now: datetime.datetime | None = None) -> str:
    """ "1 min 40 s", "45 s" ("" once past, or unreadable)."""
    try:
        when = datetime.datetime.fromisoformat(expires_at.replace("Z", "+00:00"))
    except ValueError:
        return ""
    left = int((when - (now or datetime.datetime.now(datetime.timezone.utc))).total_seconds())
    if left <= 0:
        return ""
    return f"{left // 60} min {left % 60} s" if left >= 60 else f"{left} s"


def invitation_text(host: str | None, seat: int, names: Sequence[str]) -> str:
    """A seat kept for the reader at a table that waits."""
    by = f"{host} keeps" if host else "This table keeps"
    taken = listing(n for n in names if n != "an open seat") or "nobody yet"
    return (f"{by} seat {seat} for you (seated: {taken}). Type join to take it, or decline to turn the invitation "
            "down.")
