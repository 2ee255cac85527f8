"""Power-plays (rulebook "Power-Plays"): Become the Grand Cultist, Excavate a New Artifact, Steal a Coveted Artifact.

At any moment of a rite, any cultist holding the cards (a forbidden book with the 13, the 1, or both, of its own
cult) reveals and discards them and follows the effect, then draws replacements (except in rites that deal out
every card). The discarded cards leave the rite, so power-plays cannot loop.
"""

from __future__ import annotations

from enum import StrEnum

from shared.kernel import Command, Decision
from shared.kernel.errors import require

from shared.games.rites_of_cthulhu.cards import CULTS, card_id
from shared.games.rites_of_cthulhu.commands import BecomeGrandCultist, ExcavateArtifact, PowerPlayCommand, StealArtifact
from shared.games.rites_of_cthulhu.events import ArtifactStolen, PowerPlayMade
from shared.games.rites_of_cthulhu.rites import RITES
from shared.games.rites_of_cthulhu.rites.table import set_aside_from_hand
from shared.games.rites_of_cthulhu.state import Performing, RitesState


class PowerPlay(StrEnum):
    BECOME_GRAND_CULTIST = "become_grand_cultist"
    EXCAVATE_ARTIFACT = "excavate_artifact"
    STEAL_ARTIFACT = "steal_artifact"


POWER_PLAYS = frozenset(PowerPlay)

RANKS_NEEDED = {
    PowerPlay.BECOME_GRAND_CULTIST: (0, 13),
    PowerPlay.EXCAVATE_ARTIFACT: (0, 1),
    PowerPlay.STEAL_ARTIFACT: (0, 1, 13),
}
"""The elder signs each power-play shows, all of one cult."""
MOST_DRAWN = max(len(ranks) for ranks in RANKS_NEEDED.values())
"""The most replacement cards a power-play draws."""


def cards_for(kind: str, cult_index: int) -> list[int]:
    return [card_id(cult_index, r) for r in RANKS_NEEDED[PowerPlay(kind)]]


def allowed(state: RitesState) -> bool:
    """Power-plays exist while a rite is performed, unless an artifact forbade them."""
    return isinstance(state.stage, Performing) and state.stage.begun and not state.table.mods.no_power_plays


_NEEDED = [(name, {kind: frozenset(cards_for(kind, c)) for kind in PowerPlay}) for c, name in enumerate(CULTS)]
"""Each cult's name and the cards each power-play of it shows (legal is asked on every move of a playout)."""
_ZERO = frozenset(card_id(c, 0) for c in range(len(CULTS)))
"""Every power-play shows its cult's 0: a hand without one has none."""


def leaves_a_card_to_answer(state: RitesState, seat: int, kind: PowerPlay) -> bool:
    """Would ``seat`` still hold a card to give back for an unanswered forced card after this power-play? The
    receiver "trades it for any card from her hand": a power-play that would leave her none (its cards shown and
    too few replacements: none in Out of the Aeons, a short pile) waits until she has answered (see the rulings).
    Becoming the Grand Cultist ends the rite, and the trade with it."""
    table = state.table
    if table.trade is None or table.trade.receiver != seat or kind == PowerPlay.BECOME_GRAND_CULTIST:
        return True
    assert isinstance(state.stage, Performing)
    rite = RITES[state.stage.rite_id]
    shown = len(RANKS_NEEDED[kind])
    drawn = min(shown, rite.drawable(table, state.stage.rite)) if rite.draws_replacements else 0
    return len(table.hands[seat]) - shown + drawn > 0


def legal(state: RitesState, seat: int) -> list[Command]:
    if not allowed(state):
        return []
    hand = state.table.hands[seat]
    if _ZERO.isdisjoint(hand):
        return []
    held = set(hand)
    out: list[Command] = []
    for name, needed in _NEEDED:
        if needed[PowerPlay.BECOME_GRAND_CULTIST] <= held:
            out.append(BecomeGrandCultist(cult=name))
        if (needed[PowerPlay.EXCAVATE_ARTIFACT] <= held and state.artifact_deck
                and leaves_a_card_to_answer(state, seat, PowerPlay.EXCAVATE_ARTIFACT)):
            out.append(ExcavateArtifact(cult=name))
        if needed[PowerPlay.STEAL_ARTIFACT] <= held and leaves_a_card_to_answer(state, seat, PowerPlay.STEAL_ARTIFACT):
            out += [StealArtifact(cult=name, artifact=a) for a in state.coveted]
    return out


def decide(d: Decision[RitesState], command: PowerPlayCommand, seat: int) -> None:
    """Show and discard the cards, then draw replacements and steal where the power-play says so; the game fails
    the rite (Become the Grand Cultist) or excavates the new artifact."""
    state: RitesState = d.state
    kind = PowerPlay(command.type)
    require(not state.table.mods.no_power_plays, "rules/power_plays_forbidden",
            "An artifact forbids power-plays for the rest of this rite.")
    cards = cards_for(kind, CULTS.index(command.cult))
    require(set(cards) <= set(state.table.hands[seat]), "rules/missing_power_play_cards",
            "You do not hold the cards this power-play needs.", cards=cards)
    if isinstance(command, StealArtifact):
        require(command.artifact in state.coveted, "rules/not_a_coveted_artifact",
                "That artifact is not in the Coveted Artifact pile.")
    elif kind == PowerPlay.EXCAVATE_ARTIFACT:
        require(bool(state.artifact_deck), "rules/artifact_deck_empty", "The artifact deck is empty.")
    require(leaves_a_card_to_answer(state, seat, kind), "rules/trade_needs_a_card",
            "Answer the card forced on you first: this power-play would leave you no card to give back.")
    d.emit(PowerPlayMade(seat=seat, power=kind, cult=command.cult))
    set_aside_from_hand(d, seat, cards)
    if kind == PowerPlay.BECOME_GRAND_CULTIST:
        return
    assert isinstance(state.stage, Performing)
    rite = RITES[state.stage.rite_id]
    if rite.draws_replacements:
        rite.replacement_draw(d, seat, len(cards))
    if isinstance(command, StealArtifact):
        d.emit(ArtifactStolen(seat=seat, artifact=command.artifact))
