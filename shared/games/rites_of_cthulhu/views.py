"""Rites of Cthulhu's views and hidden information: what a seat may know, the worlds it cannot tell apart, and the
conservation laws."""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

from shared.kernel import EVERYONE, Command
from shared.kernel.events import Viewer

from shared.games.rites_of_cthulhu import artifacts, power_plays
from shared.games.rites_of_cthulhu.cards import ARTIFACT_COUNT, DECK_SIZE, GLASS_FROM_LENG, Power
from shared.games.rites_of_cthulhu.commands import InvokeArtifact
from shared.games.rites_of_cthulhu.rites import RITES
from shared.games.rites_of_cthulhu.rites.table import resample_table, table_view
from shared.games.rites_of_cthulhu.rules import available_rites, legal_commands, to_act
from shared.games.rites_of_cthulhu.state import Choosing, Claiming, Finished, Performing, RitesState

EXCAVATING = frozenset({"choose_rite", "excavate_artifact", "steal_artifact"})
"""Commands that excavate a Coveted Artifact (and apply its power at once)."""

def view(state: RitesState, viewer: Viewer) -> dict[str, Any]:
    stage = state.stage
    out: dict[str, Any] = {
        "players": state.players,
        "grand_cultist": state.grand_cultist,
        "rites_total": state.rites_total,
        "rites_played": list(state.played),
        "rites_available": available_rites(state),
        "stage": type(stage).__name__.lower(),
        "to_act": sorted(to_act(state)),
        "coveted": list(state.coveted),
        "captured": {str(s): list(c) for s, c in enumerate(state.captured)},
        "scores": {str(s): artifacts.points(state, s) for s in range(state.players)},
        "artifact_deck": list(state.artifact_deck),
        "thrown_out": list(state.thrown_out),
        "second_used": list(state.second_used),
        "fresh_used": list(state.fresh_used),
        "first_draws": [list(d) for d in state.first_draws],
        "table": table_view(state.table, viewer),
    }
    if isinstance(stage, Performing):
        rite = RITES[stage.rite_id]
        out["rite"] = {"id": rite.id, "title": rite.title, "begun": stage.begun,
                       **rite.view(state.table, stage.rite, viewer)}
    if isinstance(stage, Claiming):
        out["claiming"] = stage.winner
    if viewer is EVERYONE:
        out["pile_order"] = list(state.table.pile)
        out["face_down"] = [list(p) for p in state.table.face_down]
    return out


def resample(state: RitesState, seat: int, rng: random.Random) -> RitesState:
    """A world ``seat`` cannot tell from this one, drawn directly (never the real state handed back): everything it
    cannot know redistributed, a rite's face-down walls, graves, sealed choices and sub-deck order too. Whatever
    follows from public facts (who the game waits on, card counts) is the same in it by construction."""
    return _resample(state, seat, rng, full=True, keep=frozenset())


def resample_unrevealable(state: RitesState, seat: int, rng: random.Random) -> RitesState:
    """Redistribute only what no single move of another seat can show ``seat``: face-down cards stay put, and so do
    the other hands (and the pile's top, which a power-play draws first) when that move may reveal the Glass from
    Leng (which opens every hand, in its event), and while
    a rite is chosen the cards whose place choosing one shows (who hands a Dunwich twin over)."""
    return _resample(state, seat, rng, full=False, keep=_revealable(state, seat))


def _revealable(state: RitesState, seat: int) -> frozenset[int]:
    keep: set[int] = set()
    if isinstance(state.stage, Choosing):
        keep |= {c for rite in available_rites(state) for c in RITES[rite].revealed_by_begin}
    if any(_may_open_hands(state, c) for s in range(state.players) if s != seat for c in legal_commands(state, s)):
        # the hands, and the pile cards a power-play draws into one before its excavation shows it
        keep |= {c for s, hand in enumerate(state.table.hands) if s != seat for c in hand}
        keep |= set(state.table.pile[:power_plays.MOST_DRAWN])
    return frozenset(keep)


def _may_open_hands(state: RitesState, command: Command) -> bool:
    """May ``command`` open every hand: excavate the Glass from Leng from the deck, or invoke it again?"""
    in_deck = GLASS_FROM_LENG in state.artifact_deck
    if command.type in EXCAVATING:
        return in_deck
    if isinstance(command, InvokeArtifact):
        power = artifacts.power(command.artifact)
        return power == Power.OPEN_HANDS or (in_deck and power in (Power.EXCAVATE, Power.REPLACE_COVETED))
    return False


def _resample(state: RitesState, seat: int, rng: random.Random, full: bool, keep: frozenset[int]) -> RitesState:
    stage = state.stage
    if not isinstance(stage, Performing):
        return replace(state, table=resample_table(state.table, seat, rng, keep))
    rite = RITES[stage.rite_id]
    method = rite.resample if full else rite.resample_unrevealable or rite.resample
    table, rite_state = method(state.table, stage.rite, seat, rng, keep)
    return replace(state, table=table, stage=replace(stage, rite=rite_state))


def invariant(state: RitesState) -> None:
    table = state.table
    cards = [c for h in table.hands for c in h] + list(table.pile) + list(table.set_aside)
    cards += [c for c, _ in table.face_down]
    if table.trade is not None:
        cards.append(table.trade.card)
    if isinstance(state.stage, Performing):
        rite = RITES[state.stage.rite_id]
        cards += list(rite.cards(state.stage.rite))
        rite.invariant(table, state.stage.rite)
    if not isinstance(state.stage, (Claiming, Finished)):
        assert sorted(cards) == list(range(DECK_SIZE)), "every entity card is in exactly one place"
    arts = list(state.artifact_deck) + list(state.coveted) + list(state.thrown_out) + [a for c in state.captured for a in c]
    assert sorted(arts) == list(range(ARTIFACT_COUNT)), "every artifact is in exactly one place"
    assert list(state.artifact_deck) == sorted(state.artifact_deck)
    assert len(state.played) <= state.rites_total
