"""Rise of Cthulhu in a terminal: the four Locations with both players' cards on their sides, the points there,
whom each faces and the Old One woken on it; the Valley with its face-up card, the Dark Hunter, the draw piles
and where the Old Ones wait in the Cultist Deck; each player's points, Locations and hand by kind."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .base import UNKNOWN_CARD, Drawn, Seen, by_seat, card, listing, plural, words

GROUPS = ("locations", "cultists", "old_ones", "monsters", "artifacts")
HAND_KINDS = (("cultists", "Cultist"), ("monsters", "Monster"), ("artifacts", "Artifact"))


class RiseOfCthulhu:
    def __init__(self, entry: Mapping[str, Any]):
        data = entry.get("card_data") or {}
        self.all: dict[str, dict[str, Any]] = {}
        for group in GROUPS:
            rows = data.get(group) or {}
            self.all.update(rows if isinstance(rows, dict) else {r["id"]: r for r in rows if isinstance(r, dict) and "id" in r})

    def name(self, key: Any) -> str:
        row = self.all.get(key)
        if row is None:
            return "an Old One" if key == "old-one" else UNKNOWN_CARD
        return str(row.get("name") or f"{str(row.get('colour', '')).capitalize()} {row.get('number', '')}".strip())

    def card_name(self, field: str, value: Any) -> str | None:
        return self.name(value) if isinstance(value, str) and (value in self.all or value == "old-one") else None

    def card(self, key: Any) -> str:
        row = self.all.get(key, {})
        if row.get("kind") == "cultist":
            return self.name(key)
        return card(self.name(key), words(row.get("kind", "")))

    def cards(self, keys: list[Any], empty: str = "none") -> str:
        return ", ".join(self.card(k) for k in keys) or empty

    def table(self, seen: Seen) -> Drawn:
        v = seen.view
        me = seen.seat if seen.seat is not None else 0
        facts = [f"Actions {v.get('actions_taken', 0)} of {v.get('actions_allowed', 0)}",
                 "Old Ones awake: " + (listing(self.name(k) for k in v.get("awake") or []) or "none")]
        if v.get("old_ones_in_deck_at"):
            facts.append("Old Ones wait in the Cultist Deck at " + listing(f"#{n + 1}" for n in v["old_ones_in_deck_at"]))
        valley = v.get("valley") or []
        valley_words = (", ".join(self.card(k) for k in valley[:-1]) + (" and " if len(valley) > 1 else "")
                        + f"{self.card(valley[-1])} face up") if valley else "empty"
        board = [" · ".join(facts),
                 f"Cultist Deck {v.get('deck_size', 0)} · Monsters {v.get('monster_deck_size', 0)} · "
                 f"Artifacts {v.get('artifact_deck_size', 0)} · the Valley: {valley_words}",
                 "The Dark Hunter " + (f"is at {self.name(v['hunter'])}" if v.get("hunter") else "waits in the Valley")]
        if v.get("pending_power"):
            board.append("An Old One's power waits to be resolved.")
        for loc in v.get("locations") or []:
            row = self.all.get(loc.get("name"), {})
            facing = f"faces {seen.who(loc['facing'])}" if loc.get("facing") is not None else "faces nobody"
            extra = [f"Old One {self.name(loc['old_one'])}"] if loc.get("old_one") else []
            if v.get("hunter") == loc.get("name"):
                extra.append("the Dark Hunter")
            order = [me] + [s for s in range(len(loc.get("sides") or [])) if s != me]
            sides = " · ".join(
                f"{seen.who(s)} {plural(loc['sides'][s].get('points', 0), 'point')}: "
                + self.cards(list(loc["sides"][s].get("cultists") or []) + list(loc["sides"][s].get("monsters") or []), "nothing")
                for s in order if s < len(loc.get("sides") or []))
            board.append(f"{row.get('letter', '')} {self.name(loc.get('name'))} ({', '.join([facing, *extra])}): {sides}".strip())
        if v.get("discard"):
            board.append(f"Discarded: {plural(len(v['discard']), 'card')}, the last {self.card(v['discard'][-1])}")

        def stats(n: int) -> list[str]:
            counts = by_seat(v.get("hand_counts"), n, {}) or {}
            held = [plural(counts[k], word) for k, word in HAND_KINDS if counts.get(k)]
            return [f"Points {by_seat(v.get('points'), n, 0)}", f"Locations {by_seat(v.get('locations_facing'), n, 0)}",
                    f"Artifacts {by_seat(v.get('artifacts_acquired'), n, 0)}", f"Monsters {by_seat(v.get('monsters_played'), n, 0)}",
                    *([] if n == seen.seat else [f"hand {listing(held) or 'empty'}"])]

        def public(n: int) -> list[str]:
            shown, known = by_seat(v.get("hands"), n), by_seat(v.get("known_in_hand"), n, []) or []
            if n == seen.seat:
                return []
            if shown is not None:
                return ["hand: " + self.cards(shown)]
            return ["known in hand: " + self.cards(known)] if known else []

        hand = v.get("hand") if v.get("hand") is not None else by_seat(v.get("hands"), seen.seat) if seen.seat is not None else None
        texts = [f"{self.name(k)}: {self.all[k]['text']}" for k in hand or [] if self.all.get(k, {}).get("text")]
        left = max(0, v.get("actions_allowed", 0) - v.get("actions_taken", 0))
        phase = ("draw from the Cultist Deck" if v.get("must_draw_from_deck")
                 else f"{plural(left, 'action')} left" if v.get("phase") == "turn" else words(v.get("phase", "")))
        return Drawn(board, stats, public, hand=[self.cards(hand)] if hand else [], phase=phase, texts=texts)

    def move(self, c: Mapping[str, Any], seen: Seen) -> str | None:
        kind = c.get("type")
        hunter = " and call the Dark Hunter home" if c.get("recall_hunter") else ""
        target = f" on {self.name(c['target'])}" if c.get("target") else ""
        if kind == "draw_card":
            return "Draw the Valley's card" if c.get("source") == "valley" else "Draw from the Cultist Deck"
        if kind == "play_cultist":
            return f"Play {self.name(c['card'])} at {self.name(c['location'])}{hunter}"
        if kind == "play_to_valley":
            return f"Play {self.name(c['card'])} to the Valley; the Dark Hunter goes to {self.name(c.get('hunter_to'))}"
        if kind == "play_monster":
            return f"Play {self.name(c['card'])} at {self.name(c['location'])}{target}{hunter}"
        if kind == "play_artifact":
            at = f" at {self.name(c['location'])}" if c.get("location") else ""
            return f"Play {self.name(c['card'])}{target}{at}{hunter}"
        if kind == "resolve_power":
            what = "" if not c.get("target") else ": the Dark Hunter goes home" if c["target"] == "home" else f": {self.name(c['target'])}"
            return f"Resolve the Old One's power{what}"
        if kind == "draw_owed_cards":
            return "Draw the cards you are owed"
        return None
