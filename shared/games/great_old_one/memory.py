"""What a seat has seen of the other hands: the cards it saw go into a hand and not leave it since (issue 46: the
AI's worlds re-dealt every other hand, forgetting a Yellow Sign's card or a Call's).

``GreatOldOneState.known`` holds ``(observer, holder, card)``: ``observer`` saw ``card`` go into ``holder``'s hand
(it gave it, had it taken or called from its own hand, or everyone saw it: a Story switched from the centre, a
Horror taken or returned). An entry goes the moment its card leaves that hand, so it is true of the real state and
never more than the observer saw. ``resample`` keeps those cards where they are. A Call that finds nothing (which
says a hand lacks a Story) is not remembered: the worlds may still deal it that Story.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from shared.kernel import replace
from shared.kernel.events import Event
from shared.kernel.facts import Fact

# event type -> (observers, holder, card) of the entries it adds, read from the event's own fields
_SEEN: dict[str, Callable[[Any, dict[str, Any]], list[tuple[int, int, int]]]] = {
    "story_called": lambda s, d: [] if d.get("card") is None else [(d["target"], d["seat"], d["card"])],
    "card_taken": lambda s, d: [(d["from_seat"], d["seat"], d["card"])],
    "card_given": lambda s, d: [(d["seat"], d["to_seat"], d["card"])],
    "story_swapped": lambda s, d: others_saw(s.players, d["seat"], d["centre_card"]),
    "horror_taken": lambda s, d: others_saw(s.players, d["seat"], d["card"]),
    "horror_returned": lambda s, d: others_saw(s.players, d["seat"], d["card"]),
}


# the events after which a card may have left a hand (every other event leaves the hands as they were, or only adds)
_TAKES_FROM_A_HAND = frozenset({"pair_played", "horror_played", "cultist_played", "sign_played", "story_swapped",
                                "card_taken", "card_given", "story_called"})


def remembering(fold: Callable[[Any, Event], Any]) -> Callable[[Any, Event], Any]:
    """``fold`` (the game's evolve) that also keeps ``known`` up to date."""

    def evolve(state: Any, event: Event) -> Any:
        after = fold(state, event)
        fact = isinstance(event, Fact)  # inside the AI's playouts a decision folds its facts as they are
        kind = event.TYPE if fact else event.type  # type: ignore[attr-defined]
        known = after.known
        if known and kind in _TAKES_FROM_A_HAND:
            kept = forget(known, after.hands)
            if len(kept) != len(known):
                after = replace(after, known=kept)
        seen = _SEEN.get(kind)
        if seen is not None:
            data = event.data() if fact else dict(event.data)  # type: ignore[operator]
            learned = learn(after.known, seen(after, data))
            if learned is not after.known:
                after = replace(after, known=learned)
        return after

    return evolve


def forget(known: tuple[tuple[int, int, int], ...], hands: Sequence[tuple[int, ...]]) -> tuple[tuple[int, int, int], ...]:
    """The entries whose card is still in its holder's hand."""
    return tuple(k for k in known if k[2] in hands[k[1]])


def learn(known: tuple[tuple[int, int, int], ...], entries: list[tuple[int, int, int]]) -> tuple[tuple[int, int, int], ...]:
    """``known`` with ``entries`` added, in order (``known`` itself when there is nothing new)."""
    added = [k for k in entries if k not in known]
    return tuple(sorted((*known, *added))) if added else known


def others_saw(players: int, holder: int, card: int) -> list[tuple[int, int, int]]:
    """Everyone but ``holder`` saw ``card`` go into its hand."""
    return [(o, holder, card) for o in range(players) if o != holder]


def known_to(state: Any, seat: int) -> dict[int, set[int]]:
    """The cards ``seat`` knows to be in each other hand."""
    out: dict[int, set[int]] = {}
    for observer, holder, card in state.known:
        if observer == seat:
            out.setdefault(holder, set()).add(card)
    return out
