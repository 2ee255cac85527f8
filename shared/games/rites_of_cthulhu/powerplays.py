"""Power-plays: Become the Grand Cultist, Excavate a New Artifact, Steal a Coveted Artifact.

Rulebook "Power-Plays": at any moment of a rite, any cultist holding the cards (a forbidden book with the 13,
the 1, or both, of its own cult) reveals and discards them and follows the effect, then draws replacements
(except in rites that deal out every card). The discarded cards leave the rite, so power-plays cannot loop.
"""

from __future__ import annotations

from typing import Any

from shared.kernel import ev
from shared.games.rites_of_cthulhu.cards import CULTS
from shared.games.rites_of_cthulhu.rites import RITES, base
from shared.games.rites_of_cthulhu.rites.base import card_id, require
from shared.games.rites_of_cthulhu.state import Performing, RitesState

POWER_PLAYS = {
    "become_grand_cultist": (0, 13),
    "excavate_artifact": (0, 1),
    "steal_artifact": (0, 1, 13),
}


def cards_for(kind: str, cult_index: int) -> list[int]:
    return [card_id(cult_index, r) for r in POWER_PLAYS[kind]]


def allowed(state: RitesState) -> bool:
    """Power-plays exist while a rite is performed, unless an artifact forbade them."""
    return isinstance(state.stage, Performing) and state.stage.begun and not state.table.mods.no_power_plays


def legal(state: RitesState, seat: int) -> list[dict[str, Any]]:
    if not allowed(state):
        return []
    hand = set(state.table.hands[seat])
    out: list[dict[str, Any]] = []
    for c in range(len(CULTS)):
        if set(cards_for("become_grand_cultist", c)) <= hand:
            out.append({"type": "become_grand_cultist", "cult": CULTS[c]})
        if set(cards_for("excavate_artifact", c)) <= hand and state.artifact_deck:
            out.append({"type": "excavate_artifact", "cult": CULTS[c]})
        if set(cards_for("steal_artifact", c)) <= hand:
            out += [{"type": "steal_artifact", "cult": CULTS[c], "artifact": a} for a in state.coveted]
    return out


def decide(state: RitesState, command: Any, seat: int) -> tuple[list, bool]:
    """The events of a power-play, and whether an artifact must then be excavated (the game does it)."""
    kind = command["type"]
    require(isinstance(state.stage, Performing) and state.stage.begun, "rules/no_rite_in_progress",
            "Power-plays are made while a rite is being performed.")
    require(not state.table.mods.no_power_plays, "rules/power_plays_forbidden",
            "An artifact forbids power-plays for the rest of this rite.")
    cult_index = CULTS.index(command["cult"])
    cards = cards_for(kind, cult_index)
    require(set(cards) <= set(state.table.hands[seat]), "rules/missing_power_play_cards",
            "You do not hold the cards this power-play needs.", cards=cards)
    table = state.table
    events = [ev("power_play_made", seat=seat, power=kind, cult=command["cult"]),
              base.set_aside_from_hand(table, seat, cards)]
    if kind == "become_grand_cultist":
        return events, False  # the game fails the rite and deals again
    if kind == "steal_artifact":
        require(command["artifact"] in state.coveted, "rules/not_a_coveted_artifact",
                "That artifact is not in the Coveted Artifact pile.")
    else:
        require(bool(state.artifact_deck), "rules/artifact_deck_empty", "The artifact deck is empty.")
    after = base.evolve_table(table, events[-1])
    rite = RITES[state.stage.rite_id]
    if rite.draws_replacements:
        drawn = base.draw(after, seat, len(cards))
        events += drawn
    if kind == "steal_artifact":
        events.append(ev("artifact_stolen", seat=seat, artifact=command["artifact"]))
    return events, True
