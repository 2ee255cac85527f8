"""A table on a terminal: the game's board, the seats (name, AI level, the game's numbers, public cards, a mark
on the seats the game waits on and on the winners), your hand by name, one line that says what happens now,
and at the end the winners by name and the final scores. Lines are wrapped to the terminal's width."""

from __future__ import annotations

import datetime
import re
import shutil
import textwrap
from collections.abc import Mapping, Sequence
from typing import Any

from .games import Drawn, Seen
from .games.base import listing, words

WAITED, WINNER = "▶", "★"
SEPARATORS = re.compile(r"( · |, |; |: )")
NBSP = "\u00a0"  # textwrap never breaks at it


def width() -> int:
    return max(40, min(120, shutil.get_terminal_size((100, 24)).columns))


def wrap(line: str, indent: str = "", more: str = "    ") -> list[str]:
    """One logical line wrapped to the terminal, its continuation lines indented a little further; it breaks
    between the items of a list (after " · ", ", ", "; " or ": "), never inside a card's name."""
    whole = 60 if width() >= 80 else width() // 2  # a piece longer than this may break between its words
    line = re.sub(r"\([^()]*\)", lambda group: group.group().replace(" ", NBSP) if len(group.group()) <= whole else group.group(),
                  line)  # "(7, blue)" stays whole
    pieces = SEPARATORS.split(line)
    kept = "".join(p.replace(" ·", NBSP + "·") if SEPARATORS.fullmatch(p) else p if len(p) > whole else p.replace(" ", NBSP) for p in pieces)
    lines = textwrap.wrap(kept, width=width(), initial_indent=indent, subsequent_indent=indent + more, break_on_hyphens=False)
    return [text.replace(NBSP, " ") for text in lines] or [indent]


def prose(text: str, indent: str = "", more: str = "  ") -> list[str]:
    """A sentence (a chat line, a notice) wrapped between its words, as written: no card names to keep whole."""
    return textwrap.wrap(text, width=width(), initial_indent=indent, subsequent_indent=indent + more,
                         break_long_words=False, break_on_hyphens=False) or [indent]


def table_lines(title: str, drawn: Drawn, seen: Seen, ai: Sequence[str | None], deadline: str | None = None,
                bots: Sequence[bool] = ()) -> list[str]:
    """The whole table: a rule with the game's title, the board, the seats (an AI's level, a bot account's mark),
    your hand and the line for now."""
    lines = [f"── {title} " + "─" * max(3, width() - len(title) - 4)]
    for line in drawn.board:
        lines.extend(wrap(line))
    winners = (seen.outcome or {}).get("winners") or [] if seen.status == "finished" else []
    for n in range(len(seen.names)):
        mark = WINNER if n in winners else WAITED if n in seen.to_act and seen.status == "active" else " "
        who = seen.names[n] + (" (you)" if n == seen.seat else "") + (f" (AI {ai[n]})" if n < len(ai) and ai[n] else "")
        who += " (bot)" if n < len(bots) and bots[n] else ""
        lines.extend(wrap(f"{mark} {who} · " + " · ".join(drawn.stats(n)), more="      "))
        for public in drawn.public(n):
            lines.extend(wrap(public, indent="      "))
    if seen.seat is not None and drawn.hand:
        lines.extend(wrap(f"{drawn.hand_title}: " + "; ".join(drawn.hand)))
    lines.extend(wrap(now_line(seen, drawn, deadline)))
    if seen.status == "finished":
        lines.extend(end_lines(seen))
    return lines


def now_line(seen: Seen, drawn: Drawn, deadline: str | None = None) -> str:
    """What happens now, in words: "Your move: …", "Waiting on Bot 2 (sealed bid)", "Game over: Ada wins."."""
    if seen.status == "finished":
        outcome = seen.outcome or {}
        winners = [seen.who(s) for s in outcome.get("winners") or []]
        verb = "wins" if len(winners) == 1 and winners[0] != "you" else "win"
        why = f" ({words(outcome['reason'])})" if outcome.get("reason") else ""
        return f"Game over: {listing(winners) + ' ' + verb if winners else 'nobody wins'}{why}."
    if seen.status == "waiting":
        return "Now: waiting for players to take the open seats."
    if seen.status == "aborted":
        return "The table was called off."
    if seen.stuck:
        return "Now: the table is stuck, nobody can move it; its seats may resign, and it ends by itself when idle."
    phase = f" ({drawn.phase})" if drawn.phase else ""
    others = [seen.name(s) for s in seen.to_act if s != seen.seat]
    clock = f" {until(deadline)}" if deadline and until(deadline) else ""
    if seen.seat is not None and seen.seat in seen.to_act:
        also = f"; also waiting on {listing(others)}" if others else ""
        return f"Now: your move{phase}{also}.{clock}"
    return f"Now: waiting on {listing(others) or 'nobody'}{phase}.{clock}"


def until(deadline: str) -> str:
    """ "45 s left" for an ISO deadline ("" once it passed or when it cannot be read)."""
    try:
        when = datetime.datetime.fromisoformat(deadline.replace("Z", "+00:00"))
    except ValueError:
        return ""
    left = int((when - datetime.datetime.now(datetime.timezone.utc)).total_seconds())
    if left <= 0:
        return ""
    return f"{left // 60} min {left % 60} s left." if left >= 60 else f"{left} s left."


def end_lines(seen: Seen) -> list[str]:
    """Winners by name and the final scores, best first (lowest first where the game says lower is better)."""
    outcome: Mapping[str, Any] = seen.outcome or {}
    winners = outcome.get("winners") or []
    lines = [f"{'Winner' if len(winners) == 1 else 'Winners'}: {listing(seen.name(s) for s in winners) or 'nobody'}."]
    scores = outcome.get("scores") or []
    if scores:
        lower = bool((outcome.get("details") or {}).get("lower_is_better"))
        order = sorted(range(len(scores)), key=lambda s: scores[s] if lower else -scores[s])
        shown = " · ".join(f"{seen.name(s)}{' (you)' if s == seen.seat else ''} {number(scores[s])}" for s in order)
        lines.extend(wrap(f"Final scores: {shown}" + (" (lower is better)" if lower else "")))
    return lines


def number(value: Any) -> str:
    return str(int(value)) if isinstance(value, float) and value.is_integer() else str(value)
