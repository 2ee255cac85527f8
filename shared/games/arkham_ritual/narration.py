"""Arkham Ritual's events in words: one line per event type, from the event as the reader may see it (a held card
faces the others, so its holder reads "a card"; a card drawn or looked at is named only to the seat that saw it)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from shared.kernel.narration import Narrator, Text, Voice, clauses, named, plural, say

from shared.games.arkham_ritual import cards as C
from shared.games.arkham_ritual.events import (ActivePlayerChosen, CardDrawn, CardPassed, CardTaken, CardUnclaimed,
                                               DeckFormed, DeckPassed, DoomAdvanced, DummyDealt, GameEnded,
                                               GameStarted, GateFoundNoGreatOldOne, GreatOldOneAwakened, HandDealt,
                                               RitualJudged, RoundEnded, RoundStarted, SanityChanged, TopCardRemoved,
                                               TopCardReturned, TopCardSeen)
from shared.games.arkham_ritual.rules import FAILED_RITUAL, FirstActive
from shared.games.arkham_ritual.state import RoundEnd

Data = Mapping[str, Any]
BY_KEY = {card["key"]: card["name"] for card in C.CARDS}
ROUND_ENDS = {
    RoundEnd.ALL_PASSED: "nobody took the card",
    RoundEnd.ELDER_SIGN: "the Elder Sign was discarded",
    RoundEnd.GREAT_OLD_ONE: "a Gate found a Great Old One",
    RoundEnd.DECK_EMPTY: "the Deck ran out",
}


def card(card_id: int) -> dict[str, Any]:
    return named("card", card_id, C.name(card_id))


def dummy(index: int) -> dict[str, Any]:
    return named("dummy", index, f"Dummy {index + 1}")


def participant(index: int, players: int, voice: Voice) -> dict[str, Any]:
    """A seat, or a Dummy player (numbered after the seats)."""
    return voice.seat(index) if index < players else dummy(index - players)


def _started(data: Data, voice: Voice) -> Text:
    template = "{players} players began with {sanity} Sanity each"
    if data["dummies"]:
        template += " and " + plural(data["dummies"], "a Dummy player", "{dummies} Dummy players")
    if data["doom_track"]:
        template += ", the Doom Track in play"
    return say(template, players=data["players"], sanity=data["sanity"], dummies=data["dummies"])


def _dealt(data: Data, voice: Voice) -> Text:
    seat = voice.seat(data["seat"])
    if "card" in data:
        return say("{seat} received {card}, facing the table", seat=seat, card=card(data["card"]))
    return say("{seat} received a card, facing the others", seat=seat)


def _active(data: Data, voice: Voice) -> Text:
    seat = voice.seat(data["seat"])
    if data["rule"] == FirstActive.RANDOM:
        return say("The draw made {seat} the Active Player", seat=seat)
    return say("{seat}, lowest in Sanity, became the Active Player", seat=seat)


def _drew(data: Data, voice: Voice) -> Text:
    if "card" in data:
        return say("{seat} drew {card}", seat=voice.seat(data["seat"]), card=card(data["card"]))
    return say("{seat} drew the top card of the Deck", seat=voice.seat(data["seat"]))


def _took(data: Data, voice: Voice) -> Text:
    args = {"seat": voice.seat(data["seat"]), "discarded": card(data["discarded"])}
    if "card" in data:
        return say("{seat} discarded {discarded} and took {card}", card=card(data["card"]), **args)
    return say("{seat} discarded {discarded} and took the passed card", **args)


def _seen(data: Data, voice: Voice) -> Text:
    args: dict[str, Any] = {"seat": voice.seat(data["seat"]), "by": BY_KEY[data["by"]]}
    template = "{seat} looked at the top card of the Deck ({by})"
    if "card" in data:
        template, args["card"] = template + ": {card}", card(data["card"])
    if data.get("sane") is not None:
        template += "; it was sane" if data["sane"] else "; it was cursed"
    return say(template, **args)


def _removed(data: Data, voice: Voice) -> Text:
    if "card" in data:
        return say("{seat} removed {card} from the game, face down", seat=voice.seat(data["seat"]), card=card(data["card"]))
    return say("{seat} removed the top card from the game, face down", seat=voice.seat(data["seat"]))


def _sanity(data: Data, voice: Voice) -> Text:
    change, cause = data["change"], data["cause"]
    why = "failing the ritual" if cause == FAILED_RITUAL else BY_KEY.get(cause, cause.replace("_", " "))
    verb = "gained" if change > 0 else "lost"
    return say("{seat} " + verb + " {change} Sanity ({cause}): {sanity} left", seat=voice.seat(data["seat"]),
               change=abs(change), cause=why, sanity=data["sanity"])


def _round_ended(data: Data, voice: Voice) -> Text:
    held = [*data["cards"], *data["dummy_cards"]]
    players = len(data["cards"])
    shown, args = clauses(("{who} held {card}", {"who": participant(index, players, voice), "card": card(held_card)})
                          for index, held_card in enumerate(held) if held_card is not None)
    return say("Round {round} ended ({cause}): " + shown, round=data["round"], cause=ROUND_ENDS[RoundEnd(data["cause"])],
               **args)


def _judged(data: Data, voice: Voice) -> Text:
    survived = data["survived"]  # the seats', then the Dummy players'
    players = min(len(voice.names), len(survived)) or len(survived)
    judged = [participant(i, players, voice) for i in range(len(survived))]
    alive = [who for who, ok in zip(judged, survived) if ok]
    fallen = [who for who, ok in zip(judged, survived) if not ok]
    if not fallen:
        return say("Everyone survived the ritual")
    if not alive:
        return say("Nobody survived the ritual (normal loss: {loss} Sanity)", loss=data["loss"])
    return say("{alive} survived the ritual; {fallen} did not (normal loss: {loss} Sanity)", alive=alive,
               fallen=fallen, loss=data["loss"])


def _awakened(data: Data, voice: Voice) -> Text:
    holder = voice.seat(data["holder"]) if data["holder"] is not None else dummy(data["dummy"])
    return say("A Gate awakened {card}, held by {holder}", card=card(data["card"]), holder=holder)


def _ended(data: Data, voice: Voice) -> Text:
    if not data["winners"]:
        return say("A seat lost its last Sanity: nobody won")
    return say("A seat lost its last Sanity: {winners} won", winners=voice.seats(data["winners"]))


NARRATOR = Narrator({
    GameStarted.TYPE: _started,
    RoundStarted.TYPE: lambda data, voice: say("Round {round} began", round=data["round"]),
    HandDealt.TYPE: _dealt,
    DummyDealt.TYPE: lambda data, voice: say("{dummy} received {card}, face up", dummy=dummy(data["dummy"]),
                                             card=card(data["card"])),
    DeckFormed.TYPE: lambda data, voice: say("The other {size} cards formed the Deck", size=data["size"]),
    ActivePlayerChosen.TYPE: _active,
    DeckPassed.TYPE: lambda data, voice: say("The Deck passed from {seat} to {to}", seat=voice.seat(data["seat"]),
                                             to=voice.seat(data["to"])),
    CardDrawn.TYPE: _drew,
    CardPassed.TYPE: lambda data, voice: say("{seat} passed the card face down to {to}", seat=voice.seat(data["seat"]),
                                             to=voice.seat(data["to"])),
    CardTaken.TYPE: _took,
    CardUnclaimed.TYPE: lambda data, voice: say("Nobody took the card: {seat} discarded {card} without effect",
                                                seat=voice.seat(data["seat"]), card=card(data["card"])),
    GateFoundNoGreatOldOne.TYPE: lambda data, voice: say("{seat} discarded a Gate, but no Great Old One was held",
                                                         seat=voice.seat(data["seat"])),
    TopCardSeen.TYPE: _seen,
    TopCardReturned.TYPE: lambda data, voice: say("{seat} put the card back on top of the Deck", seat=voice.seat(data["seat"])),
    TopCardRemoved.TYPE: _removed,
    SanityChanged.TYPE: _sanity,
    RoundEnded.TYPE: _round_ended,
    RitualJudged.TYPE: _judged,
    GreatOldOneAwakened.TYPE: _awakened,
    DoomAdvanced.TYPE: lambda data, voice: say("The Doom Track advanced to {spot}", spot=data["spot"]),
    GameEnded.TYPE: _ended,
})
