"""Where the AI's playouts stop in Rise of Cthulhu (``AiHooks.playout_value``), and how they judge the position there.

A random game is ~150 commands, and a random playout decides nothing the way the rulebook's winner is decided:
"the most Locations facing" (points in play when that ties, or once Azathoth woke). A random seat sends its
Cultists to the Valley and the Dark Hunter anywhere, so whether a move kept a Location facing its seat is lost in
the noise of the hundred commands after it. So a playout stops, at the start of a turn, once ``HORIZON`` cards have
moved on since the world it began from (drawn from the Cultist Deck or played onto a Location: about two turns),
and judges each seat there by a logistic model (``COEFFICIENTS``) of what the rulebook says wins: Locations facing
it, those an Old One has frozen (no Cultist may be played there) apart from the open ones; the points in play
(which decide a tie in Locations, and everything once Azathoth woke); how far the game has run; the margins at
the open Locations; and the cards in hand. The coefficients are fitted to random games by
``python -m bench.ai_value_fit --game rise-of-cthulhu`` (its output for seeds 0-1999: even seeds fitted, odd ones
held out).

It reads only the world the search drew (``start`` and the playout's ``state``): the hands there are the
resampled ones, never the real state's.
"""

from __future__ import annotations

import math

from shared.games.rise_of_cthulhu.cards import ARTIFACTS, CULTISTS, MONSTERS
from shared.games.rise_of_cthulhu.rules import HAND_SIZE
from shared.games.rise_of_cthulhu.state import OLD_ONES_TO_END, RiseOfCthulhuState, side_points

HORIZON = 4  # cards drawn from the Cultist Deck or played onto a Location since the playout's world, then judged
DECK_AT_SETUP = len(CULTISTS) - 2 * HAND_SIZE - 1 + OLD_ONES_TO_END  # the Cultist Deck after the deal, Old Ones in it
DECK_TO_END = 35  # of them drawn by the time the third Old One wakes (it sleeps 35th from the top)
MARGIN_CAP = 6  # points of a margin at an open Location that count toward holding it

FEATURES = (
    "bias", "frozen_lead", "open_lead", "open_lead_x_progress", "points_lead", "points_lead_x_azathoth",
    "margins", "hand_lead", "extras_lead",
)
COEFFICIENTS = {  # python -m bench.ai_value_fit --game rise-of-cthulhu --games 2000: held-out log loss 0.589 (points lead
    # alone 0.630, a coin 0.693); margins is negative beside the lead in points and Locations it overlaps
    "bias": 0.0000,
    "frozen_lead": 0.4941,
    "open_lead": -0.0832,
    "open_lead_x_progress": 0.4042,
    "points_lead": 0.5274,
    "points_lead_x_azathoth": 0.2121,
    "margins": -0.2883,
    "hand_lead": 0.0818,
    "extras_lead": 0.2473,
}


def moved(state: RiseOfCthulhuState) -> int:
    """Cards moved so far in the sense of ``HORIZON``, less the Cultist Deck's size at setup (a constant): each
    draw from the deck shrinks it, each Cultist played onto a Location adds one there (a Cultist the Dark Hunter
    destroys goes from a Location to the discard, so it still counts)."""
    on_table = sum(len(side.cultists) for loc in state.locations for side in loc.sides)
    return on_table + len(state.discard) - len(state.deck)


def features(state: RiseOfCthulhuState, seat: int) -> list[float]:
    """``seat``'s features (in ``FEATURES`` order) against the other seat."""
    rival = 1 - seat
    frozen = open_ = margins = 0.0
    lead_points = 0
    for loc in state.locations:
        mine, theirs = side_points(loc.sides[seat]), side_points(loc.sides[rival])
        lead_points += mine - theirs
        sign = (mine > theirs) - (mine < theirs)
        if loc.old_one is not None:
            frozen += sign
        else:
            open_ += sign
            margins += max(-MARGIN_CAP, min(MARGIN_CAP, mine - theirs)) / MARGIN_CAP
    progress = min(1.0, (DECK_AT_SETUP - len(state.deck)) / DECK_TO_END)
    azathoth = float("azathoth" in state.awake)
    hand, other = state.hands[seat], state.hands[rival]
    extras = sum(1 for c in hand if c in MONSTERS or c in ARTIFACTS) - sum(
        1 for c in other if c in MONSTERS or c in ARTIFACTS)
    cultists = sum(1 for c in hand if c in CULTISTS) - sum(1 for c in other if c in CULTISTS)
    points = lead_points / 10
    return [1.0, frozen, open_, open_ * progress, points, points * azathoth, margins, float(cultists), float(extras)]


def win_chance(state: RiseOfCthulhuState, seat: int) -> float:
    z = sum(COEFFICIENTS[name] * x for name, x in zip(FEATURES, features(state, seat)))
    return 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z))))


def judged_here(start: RiseOfCthulhuState, state: RiseOfCthulhuState) -> bool:
    """A turn begins (nothing waiting: no Old One's power, no owed draw) and ``HORIZON`` cards have moved since
    ``start``."""
    return (state.actions_taken == 0 and state.pending is None and not any(state.owed)
            and moved(state) - moved(start) >= HORIZON)


def playout_value(start: RiseOfCthulhuState, state: RiseOfCthulhuState) -> list[float] | None:
    """Each seat's reward once ``judged_here``, else ``None``."""
    if not judged_here(start, state):
        return None
    mine, theirs = win_chance(state, 0), win_chance(state, 1)
    total = mine + theirs
    return [mine / total, theirs / total] if total > 0 else [0.5, 0.5]
