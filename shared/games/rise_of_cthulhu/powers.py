"""Rise of Cthulhu's card powers: the woken Old One's power, and Monster and Artifact free plays.

The rulebook names these cards but prints no text: the effects are project data (``cards.py``), each keyed by
an ``effect`` the functions here implement. Rulings 17–22 and the card tables in ``docs/rulings/rise-of-cthulhu.md``.
"""

from __future__ import annotations


from shared.kernel.errors import require

from shared.games.rise_of_cthulhu import cards
from shared.games.rise_of_cthulhu.actions import (
    Play,
    hunter_destinations,
    move_hunter,
    opponent_cultists,
    recall_options,
    require_playable_location,
    set_abilities,
)
from shared.games.rise_of_cthulhu.cards import ARTIFACTS, CULTISTS, MONSTERS, OLD_ONES
from shared.games.rise_of_cthulhu.commands import PlayArtifact, PlayMonster
from shared.games.rise_of_cthulhu.events import (
    ArtifactDrawn,
    ArtifactPlayed,
    CultistCrossed,
    CultistDestroyed,
    CultistMoved,
    CultistPlayed,
    CultistSentToValley,
    DrawsOwed,
    ExtraActionGained,
    MonsterDrawn,
    MonsterPlayed,
    PowerResolved,
    ValleyCardTaken,
)
from shared.games.rise_of_cthulhu.state import RiseOfCthulhuState, highest, location, other

HOME = "home"
"""The Dark Hunter's place between the Cultist Deck and the Valley, as a command target."""

# -- Old One powers ------------------------------------------------------------------------------------------


def power_targets(s: RiseOfCthulhuState) -> list[str | None]:
    """The choices the woken Old One's power allows its influencer (None where it takes no choice)."""
    pending = s.pending
    assert pending is not None
    effect = OLD_ONES[pending.old_one]["effect"]
    if effect == "hastur":
        return [card for _, card in opponent_cultists(s, pending.influencer, only_free=True)] or [None]
    if effect == "yog_sothoth":
        return [*hunter_destinations(s), *([HOME] if s.hunter is not None else [])]
    return [None]


def resolve_power(decision: Play, seat: int, target: str | None) -> None:
    """Old Ones: the influencing player reaps the woken Old One's power."""
    s = decision.state
    pending = s.pending
    assert pending is not None
    require(
        target in power_targets(s),
        "rules/invalid_power_target",
        f"That is not a choice {OLD_ONES[pending.old_one]['name']}'s power allows.",
        target=target,
    )
    opponent = other(seat)
    match OLD_ONES[pending.old_one]["effect"]:
        case "azathoth":
            if s.artifact_deck:
                decision.emit(ArtifactDrawn(seat=seat, card=s.artifact_deck[0]), secret={"card": [seat]})
        case "hastur":
            if target is not None:
                where = next(n for n, c in opponent_cultists(s, seat, only_free=True) if c == target)
                decision.emit(CultistDestroyed(seat=opponent, card=target, location=where, by=pending.old_one))
        case "yog_sothoth":
            move_hunter(decision, None if target == HOME else target, pending.old_one)
        case "shub_niggurath":
            decision.emit(DrawsOwed(seat=seat, count=2))
        case "cthulhu":
            for loc in s.locations:
                card = highest(loc.sides[opponent])
                if loc.old_one is None and card is not None:
                    decision.emit(CultistDestroyed(seat=opponent, card=card, location=loc.name, by=pending.old_one))
        case "nyarlathotep":
            if s.monster_deck:
                decision.emit(MonsterDrawn(seat=seat, card=s.monster_deck[0]), secret={"card": [seat]})
        case effect:
            raise AssertionError(f"unknown Old One effect {effect!r}")
    decision.emit(PowerResolved(seat=seat, old_one=pending.old_one))


# -- Monsters ------------------------------------------------------------------------------------------------


def monster_targets(s: RiseOfCthulhuState, seat: int, monster: str, where: str) -> list[tuple[str | None, bool]]:
    """(target, recall_hunter) pairs the Monster allows at ``where``; empty when it cannot go there."""
    card = MONSTERS[monster]
    loc = location(s, where)
    if s.hunter == where or (loc.old_one is not None and not card["old_one_locations"]):
        return []
    match card["effect"]:
        case "destroy_highest" | "stay" | "carry_hunter" | "destroy_all":
            return [(None, False)]
        case "to_valley":
            return [(c, False) for c in loc.sides[other(seat)].cultists]
        case "move_own":
            return [
                (c, False)
                for src in s.locations
                if src.name != where and src.old_one is None
                for c in src.sides[seat].cultists
            ]
        case "free_play":
            return [(c, recall) for c in s.hands[seat] if c in CULTISTS for recall in recall_options(s, seat, c, where)]
        case "steal_low":
            limit = card["max_number"]
            return [(c, False) for c in loc.sides[other(seat)].cultists if cards.number(c) <= limit]
    raise AssertionError(card["effect"])


def play_monster(decision: Play, seat: int, command: PlayMonster) -> None:
    """Set Abilities: a Monster is a free play on a Location, discarded unless it stays."""
    s = decision.state
    monster, where, target, recall = command.card, command.location, command.target, command.recall_hunter
    require(monster in s.hands[seat], "rules/card_not_in_hand", "That card is not in your hand.", card=monster)
    require(monster in MONSTERS, "rules/not_a_monster", "That card is not a Monster.", card=monster)
    require_playable_location(s, where, old_one_allowed=MONSTERS[monster]["old_one_locations"])
    require(
        (target, recall) in monster_targets(s, seat, monster, where),
        "rules/invalid_monster_target",
        f"{MONSTERS[monster]['name']} cannot do that here.",
        target=target,
    )
    effect = MONSTERS[monster]["effect"]
    decision.emit(MonsterPlayed(seat=seat, card=monster, location=where, stays=effect == "stay"))
    loc = location(decision.state, where)
    match effect:
        case "destroy_highest":
            card = highest(loc.sides[other(seat)])
            if card is not None:
                decision.emit(CultistDestroyed(seat=other(seat), card=card, location=where, by=monster))
        case "stay":
            pass
        case "carry_hunter":
            move_hunter(decision, where, monster)
        case "to_valley":
            assert target is not None  # monster_targets offers a card
            decision.emit(CultistSentToValley(seat=other(seat), card=target, location=where))
        case "move_own":
            assert target is not None  # monster_targets offers a card
            src = next(loc.name for loc in s.locations if target in loc.sides[seat].cultists)
            decision.emit(CultistMoved(seat=seat, card=target, from_location=src, to_location=where))
        case "free_play":
            assert target is not None  # monster_targets offers a card
            decision.emit(CultistPlayed(seat=seat, card=target, location=where, action=False))
            set_abilities(decision, seat, target, where, recall)
        case "destroy_all":
            for side_seat, side in enumerate(loc.sides):
                for card in side.cultists:
                    decision.emit(CultistDestroyed(seat=side_seat, card=card, location=where, by=monster))
        case "steal_low":
            assert target is not None  # monster_targets offers a card
            decision.emit(CultistCrossed(seat=seat, card=target, location=where))


# -- Artifacts -----------------------------------------------------------------------------------------------


def artifact_options(s: RiseOfCthulhuState, seat: int, artifact: str) -> list[tuple[str | None, str | None, bool]]:
    """(target, location, recall_hunter) triples the Artifact allows now."""
    match ARTIFACTS[artifact]["effect"]:
        case "draw_two" | "extra_action":
            return [(None, None, False)]
        case "move_hunter":
            return [(t, None, False) for t in [*hunter_destinations(s), *([HOME] if s.hunter is not None else [])]]
        case "play_on_old_one":
            return [
                (c, loc.name, recall)
                for loc in s.locations
                if loc.old_one is not None and s.hunter != loc.name
                for c in s.hands[seat]
                if c in CULTISTS
                for recall in recall_options(s, seat, c, loc.name)
            ]
        case "destroy_one":
            return [(c, None, False) for _, c in opponent_cultists(s, seat, only_free=False)]
        case "take_from_valley":
            return [(c, None, False) for c in sorted(set(s.valley))]
    raise AssertionError(artifact)


def play_artifact(decision: Play, seat: int, command: PlayArtifact) -> None:
    """Set Abilities: an Artifact is a free play from hand, then discarded."""
    s = decision.state
    artifact, target, where, recall = command.card, command.target, command.location, command.recall_hunter
    require(artifact in s.hands[seat], "rules/card_not_in_hand", "That card is not in your hand.", card=artifact)
    require(artifact in ARTIFACTS, "rules/not_an_artifact", "That card is not an Artifact.", card=artifact)
    require(
        (target, where, recall) in artifact_options(s, seat, artifact),
        "rules/invalid_artifact_target",
        f"The {ARTIFACTS[artifact]['name']} cannot do that now.",
        target=target,
    )
    decision.emit(ArtifactPlayed(seat=seat, card=artifact))
    match ARTIFACTS[artifact]["effect"]:
        case "draw_two":
            decision.emit(DrawsOwed(seat=seat, count=2))
        case "extra_action":
            decision.emit(ExtraActionGained(seat=seat))
        case "move_hunter":
            move_hunter(decision, None if target == HOME else target, artifact)
        case "play_on_old_one":
            assert target is not None and where is not None  # artifact_options offers both
            decision.emit(CultistPlayed(seat=seat, card=target, location=where, action=False))
            set_abilities(decision, seat, target, where, recall)
        case "destroy_one":
            assert target is not None  # artifact_options offers a card
            src = next(n for n, c in opponent_cultists(s, seat, only_free=False) if c == target)
            decision.emit(CultistDestroyed(seat=other(seat), card=target, location=src, by=artifact))
        case "take_from_valley":
            assert target is not None  # artifact_options offers a card
            decision.emit(ValleyCardTaken(seat=seat, card=target))
