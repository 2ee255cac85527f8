"""The AI's playouts in Rites of Cthulhu: where they stop (``AiHooks.playout_value``) and how they move
(``AiHooks.rollout_policy``).

A game is six rites (two or three players), and a move bears on the rite it is made in: a playout that went on
to play the later rites at random would add their noise to what the move changed, at six times the cost. So a
playout stops once a rite has ended since the world it began from, and judges the position by the Elder Sign
points: each seat's lead over the best other seat, against what the rites left could still swing
(``playout_value``).

The policy is a fast preference by kind of move.

A random playout is ~250 commands long and mostly aimless: it ends a shedding turn with cards it could have
shed, discards the Dunwich pairs that would capture a wall card, passes a knock it could win, and lets a
power-play it holds go by. The rite's winner then comes down to chance, and so does the game. This policy keeps
the randomness within a kind of move (which card, which grave, which bid) but prefers the kinds that make
progress: shedding a card over ending the turn, capturing over revealing over discarding, knocking over passing,
stealing or excavating an artifact with a power-play. Now and then (``EXPLORE``) it plays a random legal
command, so every line stays possible.

It looks only at the commands ``seat`` may play (which follow from its own hand and the public table) and
returns one of ``legal``.
"""

from __future__ import annotations

import random
from typing import Any

from shared.kernel import Command

from shared.games.rites_of_cthulhu.artifacts import points
from shared.games.rites_of_cthulhu.state import Choosing, RitesState

EXPLORE = 0.15  # share of moves played at random
SWING_PER_RITE = 1.0  # Elder Sign points a rite still to come may swing, for judging a lead (with 2 for the rest)

PREFERENCE: dict[str, int] = {
    # power-plays: a Coveted Artifact is points; becoming the Grand Cultist only fails the rite
    "steal_artifact": 9,
    "excavate_artifact": 6,
    # The Tree on the Hill, At the Mountains of Madness: shed cards, end the turn only when nothing plays
    "grow_tree": 5, "plant_tree": 4, "extend_ridge": 5, "play_on_slope": 5, "play_cliff": 4,
    # The Dunwich Horror: a captured wall card is points; a knock takes the revealed one
    "capture_wall": 8, "knock": 7, "reveal_wall": 5, "discard_and_draw": 2, "call_knock": 1,
    # The Hound: a ghoul placed is a grave contested; a henchman called backs it
    "place_ghoul": 3, "call_henchman": 3,
}
"""Kinds of move the policy prefers (higher first); every other kind counts 0, an out-of-turn artifact -1."""
_VALUE = {**PREFERENCE, "invoke_artifact": -1}


def rollout_policy(state: Any, seat: int, legal: list[Command], rng: random.Random) -> Command:
    if len(legal) == 1 or rng.random() < EXPLORE:
        return rng.choice(legal)
    # the commands of the most preferred kind: a legal list runs in kinds (a rite's plays, its other moves, the
    # power-plays, the artifacts), so each kind's value is looked up once per run (asked on every move of a playout)
    best: list[Command] = []
    top, kind, value, value_of = -100, None, 0, _VALUE.get
    for command in legal:
        if command.type != kind:
            kind = command.type
            value = value_of(kind, 0)
        if value > top:
            best, top = [command], value
        elif value == top:
            best.append(command)
    return rng.choice(best)


def playout_value(start: RitesState, state: RitesState) -> list[float] | None:
    """Once a rite has ended since ``start`` (the next one not yet chosen), each seat's reward: 1/2 plus its lead in
    points over the best other seat, scaled so that a lead the rites left could not swing counts 0 or 1."""
    if not isinstance(state.stage, Choosing) or len(state.played) <= len(start.played):
        return None
    scores = [points(state, s) for s in range(state.players)]
    span = 2.0 + SWING_PER_RITE * (state.rites_total - len(state.played))
    out = []
    for seat, mine in enumerate(scores):
        lead = mine - max(v for s, v in enumerate(scores) if s != seat)
        out.append(0.5 + 0.5 * max(-1.0, min(1.0, lead / span)))
    return out
