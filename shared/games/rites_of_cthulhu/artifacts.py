"""Artifact powers: revealing a Coveted Artifact, its power, and later invocations.

Every power acts through the hooks the rites expose (``rites/base.py``): the ``Modifiers`` a rite honours
(turn order, opener, rank order, open hands, no power-plays) and the shared table (hands, pile, forced trades,
knowledge). No rite has a special case for an artifact. The data is in ``cards.ARTIFACTS``.

Symbols: an "all cultists" artifact applies to everybody when revealed and again when its owner invokes it in a
later rite (only before that rite's first move, since its powers shape the rite from the start). A "single
cultist" artifact's ability may be used once during the rite it is revealed in, by whichever cultist invokes it
first, and once more by its owner in a later rite.
"""

from __future__ import annotations

from typing import Any

from shared.kernel import ev
from shared.games.rites_of_cthulhu.cards import ARTIFACTS
from shared.games.rites_of_cthulhu.rites import RITES, base
from shared.games.rites_of_cthulhu.rites.base import require
from shared.games.rites_of_cthulhu.state import Performing, RitesState


def power(artifact: int) -> str:
    return ARTIFACTS[artifact]["power"]


def points(state: RitesState, seat: int) -> int:
    return sum(ARTIFACTS[a]["elder_sign"] for a in state.captured[seat])


def excavate(state: RitesState, rng: Any, seat: int | None = None, taken: tuple[int, ...] = ()) -> list:
    """Excavate a Coveted Artifact (drawn at random from the deck) and apply its power if it acts at once."""
    deck = [a for a in state.artifact_deck if a not in taken]
    if not deck:
        return []
    artifact = deck[rng.randrange(len(deck))]
    events = [ev("artifact_excavated", artifact=artifact, seat=seat)]
    if ARTIFACTS[artifact]["timing"] == "before":
        events += immediate(state, artifact, rng, taken + (artifact,))
    return events


def immediate(state: RitesState, artifact: int, rng: Any, taken: tuple[int, ...] = ()) -> list:
    """The events of an "all cultists" power taking effect."""
    table = state.table
    match power(artifact):
        case "reverse_order":
            return [ev("turn_order_reversed", direction=-table.mods.direction)]
        case "open_hands":
            return [ev("hands_opened")]  # the hands then show in every view
        case "low_wins":
            return [ev("ranks_inverted")]
        case "no_power_plays":
            return [ev("power_plays_forbidden")]
        case "excavate":
            return excavate(state, rng, None, taken)
        case "opener_left":
            return [ev("opener_changed", seat=(table.grand_cultist + 1) % state.players)]
        case "opener_poorest":
            fewest = min(points(state, s) for s in range(state.players))
            seat = base.first_in_order(table, [s for s in range(state.players) if points(state, s) == fewest])
            return [ev("opener_changed", seat=seat)]
        case other:
            raise AssertionError(f"{other} is not an immediate power")


def _others_with_cards(state: RitesState, seat: int) -> list[int]:
    return [s for s in range(state.players) if s != seat and state.table.hands[s]]


def _options(state: RitesState, artifact: int, seat: int) -> list[dict[str, Any]]:
    """Every complete ``invoke_artifact`` command for this artifact and seat (empty: nothing to do)."""
    table = state.table
    rite = RITES[state.stage.rite_id]
    hand = sorted(table.hands[seat])

    def cmd(card: int | None = None, target_seat: int | None = None, target: int | None = None) -> dict[str, Any]:
        return {"type": "invoke_artifact", "artifact": artifact, "card": card, "seat": target_seat, "target": target}

    match power(artifact):
        case "excavate":
            return [cmd()] if state.artifact_deck else []
        case "reverse_order" | "open_hands" | "low_wins" | "no_power_plays" | "opener_left" | "opener_poorest":
            return [cmd()]
        case "redraw_one":
            return [cmd(card=c) for c in hand] if table.pile and rite.draws_replacements else []
        case "redraw_hand":
            return [cmd()] if hand and table.pile and rite.draws_replacements else []
        case "steal_captured":
            return [cmd(target_seat=s, target=a) for s in range(state.players) if s != seat for a in state.captured[s]]
        case "replace_coveted":
            if not state.artifact_deck:
                return []
            return [cmd(target=a) for a in state.coveted if a != artifact]
        case "forced_trade":
            return [cmd(card=c, target_seat=s) for c in hand for s in _others_with_cards(state, seat)]
        case "peek_hand":
            return [cmd(target_seat=s) for s in _others_with_cards(state, seat)]
        case other:
            raise AssertionError(other)


def _invocable(state: RitesState, seat: int) -> list[tuple[int, bool]]:
    """(artifact, second invocation?) pairs ``seat`` may invoke now."""
    stage = state.stage
    if not isinstance(stage, Performing) or not stage.begun or state.table.trade is not None:
        return []
    out = []
    for a in state.revealed:
        if ARTIFACTS[a]["symbol"] == "single" and a not in state.fresh_used:
            out.append((a, False))
    for a in state.captured[seat]:
        if a in state.revealed or a in state.second_used:
            continue
        if ARTIFACTS[a]["timing"] == "before" and state.table.moves > 0:
            continue
        out.append((a, True))
    return out


def legal(state: RitesState, seat: int) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for a, _ in _invocable(state, seat):
        out += _options(state, a, seat)
    return out


def decide(state: RitesState, command: Any, seat: int, rng: Any) -> list:
    artifact = command["artifact"]
    invocable = dict(_invocable(state, seat))
    require(artifact in invocable, "rules/artifact_not_invocable", "You may not invoke that artifact now.")
    options = _options(state, artifact, seat)
    require(command in options, "rules/invalid_artifact_target", "That is not a possible use of this artifact's power.")
    events = [ev("artifact_invoked", seat=seat, artifact=artifact, second=invocable[artifact])]
    table = state.table
    match power(artifact):
        case "redraw_one":
            aside = base.set_aside_from_hand(table, seat, [command["card"]], public=False)
            return events + [aside, *base.draw(base.evolve_table(table, aside), seat, 1)]
        case "redraw_hand":
            hand = list(table.hands[seat])
            aside = base.set_aside_from_hand(table, seat, hand, public=False)
            return events + [aside, *base.draw(base.evolve_table(table, aside), seat, len(hand))]
        case "steal_captured":
            return events + [ev("artifact_taken", artifact=command["target"], from_seat=command["seat"], seat=seat)]
        case "replace_coveted":
            return events + [ev("artifact_thrown_out", artifact=command["target"]), *excavate(state, rng, seat)]
        case "forced_trade":
            return events + [base.force_card(table, seat, command["seat"], command["card"])]
        case "peek_hand":
            target = command["seat"]
            return events + [ev("cards_known", seat=seat, of_seat=target, cards=sorted(table.hands[target]),
                                secret={"cards": [seat]})]
        case _:
            return events + immediate(state, artifact, rng)
