"""The Great Old One's events in words: one line per event type, from the event as the reader may see it (a card
drawn, called, taken or given is named only to the seats that saw it; the others read "a card")."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from shared.kernel.narration import Narrator, Text, Voice, changed_hands, named, say

from shared.games.great_old_one.cards import CARDS, CONNECTIONS, HAND_SIZE, STORIES
from shared.games.great_old_one.events import (CallPassed, CardDrawn, CardGiven, CardsDealt, CardTaken,
                                               CentreRevealed, CultistPlayed, DeckShuffled, DrawSkipped,
                                               FinalRoundBegan, GameEnded, GameStarted, HorrorPlayed, HorrorReturned,
                                               HorrorTaken, OpeningFinished, PairPlayed, PhaseBegan, RecruitPassed,
                                               SignPlayed, StoryCalled, StorySwapped, TurnBegan, TurnEnded,
                                               WardRaised)
from shared.games.great_old_one.state import EndReason

Data = Mapping[str, Any]
STORY_NAMES = {key: title for key, title, _ in STORIES}
CONNECTION_NAMES = {key: name for key, name, _ in CONNECTIONS}
ENDINGS = {EndReason.SEVENTH_PAIR: "a seventh pair was played", EndReason.DECK_EXHAUSTED: "the deck ran out"}


def card(card_id: int) -> dict[str, Any]:
    return named("card", card_id, CARDS[card_id]["name"])


def cards(ids: Sequence[int]) -> list[dict[str, Any]]:
    return [card(c) for c in ids]


def _started(data: Data, voice: Voice) -> Text:
    return say("{players} players sat down; the youngest, {seat}, went first", players=data["players"],
               seat=voice.seat(data["first_player"]))


def _dealt(data: Data, voice: Voice) -> Text:
    if "cards" in data:
        return say("{seat} received {cards}", seat=voice.seat(data["seat"]), cards=cards(data["cards"]))
    return say("{seat} received {count} cards", seat=voice.seat(data["seat"]), count=HAND_SIZE)


def _pair(data: Data, voice: Voice) -> Text:
    connections = [named("connection", key, CONNECTION_NAMES[key]) for key in data["connections"]]
    kind = "a Matched pair" if data["matched"] else "a Linked pair"
    return say("{seat} played " + kind + ", {cards}, naming {connections}", seat=voice.seat(data["seat"]),
               cards=cards(data["cards"]), connections=connections)


def _drew(data: Data, voice: Voice) -> Text:
    if "card" in data:
        return say("{seat} drew {card}", seat=voice.seat(data["seat"]), card=card(data["card"]))
    return say("{seat} drew a card", seat=voice.seat(data["seat"]))


def _called(data: Data, voice: Voice) -> Text:
    args = {"seat": voice.seat(data["seat"]), "target": voice.seat(data["target"]),
            "story": named("story", data["story"], STORY_NAMES[data["story"]])}
    if data["warded"]:
        return say("{seat} called {story} from {target}, but that hand was warded", **args)
    if data["handed"]:
        return say("{seat} called {story} and {target} handed it over", **args)
    if "card" in data:
        return say("{seat} called {story}; {target} held none, so {seat} took {card} at random", card=card(data["card"]),
                   **args)
    return say("{seat} called {story}; {target} held none, so {seat} took a card at random", **args)


def _horror_taken(data: Data, voice: Voice) -> Text:
    if data["from_seat"] == data["seat"]:
        return say("{seat} took {card} back from the play area into the hand", seat=voice.seat(data["seat"]),
                   card=card(data["card"]))
    return say("{seat} took {card} from {owner}'s play area", seat=voice.seat(data["seat"]), card=card(data["card"]),
               owner=voice.seat(data["from_seat"]))


NARRATOR = Narrator({
    GameStarted.TYPE: _started,
    DeckShuffled.TYPE: lambda data, voice: say("The deck was shuffled"),
    CardsDealt.TYPE: _dealt,
    CentreRevealed.TYPE: lambda data, voice: say("{cards} were turned face up in the centre", cards=cards(data["cards"])),
    PairPlayed.TYPE: _pair,
    OpeningFinished.TYPE: lambda data, voice: say("{seat} finished the opening pairs", seat=voice.seat(data["seat"])),
    TurnBegan.TYPE: lambda data, voice: say("{seat} began turn {turn}", seat=voice.seat(data["seat"]),
                                            turn=data["turn_number"]),
    PhaseBegan.TYPE: lambda data, voice: say("The {phase} phase began", phase=data["phase"].capitalize()),
    CardDrawn.TYPE: _drew,
    DrawSkipped.TYPE: lambda data, voice: say("{seat} found the deck empty and drew nothing", seat=voice.seat(data["seat"])),
    StoryCalled.TYPE: _called,
    CallPassed.TYPE: lambda data, voice: say("{seat} passed the Call: no opponent held a card", seat=voice.seat(data["seat"])),
    StorySwapped.TYPE: lambda data, voice: say("{seat} switched {card} for {centre} from the centre",
                                               seat=voice.seat(data["seat"]), card=card(data["card"]),
                                               centre=card(data["centre_card"])),
    RecruitPassed.TYPE: lambda data, voice: say("{seat} could neither switch nor draw", seat=voice.seat(data["seat"])),
    HorrorPlayed.TYPE: lambda data, voice: say("{seat} played the Horror {card}", seat=voice.seat(data["seat"]),
                                               card=card(data["card"])),
    CultistPlayed.TYPE: lambda data, voice: say("{seat} played {card}", seat=voice.seat(data["seat"]), card=card(data["card"])),
    HorrorTaken.TYPE: _horror_taken,
    HorrorReturned.TYPE: lambda data, voice: say("{card} went back to {seat}'s hand", seat=voice.seat(data["seat"]),
                                                 card=card(data["card"])),
    SignPlayed.TYPE: lambda data, voice: say("{seat} played {card}", seat=voice.seat(data["seat"]), card=card(data["card"])),
    WardRaised.TYPE: lambda data, voice: say("{seat} warded the hand until the next turn", seat=voice.seat(data["seat"])),
    CardTaken.TYPE: changed_hands("{seat} took {card} at random from {other}", "from_seat", "card", card),
    CardGiven.TYPE: changed_hands("{seat} gave {card} to {other}", "to_seat", "card", card),
    FinalRoundBegan.TYPE: lambda data, voice: say("{seat} played a seventh pair: the final round began",
                                                  seat=voice.seat(data["seat"])),
    TurnEnded.TYPE: lambda data, voice: say("{seat} ended the turn", seat=voice.seat(data["seat"])),
    GameEnded.TYPE: lambda data, voice: say("The game ended ({why}) and every hand was revealed",
                                            why=ENDINGS[EndReason(data["reason"])]),
})
