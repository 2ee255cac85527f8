"""Rise of Cthulhu: what each viewer sees, the end of the game, resampling hidden cards, and invariants."""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

from shared.games.rise_of_cthulhu.cards import ARTIFACTS, CULTISTS, MONSTERS, OLD_ONE_SLOT, OLD_ONES
from shared.games.rise_of_cthulhu.state import (
    OLD_ONES_TO_END,
    Table,
    facing,
    is_over,
    locations_facing,
    other,
    phase,
    points,
    side_points,
    to_act,
)
from shared.kernel import EVERYONE, Outcome, sees


def _hand_counts(hand: tuple[str, ...]) -> dict[str, int]:
    return {
        "cultists": sum(1 for c in hand if c in CULTISTS),
        "monsters": sum(1 for c in hand if c in MONSTERS),
        "artifacts": sum(1 for c in hand if c in ARTIFACTS),
    }


def view(state: Table, viewer: Any) -> dict[str, Any]:
    """Public table, hand counts, the cards each side has seen the other take, and the viewer's own hand."""
    seats = range(state.players)
    pending = state.pending
    out: dict[str, Any] = {
        "phase": phase(state),
        "current": state.current,
        "to_act": sorted(to_act(state)),
        "actions_taken": state.actions_taken,
        "actions_allowed": state.actions_allowed,
        "idle_turns": state.idle_turns,
        "must_draw_from_deck": state.must_draw and not state.deck_drawn,
        "deck_size": len(state.deck),
        "old_ones_in_deck_at": [i for i, c in enumerate(state.deck) if c == OLD_ONE_SLOT],
        "valley": list(state.valley),
        "discard": list(state.discard),
        "spent": list(state.spent),
        "monster_deck_size": len(state.monster_deck),
        "artifact_deck_size": len(state.artifact_deck),
        "hunter": state.hunter,
        "locations": [
            {
                "name": loc.name,
                "old_one": loc.old_one,
                "facing": facing(loc),
                "sides": [
                    {"cultists": list(side.cultists), "monsters": list(side.monsters), "points": side_points(side)}
                    for side in loc.sides
                ],
            }
            for loc in state.locations
        ],
        "awake": list(state.awake),
        "not_awake": list(state.sleeping),
        "pending_power": None
        if pending is None
        else {"old_one": pending.old_one, "location": pending.location, "influencer": pending.influencer, "drawn_by": pending.drawn_by},
        "owed_draws": list(state.owed),
        "hand_sizes": [len(h) for h in state.hands],
        "hand_counts": [_hand_counts(h) for h in state.hands],
        "known_in_hand": [list(k) for k in state.known],
        "points": [points(state, s) for s in seats],
        "locations_facing": [locations_facing(state, s) for s in seats],
        "artifacts_acquired": list(state.artifacts_acquired),
        "monsters_played": list(state.monsters_played),
    }
    if viewer is not None and viewer is not EVERYONE:
        out["seat"] = viewer
    for seat in seats:
        if sees(viewer, [seat]) and viewer is not EVERYONE:
            out["hand"] = list(state.hands[seat])
    if viewer is EVERYONE:
        out["hands"] = [list(h) for h in state.hands]
        out["deck"] = list(state.deck)
        out["monster_deck"] = list(state.monster_deck)
        out["artifact_deck"] = list(state.artifact_deck)
    result = outcome(state)
    if result is not None:
        out["outcome"] = result.to_json()
    return out


def outcome(state: Table) -> Outcome | None:
    """Most Locations (points instead if tied or Azathoth woke), then artifacts, monsters, fewest cards in hand."""
    if not is_over(state):
        return None
    seats = range(state.players)
    pts = tuple(points(state, s) for s in seats)
    locs = tuple(locations_facing(state, s) for s in seats)
    azathoth = "azathoth" in state.awake
    steps: list[tuple[str, tuple[int, ...]]] = [] if azathoth else [("locations", locs)]
    steps += [
        ("points", pts),
        ("artifacts", state.artifacts_acquired),
        ("monsters", state.monsters_played),
        ("hand", tuple(-len(h) for h in state.hands)),
    ]
    details = {
        "azathoth": azathoth,
        "locations": list(locs),
        "points": list(pts),
        "artifacts_acquired": list(state.artifacts_acquired),
        "monsters_played": list(state.monsters_played),
        "hand_sizes": [len(h) for h in state.hands],
    }
    for reason, values in steps:
        if values[0] != values[1]:
            winner = 0 if values[0] > values[1] else 1
            return Outcome(reason=reason, winners=(winner,), scores=tuple(float(p) for p in pts), details=details)
    return Outcome(reason="tie", winners=(), scores=tuple(float(p) for p in pts), details=details)


def resample(state: Table, seat: int, r: random.Random) -> Table:
    """Reshuffle what ``seat`` cannot know: the opponent's unseen hand cards with the matching hidden decks."""
    opp = other(seat)
    known = set(state.known[opp])
    hand = state.hands[opp]
    cultists = [c for c in hand if c in CULTISTS and c not in known] + [c for c in state.deck if c != OLD_ONE_SLOT]
    monsters = [c for c in hand if c in MONSTERS] + list(state.monster_deck)
    artifacts = [c for c in hand if c in ARTIFACTS] + list(state.artifact_deck)
    for pool in (cultists, monsters, artifacts):
        r.shuffle(pool)
    counts = _hand_counts(hand)
    unseen = counts["cultists"] - sum(1 for c in hand if c in known)
    new_hand = (
        [c for c in hand if c in known]
        + cultists[:unseen]
        + monsters[: counts["monsters"]]
        + artifacts[: counts["artifacts"]]
    )
    rest = iter(cultists[unseen:])
    deck = tuple(c if c == OLD_ONE_SLOT else next(rest) for c in state.deck)
    hands = list(state.hands)
    hands[opp] = tuple(sorted(new_hand))
    return replace(
        state,
        hands=tuple(hands),
        deck=deck,
        monster_deck=tuple(monsters[counts["monsters"] :]),
        artifact_deck=tuple(artifacts[counts["artifacts"] :]),
    )


def invariant(state: Table) -> None:
    """Every card exactly once; Old Ones awake or asleep; the Dark Hunter never on an Old One."""
    hands = [c for h in state.hands for c in h]
    on_table = [c for loc in state.locations for side in loc.sides for c in side.cultists]
    cultists = [c for c in state.deck if c != OLD_ONE_SLOT] + [c for c in hands if c in CULTISTS]
    cultists += list(state.valley) + on_table + list(state.discard)
    assert sorted(cultists) == sorted(CULTISTS), "every Cultist card exactly once"
    staying = [m for loc in state.locations for side in loc.sides for m in side.monsters]
    monsters = list(state.monster_deck) + [c for c in hands if c in MONSTERS] + staying
    monsters += [c for c in state.spent if c in MONSTERS]
    assert sorted(monsters) == sorted(MONSTERS), "every Monster card exactly once"
    artifacts = list(state.artifact_deck) + [c for c in hands if c in ARTIFACTS] + [c for c in state.spent if c in ARTIFACTS]
    assert sorted(artifacts) == sorted(ARTIFACTS), "every Artifact card exactly once"
    assert all(c in CULTISTS or c in MONSTERS or c in ARTIFACTS for c in hands), "only playing cards in hands"
    assert sorted(state.awake + state.sleeping) == sorted(OLD_ONES), "every Old One awake or asleep"
    assert list(state.sleeping) == sorted(state.sleeping)
    assert sorted(loc.old_one for loc in state.locations if loc.old_one) == sorted(state.awake)
    assert state.deck.count(OLD_ONE_SLOT) == OLD_ONES_TO_END - len(state.awake), "one buried Old One per third"
    assert len(state.awake) <= OLD_ONES_TO_END
    if state.hunter is not None:
        hunted = [loc for loc in state.locations if loc.name == state.hunter]
        assert hunted and hunted[0].old_one is None, "the Dark Hunter stands on a Location without an Old One"
    for seat in range(state.players):
        assert list(state.hands[seat]) == sorted(state.hands[seat])
        assert set(state.known[seat]) <= set(state.hands[seat])
        assert state.owed[seat] >= 0
    assert 0 <= state.actions_taken <= state.actions_allowed
    if state.pending is not None:
        assert state.pending.old_one == state.awake[-1]
    if len(state.awake) < OLD_ONES_TO_END:
        assert OLD_ONE_SLOT in state.deck, "the deck cannot run out before the third Old One wakes"
