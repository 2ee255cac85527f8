"""Where the AI's playouts stop in Arkham Ritual (``AiHooks.playout_value``), and how they judge the position there.

A game is rounds until someone has lost all their Sanity, and a move bears on the round it is made in (which
card goes to whom, who keeps what). A playout that went on to play the later rounds at random would add their
noise to what the move changed, at several times the cost. So a playout stops once a round has ended since the
world it began from, and judges each seat by its Sanity against the others': the game is lost by the first to
run out (``sanity / (sanity + lowest other)``), or in the competitive variant won by the most Sanity
(``sanity / (sanity + highest other)``).

It reads only the Sanity markers, which are public.
"""

from __future__ import annotations

from shared.games.arkham_ritual.state import ArkhamRitualState, Drawing


def playout_value(start: ArkhamRitualState, state: ArkhamRitualState) -> list[float] | None:
    """Each seat's reward once a round has ended since ``start`` (the next one dealt), else ``None``."""
    if not isinstance(state.phase, Drawing) or state.round is None or start.round is None:
        return None
    if state.round.number <= start.round.number:
        return None
    sanity = state.sanity
    out = []
    for seat, mine in enumerate(sanity):
        others = [left for s, left in enumerate(sanity) if s != seat]
        rival = max(others) if state.competitive else min(others)
        out.append(0.5 if mine + rival == 0 else mine / (mine + rival))
    return out
