"""The AI's playouts in Rise of Cthulhu: where they stop and how they judge the position there
(``AiHooks.playout_value``), and how they move (``AiHooks.rollout_policy``).

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

The policy is a one-ply preference by the same goal, counted without building the position after each command:
play the Cultist that turns a Location toward the seat, send the Dark Hunter where its kill turns one, draw when
the hand is short of Cultists; a random legal command a quarter of the time (``EXPLORE``).

Both read only the world the search drew (``start`` and the playout's ``state``): the hands there are the
resampled ones, never the real state's.
"""

from __future__ import annotations

import math
import random

from shared.kernel import Command

from shared.games.rise_of_cthulhu.cards import ARTIFACTS, CULTISTS, MONSTERS, number
from shared.games.rise_of_cthulhu.commands import DrawCard, PlayCultist, PlayToValley
from shared.games.rise_of_cthulhu.rules import HAND_SIZE
from shared.games.rise_of_cthulhu.state import OLD_ONES_TO_END, Location, RiseOfCthulhuState, highest, side_points

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
        sign = _facing(mine, theirs)
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


EXPLORE = 0.25  # share of a playout's moves played at random
FLIP = 3.0  # a Location turned toward the seat (or away from its rival), per step of its facing


def rollout_policy(state: RiseOfCthulhuState, seat: int, legal: list[Command], rng: random.Random) -> Command:
    """A fast one-ply preference from the rulebook's goal: a Cultist played where it turns a Location toward the
    seat, the Dark Hunter sent where its kill turns one (the Valley play), else a draw when the hand is short of
    Cultists and a play where the margin is close; the rest (an Old One's power, Monsters, Artifacts) at random.
    Now and then (``EXPLORE``) a random legal command, so every line stays possible. It reads the public table and
    ``seat``'s own hand only, and returns one of ``legal``."""
    if len(legal) == 1 or rng.random() < EXPLORE:
        return rng.choice(legal)
    rival = 1 - seat
    sides = {loc.name: (side_points(loc.sides[seat]), side_points(loc.sides[rival]), loc) for loc in state.locations}
    short = sum(1 for c in state.hands[seat] if c in CULTISTS) <= 1
    best: list[Command] = []
    top = -100.0
    for command in legal:
        value = _value(command, seat, sides, short)
        if value > top:
            best, top = [command], value
        elif value == top:
            best.append(command)
    return rng.choice(best)


def _facing(mine: int, theirs: int) -> int:
    """1 if a Location with these points faces the seat, -1 if its rival, 0 if neither."""
    return (mine > theirs) - (mine < theirs)


def _value(command: Command, seat: int, sides: dict[str, tuple[int, int, Location]], short: bool) -> float:
    if isinstance(command, PlayCultist):
        mine, theirs, _ = sides[command.location]
        after = mine + number(command.card)
        close = 0.5 if 0 <= mine - theirs < 3 else 0.0  # a slim lead made safer
        return FLIP * (_facing(after, theirs) - _facing(mine, theirs)) + close - 0.05 * number(command.card)
    if isinstance(command, PlayToValley):
        mine, theirs, loc = sides[command.hunter_to]
        tops = [highest(side) for side in loc.sides]
        numbers = [number(c) if c is not None else 0 for c in tops]
        kill = max(numbers)
        if kill == 0:
            return -1.0
        a = mine - (numbers[seat] if numbers[seat] == kill else 0)
        b = theirs - (numbers[1 - seat] if numbers[1 - seat] == kill else 0)
        return FLIP * (_facing(a, b) - _facing(mine, theirs)) - 0.5
    if isinstance(command, DrawCard):
        return (1.0 if short else 0.2) if command.source == "deck" else (0.8 if short else 0.1)
    return 0.3
