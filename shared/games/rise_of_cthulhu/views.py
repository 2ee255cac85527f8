"""Rise of Cthulhu's views and hidden information: what a viewer sees, the worlds a seat cannot tell apart, and
the invariants."""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

from shared.kernel import EVERYONE, replace_at, sees
from shared.kernel.events import Viewer

from shared.games.rise_of_cthulhu.cards import ARTIFACTS, CULTISTS, MONSTERS, OLD_ONE_SLOT, OLD_ONES
from shared.games.rise_of_cthulhu.rules import outcome, to_act
from shared.games.rise_of_cthulhu.state import (
    OLD_ONES_TO_END,
    RiseOfCthulhuState,
    other,
    phase,
    side_points,
)


def _hand_counts(hand: tuple[str, ...]) -> dict[str, int]:
    return {
        "cultists": sum(1 for c in hand if c in CULTISTS),
        "monsters": sum(1 for c in hand if c in MONSTERS),
        "artifacts": sum(1 for c in hand if c in ARTIFACTS),
    }


def view(state: RiseOfCthulhuState, viewer: Viewer) -> dict[str, Any]:
    """Public table, hand counts, the cards each side has seen the other take, and the viewer's own hand."""
    seats = range(state.players)
    pending = state.pending
    # each side's points once (``facing``, ``points`` and ``locations_facing`` would each count them again)
    side_pts = [[side_points(side) for side in loc.sides] for loc in state.locations]
    faces = [None if a == b else 0 if a > b else 1 for a, b in side_pts]
    out: dict[str, Any] = {
        "phase": phase(state),
        "current": state.current,
        "to_act": sorted(to_act(state)),
        "actions_taken": state.actions_taken,
        "actions_allowed": state.actions_allowed,
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
                "facing": face,
                "sides": [
                    {"cultists": list(side.cultists), "monsters": list(side.monsters), "points": side_pt}
                    for side, side_pt in zip(loc.sides, pts)
                ],
            }
            for loc, pts, face in zip(state.locations, side_pts, faces)
        ],
        "awake": list(state.awake),
        "not_awake": list(state.sleeping),
        "pending_power": None
        if pending is None
        else {"old_one": pending.old_one, "location": pending.location, "influencer": pending.influencer,
              "drawn_by": pending.drawn_by},
        "owed_draws": list(state.owed),
        "hand_sizes": [len(h) for h in state.hands],
        "hand_counts": [_hand_counts(h) for h in state.hands],
        "known_in_hand": [list(k) for k in state.known],
        "points": [sum(pts[s] for pts in side_pts) for s in seats],
        "locations_facing": [faces.count(s) for s in seats],
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


def resample(state: RiseOfCthulhuState, seat: int, r: random.Random) -> RiseOfCthulhuState:
    """A world ``seat`` cannot tell from this one: the opponent's unseen hand cards dealt afresh with the Cultist
    Deck (its face-down Old One slots stay where they are, as the setup rules make them public) and the Monster
    and Artifact Decks. Drawn directly, never the real state handed back; each pool of unseen cards is sorted
    before it is shuffled, so two worlds the seat cannot tell apart resample to the same world."""
    opp = other(seat)
    known = list(state.known[opp])
    hand = state.hands[opp]
    unseen = list(hand)
    for card in known:
        unseen.remove(card)
    cultists = sorted([c for c in unseen if c in CULTISTS] + [c for c in state.deck if c != OLD_ONE_SLOT])
    monsters = sorted([c for c in hand if c in MONSTERS] + list(state.monster_deck))
    artifacts = sorted([c for c in hand if c in ARTIFACTS] + list(state.artifact_deck))
    for pool in (cultists, monsters, artifacts):
        r.shuffle(pool)
    counts = _hand_counts(hand)
    hidden = counts["cultists"] - len(known)
    new_hand = known + cultists[:hidden] + monsters[: counts["monsters"]] + artifacts[: counts["artifacts"]]
    rest = iter(cultists[hidden:])
    deck = tuple(c if c == OLD_ONE_SLOT else next(rest) for c in state.deck)
    return replace(
        state,
        hands=replace_at(state.hands, opp, tuple(sorted(new_hand))),
        deck=deck,
        monster_deck=tuple(monsters[counts["monsters"] :]),
        artifact_deck=tuple(artifacts[counts["artifacts"] :]),
    )


def invariant(state: RiseOfCthulhuState) -> None:
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
    artifacts = list(state.artifact_deck) + [c for c in hands if c in ARTIFACTS]
    artifacts += [c for c in state.spent if c in ARTIFACTS]
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
    assert state.current in range(state.players) and len(state.hands) == state.players
    assert 0 <= state.actions_taken <= state.actions_allowed <= 3, "two actions, one more with the Glass from Leng"
    if state.pending is not None:
        assert state.pending.old_one == state.awake[-1]
    if len(state.awake) < OLD_ONES_TO_END:
        assert OLD_ONE_SLOT in state.deck, "the deck cannot run out before the third Old One wakes"
