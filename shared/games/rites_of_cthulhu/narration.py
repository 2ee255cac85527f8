"""Rites of Cthulhu's events in words: the overarching game's lines here, the table's and the shedding rites' in
``rites/narration.py``, and each rite's own in ``rites/<rite>/narration.py`` (registered on its ``Rite``)."""

from __future__ import annotations

import operator
from collections.abc import Mapping
from functools import reduce
from typing import Any

from shared.kernel.narration import Narrator, Text, Voice, clauses, named, say

from shared.games.rites_of_cthulhu.cards import CULT_NAMES, CULTS
from shared.games.rites_of_cthulhu.events import (ArtifactExcavated, ArtifactInvoked, ArtifactStolen, ArtifactTaken,
                                                  ArtifactThrownOut, ArtifactTraded, EntitiesShuffled,
                                                  FirstCardsRevealed, GameEnded, GameStarted, GrandCultistChosen,
                                                  GrandCultistPassed, HandsOpened, OpenerChanged, OverthrowClaimed,
                                                  PowerPlayMade, PowerPlaysForbidden, RanksInverted, RiteBegun,
                                                  RiteChosen, RiteFailed, RiteWon, TurnOrderReversed)
from shared.games.rites_of_cthulhu.power_plays import PowerPlay
from shared.games.rites_of_cthulhu.rites import RITES
from shared.games.rites_of_cthulhu.rites.base import RiteEnd
from shared.games.rites_of_cthulhu.rites.narration import TABLE_NARRATOR, artifact, card, cards, scores

Data = Mapping[str, Any]
WON_BY = {
    RiteEnd.EMPTIED_HAND: "with an empty hand",
    RiteEnd.FEWEST_CARDS: "holding the fewest cards",
    RiteEnd.OVERTHROW: "by an overthrow",
    RiteEnd.HOLDS_CTHULHU: "holding Cthulhu",
    RiteEnd.TWINS_FREED: "with the most wall points",
    RiteEnd.YELLOW_CARDS_TAKEN: "with the most yellow card points",
    RiteEnd.GRAVEYARD_LOOTED: "with the richest loot",
    RiteEnd.NO_GHOULS_LEFT: "with the richest loot",
}
POWER_PLAYS = {
    PowerPlay.BECOME_GRAND_CULTIST: "to become the Grand Cultist",
    PowerPlay.EXCAVATE_ARTIFACT: "to excavate an artifact",
    PowerPlay.STEAL_ARTIFACT: "to steal the Coveted Artifact",
}


def rite(rite_id: str) -> dict[str, Any]:
    return named("rite", rite_id, RITES[rite_id].title)


def _first_cards(data: Data, voice: Voice) -> Text:
    drew, args = clauses(("{seat} drew {card}", {"seat": voice.seat(seat), "card": card(drawn)})
                         for seat, drawn in enumerate(data["cards"]) if drawn >= 0)
    return say("To choose the Grand Cultist, " + drew, **args)


def _excavated(data: Data, voice: Voice) -> Text:
    if data["seat"] is None:
        return say("{artifact} was revealed as the Coveted Artifact", artifact=artifact(data["artifact"]))
    return say("{seat} excavated {artifact}", seat=voice.seat(data["seat"]), artifact=artifact(data["artifact"]))


def _hands_opened(data: Data, voice: Voice) -> Text:
    held, args = clauses((("{seat} held {cards}", {"seat": voice.seat(seat), "cards": cards(hand)})
                          for seat, hand in enumerate(data["hands"])), "; ")
    return say("Every hand was laid face up for the rest of the rite: " + held, **args)


def _power_play(data: Data, voice: Voice) -> Text:
    cult = named("cult", data["cult"], CULT_NAMES[CULTS.index(data["cult"])])
    return say("{seat} showed cards of the {cult} " + POWER_PLAYS[PowerPlay(data["power"])], seat=voice.seat(data["seat"]),
               cult=cult)


def _failed(data: Data, voice: Voice) -> Text:
    if data["reason"] == RiteEnd.GRAND_CULTIST_SEIZED and data["seat"] is not None:
        return say("{seat} seized the title of Grand Cultist: nobody won the rite", seat=voice.seat(data["seat"]))
    return say("Nobody won the rite: Cthulhu was never captured")


GAME_NARRATOR = Narrator({
    GameStarted.TYPE: lambda data, voice: say("{players} cultists gathered to perform {rites} rites",
                                              players=data["players"], rites=data["rites_total"]),
    FirstCardsRevealed.TYPE: _first_cards,
    GrandCultistChosen.TYPE: lambda data, voice: say("{seat} revealed the highest elder sign and became the Grand Cultist",
                                                     seat=voice.seat(data["seat"])),
    GrandCultistPassed.TYPE: lambda data, voice: say("{seat} became the Grand Cultist", seat=voice.seat(data["seat"])),
    EntitiesShuffled.TYPE: lambda data, voice: say("The Grand Cultist shuffled the entities deck"),
    RiteChosen.TYPE: lambda data, voice: say("The Grand Cultist chose {rite}", rite=rite(data["rite"])),
    RiteBegun.TYPE: lambda data, voice: say("{rite} began", rite=rite(data["rite"])),
    ArtifactExcavated.TYPE: _excavated,
    TurnOrderReversed.TYPE: lambda data, voice: say("Turn order reversed: it runs "
                                                    + ("clockwise" if data["direction"] > 0 else "counter-clockwise")
                                                    + " this rite"),
    HandsOpened.TYPE: _hands_opened,
    RanksInverted.TYPE: lambda data, voice: say("Ranks were inverted: the lowest elder sign wins this rite"),
    PowerPlaysForbidden.TYPE: lambda data, voice: say("Power-plays were forbidden for the rest of the rite"),
    OpenerChanged.TYPE: lambda data, voice: say("{seat} took the Grand Cultist's first turn and privilege",
                                                seat=voice.seat(data["seat"])),
    ArtifactInvoked.TYPE: lambda data, voice: say("{seat} invoked {artifact}" + (" once more" if data["second"] else ""),
                                                  seat=voice.seat(data["seat"]), artifact=artifact(data["artifact"])),
    ArtifactTaken.TYPE: lambda data, voice: say("{seat} took {artifact} from {other}", seat=voice.seat(data["seat"]),
                                                artifact=artifact(data["artifact"]), other=voice.seat(data["from_seat"])),
    ArtifactThrownOut.TYPE: lambda data, voice: say("{artifact} was thrown out of the game",
                                                    artifact=artifact(data["artifact"])),
    ArtifactStolen.TYPE: lambda data, voice: say("{seat} stole the Coveted {artifact}", seat=voice.seat(data["seat"]),
                                                 artifact=artifact(data["artifact"])),
    PowerPlayMade.TYPE: _power_play,
    OverthrowClaimed.TYPE: lambda data, voice: say("{seat} completed an overthrow", seat=voice.seat(data["seat"])),
    ArtifactTraded.TYPE: lambda data, voice: say("{seat} traded {gave} for {took}", seat=voice.seat(data["seat"]),
                                                 gave=artifact(data["gave"]), took=artifact(data["took"])),
    RiteWon.TYPE: lambda data, voice: say("{seat} won the rite " + WON_BY[RiteEnd(data["reason"])],
                                          seat=voice.seat(data["seat"])),
    RiteFailed.TYPE: _failed,
    GameEnded.TYPE: lambda data, voice: scores("Every rite was performed and the artifacts counted", data["scores"], voice),
})

NARRATOR = reduce(operator.or_, (r.narrator for r in RITES.values()), GAME_NARRATOR | TABLE_NARRATOR)
"""Every event of the game in words: the overarching game's, the table's and every rite's."""
