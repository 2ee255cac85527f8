"""The Great Old One in a terminal: the centre of three Story cards, each seat's area of pairs (matched or linked,
by connection), its Horror cards, the Cultist and the ward, scores and hand sizes; Signs as the holder sees them
(in its own hand). Story cards carry their year."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .base import UNKNOWN_CARD, Drawn, Seen, by_seat, card, index, listing, plural, words

CARD_FIELDS = {"card", "cards", "centre_card", "chosen", "take", "centre", "hand", "returned", "horrors"}
KINDS = {"story": "story", "horror": "Horror", "sign": "Sign", "cultist": "the Cultist", "great_old_one": "the Great Old One"}


class GreatOldOne:
    def __init__(self, entry: Mapping[str, Any]):
        data = entry.get("card_data") or {}
        self.cards = index(data.get("cards"), "id")
        self.stories = index(data.get("stories"), "key")
        self.connections = index(data.get("connections"), "key")

    def name(self, number: Any) -> str:
        return str(self.cards.get(number, {}).get("name", UNKNOWN_CARD))

    def connection(self, key: Any) -> str:
        return str(self.connections.get(key, {}).get("name", words(key)))

    def card_name(self, field: str, value: Any) -> str | None:
        if field in CARD_FIELDS and isinstance(value, int) and value in self.cards:
            return self.name(value)
        if field == "story" and value in self.stories:
            return str(self.stories[value]["name"])
        return None

    def card(self, number: Any) -> str:
        row = self.cards.get(number, {})
        kind = row.get("kind")
        if kind == "story":
            return card(self.name(number), row.get("year"))
        label = KINDS.get(str(kind), words(kind or ""))
        return card(self.name(number), None if label.lower() == self.name(number).lower() else label)

    def cards_words(self, numbers: list[Any], empty: str = "none") -> str:
        return ", ".join(self.card(n) for n in numbers) or empty

    def text(self, number: Any) -> str:
        row = self.cards.get(number, {})
        if row.get("kind") == "story":
            return f"{self.name(number)} ({row.get('year')}): {listing(self.connection(k) for k in row.get('connections') or [])}"
        connection = f"{self.connection(row['connection'])}. " if row.get("connection") else ""
        return f"{self.name(number)}: {connection}{row.get('text', '')}"

    def table(self, seen: Seen) -> Drawn:
        v = seen.view
        seats = v.get("seats") or []
        facts = [f"Turn {v.get('turn_number', 1)}", *([f"{words(v['phase']).capitalize()} phase"] if v.get("phase") not in (None, "over") else []),
                 f"{plural(v.get('pairs_to_end', 7), 'pair')} end the game", f"Deck {v.get('deck_size', 0)}"]
        if v.get("final_round"):
            facts.append("the final round")
        board = [" · ".join(facts), "The centre: " + self.cards_words(v.get("centre") or [], "empty")]
        if v.get("removed"):
            board.append("Removed from the game: " + self.cards_words(v["removed"]))

        def stats(n: int) -> list[str]:
            s = by_seat(seats, n, {}) or {}
            facts = [f"Score {s.get('score', 0)}", plural(s.get("hand_size", 0), "card"), plural(len(s.get("pairs") or []), "pair")]
            if s.get("warded"):
                facts.append("warded")
            if s.get("cultist"):
                facts.append("holds the Cultist")
            return facts

        def public(n: int) -> list[str]:
            s = by_seat(seats, n, {}) or {}
            lines = []
            if s.get("hand") is not None and n != seen.seat:
                lines.append("hand: " + self.cards_words(s["hand"], "empty"))
            for pair in s.get("pairs") or []:
                how = "matched" if pair.get("matched") else "linked"
                lines.append(f"pair, {how} by {listing(self.connection(k) for k in pair.get('connections') or [])}: "
                             + " and ".join(self.card(c) for c in pair.get("cards") or []))
            if s.get("horrors"):
                lines.append("Horrors: " + self.cards_words(s["horrors"]))
            return lines

        hand = v.get("hand")
        if hand is None and seen.seat is not None:
            hand = (by_seat(seats, seen.seat, {}) or {}).get("hand")
        phase = f"{words(v['phase'])} phase" if v.get("phase") not in (None, "over") else ""
        return Drawn(board, stats, public, hand=[self.cards_words(hand)] if hand else [], phase=phase,
                     texts=[self.text(n) for n in hand or []])

    def move(self, c: Mapping[str, Any], seen: Seen) -> str | None:
        kind = c.get("type")
        target = f" at {seen.name(c['target'])}" if c.get("target") is not None else ""
        chosen = f", choosing {self.name(c['chosen'])}" if c.get("chosen") is not None else ""
        centre = f" for {self.name(c['centre'])} in the centre" if c.get("centre") is not None else ""
        if kind == "play_pair":
            first, second = c["cards"][0], c["cards"][1]
            take = f", taking {self.name(c['take'])}" if c.get("take") is not None else ""
            return f"Lay {self.name(first)} with {self.name(second)}{take}"
        if kind == "call_story":
            story = self.stories.get(c["story"], {}).get("name", words(c["story"]))
            return f"Ask {seen.name(c['target'])} for {story}"
        if kind == "recruit_swap":
            return f"Swap {self.name(c['card'])} for {self.name(c['centre_card'])} in the centre"
        if kind in ("play_horror", "play_sign"):
            return f"Play {self.name(c['card'])}{target}{chosen}{centre}"
        return {"finish_opening": "Finish the opening", "draw_card": "Draw a card", "pass_call": "Call no story",
                "recruit_draw": "Recruit: draw a card", "pass_recruit": "Recruit nothing", "end_turn": "End your turn"}.get(str(kind))
