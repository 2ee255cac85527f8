"""Arkham Ritual in a terminal: the circle of seats with Sanity (0-7), every other seat's card face up in front
of it and yours face down, whose hand is on the table, the Active Player with the Deck, the card being passed
(its face only to whoever saw it), the Dummy players, the Doom Track when in play, and how the last round ended."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .base import UNKNOWN_CARD, Drawn, Seen, by_seat, card, index, listing, upfirst, words

CARD_FIELDS = {"card", "cards", "dummy_cards", "own_card", "deck_top", "discards"}


class ArkhamRitual:
    def __init__(self, entry: Mapping[str, Any]):
        data = entry.get("card_data") or {}
        self.cards = index(data.get("cards"), "id")
        self.max_sanity = data.get("max_sanity", 7)

    def card_name(self, field: str, value: Any) -> str | None:
        if field in CARD_FIELDS and isinstance(value, int) and value in self.cards:
            return str(self.cards[value]["name"])
        return None

    def card(self, number: Any, note: str | None = None) -> str:
        row = self.cards.get(number, {})
        return card(str(row.get("name", UNKNOWN_CARD)), f"{row.get('colour', '')} {words(row.get('kind', ''))}".strip(), note=note)

    def text(self, number: Any) -> str:
        row = self.cards.get(number, {})
        return f"{row.get('name', 'a card')}: {row.get('text', '')}"

    def table(self, seen: Seen) -> Drawn:
        v = seen.view
        mine = seen.seat
        on_table = set(v.get("hands_on_table") or [])
        facts = [f"Round {v.get('round', 1)}"]
        if v.get("active") is not None:
            facts.append(f"Active Player {seen.who(v['active'])} (holds the Deck)")
        facts.append(f"Deck {v.get('deck_size', 0)}")
        if v.get("doom_track"):
            facts.append(f"Doom {v.get('doom') or 0}/10")
        if v.get("deck_top_colour"):
            facts.append(f"top of the Deck {v['deck_top_colour']}")
        board = [" · ".join(facts)]
        passed = v.get("passed_card")
        if passed:
            holder = seen.who(passed.get("holder"))
            if passed.get("card") is not None:
                board.append(f"The card being passed, {self.card(passed['card'])}, is with {holder}.")
            else:
                colour = f" ({passed['colour']})" if passed.get("colour") else ""
                board.append(f"The card being passed, face down{colour}, is with {holder}.")
        if v.get("peeking"):
            board.append(upfirst(f"{seen.does(v['peeking'].get('seat'), 'look')} at the top of the Deck (Magical Orb)."))
        if v.get("dummies"):
            board.append("Dummy players: " + ", ".join(f"Dummy {i + 1} holds {self.card(c)}" for i, c in enumerate(v["dummies"])))
        if v.get("discards"):
            board.append("Discarded: " + ", ".join(self.card(c) for c in v["discards"]))
        last = v.get("last_round")
        if last:
            board.append(self.last_round(last, seen))

        def stats(n: int) -> list[str]:
            facts = [f"Sanity {by_seat(v.get('sanity'), n, 0)}/{self.max_sanity}"]
            if v.get("active") == n:
                facts.append("Active Player")
            if n in on_table:
                facts.append("hand on the table")
            if n in (v.get("cleared_of_great_old_one") or []):
                facts.append("cleared of the Great Old One")
            return facts

        def public(n: int) -> list[str]:
            held = by_seat(v.get("cards"), n)
            if n == mine:
                return []  # your own card is the hand's line
            return ["in front of them: " + (self.card(held) if held is not None else "a face-down card")]

        hand: list[str] = []
        texts: list[str] = []
        if mine is not None and v.get("phase") not in (None, "setting_up"):
            remembered = v.get("remembered") or {}
            own = remembered.get("own_card")
            held = by_seat(v.get("cards"), mine)
            if own is not None or (held is not None and seen.status != "active"):
                hand.append(self.card(own if own is not None else held, note="your card"))
                texts.append(self.text(own if own is not None else held))
            else:
                known = remembered.get("own_card_colour")
                hand.append("your card, face down" + (f" (its colour is {known})" if known else " (everyone sees it but you)"))
            if passed and passed.get("card") is not None and passed.get("holder") == mine:
                hand.append(self.card(passed["card"], note="the card you hold out"))
                texts.append(self.text(passed["card"]))
        return Drawn(board, stats, public, hand=hand, hand_title="In front of you", phase=self.phase(v, seen), texts=texts)

    def last_round(self, last: Mapping[str, Any], seen: Seen) -> str:
        held = ", ".join(f"{seen.who(n)} held {self.card(c)}" for n, c in enumerate(last.get("cards") or []) if c is not None)
        survived = last.get("survived") or []
        fates = listing(f"{seen.who(n)} {'survived' if ok else 'failed'}" for n, ok in enumerate(survived[: len(seen.names)]))
        return f"Round {last.get('round')} ended ({words(last.get('cause', ''))}): {held}." + (f" {upfirst(fates)}." if fates else "")

    def phase(self, v: Mapping[str, Any], seen: Seen) -> str:
        phase = v.get("phase")
        if phase == "drawing":
            return f"{seen.does(v.get('active'), 'draw')} from the Deck"
        if phase == "passing":
            return f"{seen.does(v.get('active'), 'pass')} the card to a Follower".replace("passs", "passes")
        if phase == "offered" and v.get("passed_card"):
            holder = v["passed_card"].get("holder")
            return f"{seen.does(holder, 'take')} the card or {'pass' if holder == seen.seat else 'passes'} it on"
        if phase == "peeking":
            return "the Magical Orb: keep the top card or remove it"
        return ""

    def move(self, c: Mapping[str, Any], seen: Seen) -> str | None:
        kind = c.get("type")
        if kind == "pass_card":
            return "Pass the card to nobody (no hand is left on the table)" if c.get("to") is None else f"Pass the card to {seen.name(c['to'])}"
        return {"draw_card": "Draw the top card of the Deck", "take_card": "Take the passed card (your own card is discarded face up)",
                "return_top_card": "Put the card back on top of the Deck", "remove_top_card": "Remove the card from the game"}.get(str(kind))
