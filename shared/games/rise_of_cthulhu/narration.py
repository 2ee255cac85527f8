"""Rise of Cthulhu's events in words: one line per event type, from the event as the reader may see it (a card drawn
from the Cultist, Monster or Artifact Deck is named only to its drawer; the opponent reads "a card")."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from shared.kernel.narration import Line, Narrator, Text, Voice, named, plural, say

from shared.games.rise_of_cthulhu import cards as C
from shared.games.rise_of_cthulhu.events import (ArtifactDrawn, ArtifactPlayed, CardDrawn, CardsDealt, CultistCrossed,
                                                 CultistDestroyed, CultistMoved, CultistPlayed, CultistSentToValley,
                                                 DrawsOwed, ExtraActionGained, GameSetUp, HunterMoved, MonsterDrawn,
                                                 MonsterPlayed, OldOneAwakened, PowerResolved, TurnPassed,
                                                 ValleyCardTaken, ValleyPlayed)
from shared.games.rise_of_cthulhu.rules import HAND_SIZE

Data = Mapping[str, Any]
CAUSES = {"valley": "a play on the Valley", "colour_set": "a colour set", "dark_hunter": "the Dark Hunter"}


def name(card_id: str) -> str:
    """A card's name: a Cultist by its colour and number ("Green 7"), any other card by its printed name."""
    if card_id in C.CULTISTS:
        return f"{C.colour(card_id).capitalize()} {C.number(card_id)}"
    if card_id == C.OLD_ONE_SLOT:
        return "an Old One"
    for kind in (C.OLD_ONES, C.MONSTERS, C.ARTIFACTS, C.LOCATION_CARDS):
        if card_id in kind:
            return str(kind[card_id]["name"])
    raise KeyError(card_id)


def card(card_id: str) -> dict[str, Any]:
    return named("card", card_id, name(card_id))


def cards(ids: Sequence[str]) -> list[dict[str, Any]]:
    return [card(c) for c in ids]


def place(location: str) -> dict[str, Any]:
    return named("location", location, name(location))


def cause(by: str) -> str:
    """What moved the Dark Hunter or destroyed a card: a play, a set, the Hunter, or a card by its name."""
    return CAUSES.get(by) or name(by)


def _set_up(data: Data, voice: Voice) -> Text:
    return say("The Cultist Deck was shuffled with three Old Ones asleep in it; {valley} opened the Valley",
               valley=cards(data["valley"]))


def _dealt(data: Data, voice: Voice) -> Text:
    if "cards" in data:
        return say("{seat} received {cards}", seat=voice.seat(data["seat"]), cards=cards(data["cards"]))
    return say("{seat} received {count} cards", seat=voice.seat(data["seat"]), count=HAND_SIZE)


def _drew(data: Data, voice: Voice) -> Text:
    where = " from the Valley" if data["source"] == "valley" else ""
    if "card" in data:
        return say("{seat} drew {card}" + where, seat=voice.seat(data["seat"]), card=card(data["card"]))
    return say("{seat} drew a card from the Cultist Deck", seat=voice.seat(data["seat"]))


def _secret_draw(deck: str) -> Line:
    def line(data: Data, voice: Voice) -> Text:
        if "card" in data:
            return say("{seat} drew the " + deck + " {card}", seat=voice.seat(data["seat"]), card=card(data["card"]))
        return say("{seat} drew " + ("an " if deck[0] in "AEIOU" else "a ") + deck + " card", seat=voice.seat(data["seat"]))

    return line


def _awakened(data: Data, voice: Voice) -> Text:
    args = {"seat": voice.seat(data["seat"]), "old_one": card(data["old_one"]), "location": place(data["location"])}
    template = "{seat} drew an Old One: {old_one} woke at {location}"
    if data["influencer"] is not None:
        template, args["influencer"] = template + " under {influencer}'s influence", voice.seat(data["influencer"])
    if data["hunter_returned"]:
        template += "; the Dark Hunter went home"
    return say(template, **args)


def _played(data: Data, voice: Voice) -> Text:
    free = "" if data["action"] else " as a free play"
    return say("{seat} played {card} at {location}" + free, seat=voice.seat(data["seat"]), card=card(data["card"]),
               location=place(data["location"]))


def _hunter(data: Data, voice: Voice) -> Text:
    if data["to"] is None:
        return say("The Dark Hunter went home ({cause})", cause=cause(data["by"]))
    return say("The Dark Hunter moved to {location} ({cause})", location=place(data["to"]), cause=cause(data["by"]))


def _monster(data: Data, voice: Voice) -> Text:
    stays = ", where it stays" if data["stays"] else ""
    return say("{seat} played {card} at {location}" + stays, seat=voice.seat(data["seat"]), card=card(data["card"]),
               location=place(data["location"]))


def _owed(data: Data, voice: Voice) -> Text:
    return say(plural(data["count"], "One more Cultist Deck draw for {seat}", "{count} more Cultist Deck draws for {seat}"),
               seat=voice.seat(data["seat"]), count=data["count"])


def _turn(data: Data, voice: Voice) -> Text:
    must = ", which must include a Cultist Deck draw" if data["must_draw"] else ""
    return say("{seat} began a turn" + must, seat=voice.seat(data["seat"]))


NARRATOR = Narrator({
    GameSetUp.TYPE: _set_up,
    CardsDealt.TYPE: _dealt,
    CardDrawn.TYPE: _drew,
    OldOneAwakened.TYPE: _awakened,
    PowerResolved.TYPE: lambda data, voice: say("{seat} resolved the power of {old_one}", seat=voice.seat(data["seat"]),
                                                old_one=card(data["old_one"])),
    DrawsOwed.TYPE: _owed,
    CultistPlayed.TYPE: _played,
    ValleyPlayed.TYPE: lambda data, voice: say("{seat} played {card} on the Valley", seat=voice.seat(data["seat"]),
                                               card=card(data["card"])),
    HunterMoved.TYPE: _hunter,
    CultistDestroyed.TYPE: lambda data, voice: say("{cause} destroyed {seat}'s {card} at {location}",
                                                   cause=cause(data["by"]), seat=voice.seat(data["seat"]),
                                                   card=card(data["card"]), location=place(data["location"])),
    MonsterDrawn.TYPE: _secret_draw("Monster"),
    ArtifactDrawn.TYPE: _secret_draw("Artifact"),
    MonsterPlayed.TYPE: _monster,
    ArtifactPlayed.TYPE: lambda data, voice: say("{seat} played the Artifact {card}", seat=voice.seat(data["seat"]),
                                                 card=card(data["card"])),
    CultistMoved.TYPE: lambda data, voice: say("The Mi-Go moved {seat}'s {card} from {source} to {location}",
                                               seat=voice.seat(data["seat"]), card=card(data["card"]),
                                               source=place(data["from_location"]), location=place(data["to_location"])),
    CultistCrossed.TYPE: lambda data, voice: say("The Star Vampire brought {card} at {location} over to {seat}'s side",
                                                 seat=voice.seat(data["seat"]), card=card(data["card"]),
                                                 location=place(data["location"])),
    CultistSentToValley.TYPE: lambda data, voice: say("The Nightgaunt put {seat}'s {card} from {location} on top of the Valley",
                                                      seat=voice.seat(data["seat"]), card=card(data["card"]),
                                                      location=place(data["location"])),
    ValleyCardTaken.TYPE: lambda data, voice: say("{seat} took {card} from the Valley", seat=voice.seat(data["seat"]),
                                                  card=card(data["card"])),
    ExtraActionGained.TYPE: lambda data, voice: say("{seat} gained an extra action", seat=voice.seat(data["seat"])),
    TurnPassed.TYPE: _turn,
})
