"""The Hound's events in words (a peeked grave and a sealed choice are named only to the seats that saw them; the
others read that a grave was peeked at, or a choice sealed)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from shared.kernel.narration import Narrator, Text, Voice, clauses, say

from shared.games.rites_of_cthulhu.rites.narration import card, cards, grave, scores
from shared.games.rites_of_cthulhu.rites.the_hound.cards import Choice, Shown
from shared.games.rites_of_cthulhu.rites.the_hound.events import (DigCleared, DigTied, DummiesDiscarded,
                                                                  DummyReturned, GhoulKept, GhoulMoved, GhoulPlaced,
                                                                  GraveDugUp, GraveLooted, GravePeeked,
                                                                  GraveyardEmptied, GraveyardLaid, HenchmanPsychedOut,
                                                                  HenchmanSealed, HenchmenRevealed, HoundTurnBegan,
                                                                  PeekDeclined, TurnPassedWithoutGhoul)

Data = Mapping[str, Any]
SHOWED = {Shown.HENCHMAN: "{seat} showed the henchman {card}", Shown.FACE_DOWN: "{seat} showed a face-down dummy",
          Shown.NOTHING: "{seat} showed nothing"}


def _peeked(data: Data, voice: Voice) -> Text:
    args = {"seat": voice.seat(data["seat"]), "grave": grave(data["grave"])}
    if "card" in data:
        return say("{seat} peeked at grave {grave}: {card}", card=card(data["card"]), **args)
    return say("{seat} peeked at grave {grave}", **args)


def _sealed(data: Data, voice: Voice) -> Text:
    args = {"seat": voice.seat(data["seat"])}
    choice, held = data.get("choice"), data.get("card")
    if choice == Choice.NOTHING:
        return say("{seat} sealed nothing", **args)
    if choice is not None and held is not None:
        kind = "henchman" if choice == Choice.HENCHMAN else "dummy"
        return say("{seat} sealed {card} as a " + kind, card=card(held), **args)
    if held is not None:
        return say("{seat} sealed {card} face down", card=card(held), **args)
    return say("{seat} sealed a choice face down", **args)


def _revealed(data: Data, voice: Voice) -> Text:
    showed, args = clauses(((SHOWED[Shown(shown["shown"])], {"seat": voice.seat(shown["seat"]),
                                                              **({"card": card(shown["card"])} if "card" in shown else {})})
                            for shown in data["shown"]), " and ")
    return say("At grave {grave}, " + showed, grave=grave(data["grave"]), **args)


def _returned(data: Data, voice: Voice) -> Text:
    if "card" in data:
        return say("{seat} took the dummy {card} back", seat=voice.seat(data["seat"]), card=card(data["card"]))
    return say("{seat} took the dummy back unseen", seat=voice.seat(data["seat"]))


def _tally(data: Data, voice: Voice, template: str, **args: Any) -> Text:
    """``template``, then what each digging partner counted."""
    counted, totals = clauses(("{partner} counted {total}", {"partner": voice.seat(seat), "total": total})
                              for seat, total in data["totals"])
    return say(template + "; " + counted, **args, **totals)


NARRATOR = Narrator({
    GraveyardLaid.TYPE: lambda data, voice: say("{count} graves were laid face down", count=data["count"]),
    GravePeeked.TYPE: _peeked,
    PeekDeclined.TYPE: lambda data, voice: say("{seat} did not peek", seat=voice.seat(data["seat"])),
    TurnPassedWithoutGhoul.TYPE: lambda data, voice: say("{seat} could send no ghoul and passed", seat=voice.seat(data["seat"])),
    HoundTurnBegan.TYPE: lambda data, voice: say("{seat} began a turn", seat=voice.seat(data["seat"])),
    GhoulPlaced.TYPE: lambda data, voice: say("{seat} sent {card} as a ghoul to grave {grave}", seat=voice.seat(data["seat"]),
                                              card=card(data["card"]), grave=grave(data["grave"])),
    GhoulKept.TYPE: lambda data, voice: say("{seat} left the ghoul at grave {grave}", seat=voice.seat(data["seat"]),
                                            grave=grave(data["grave"])),
    GhoulMoved.TYPE: lambda data, voice: say("{seat} moved the ghoul {card} from grave {source} to grave {grave}",
                                             seat=voice.seat(data["seat"]), card=card(data["card"]),
                                             source=grave(data["source"]), grave=grave(data["grave"])),
    GraveDugUp.TYPE: lambda data, voice: say("{partners} dug up grave {grave}: {card}", partners=voice.seats(data["partners"]),
                                             grave=grave(data["grave"]), card=card(data["card"])),
    HenchmanSealed.TYPE: _sealed,
    HenchmenRevealed.TYPE: _revealed,
    HenchmanPsychedOut.TYPE: lambda data, voice: say("A dummy psyched out {seat}'s henchman {card}, which was discarded",
                                                     seat=voice.seat(data["seat"]), card=card(data["card"])),
    DummiesDiscarded.TYPE: lambda data, voice: say("Both dummies, {cards}, were discarded", cards=cards(data["cards"])),
    DummyReturned.TYPE: _returned,
    GraveLooted.TYPE: lambda data, voice: _tally(data, voice, "{seat} looted grave {grave} and took {card}",
                                                 seat=voice.seat(data["seat"]), grave=grave(data["grave"]),
                                                 card=card(data["card"])),
    DigTied.TYPE: lambda data, voice: _tally(data, voice, "The dig at grave {grave} tied: {card} stayed face up",
                                             grave=grave(data["grave"]), card=card(data["card"])),
    DigCleared.TYPE: lambda data, voice: say("The ghouls and henchmen at grave {grave} were discarded: {cards}",
                                             grave=grave(data["grave"]), cards=cards(data["cards"])),
    GraveyardEmptied.TYPE: lambda data, voice: scores("Every grave was looted", data["points"], voice),
})
