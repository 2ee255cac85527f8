"""Pocket Madness in a terminal: the splayed deck whole (face-up cards by name, runs of face-down ones counted),
the seven Portals with their owners, each seat's Madness, melds under that seat, the round and the last turns."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

from .base import Drawn, Seen, by_seat, card, index, listing, plural, upfirst

CARD_FIELDS = {"location", "card", "cards", "revealed", "hand", "hands", "deck", "face_down"}


class PocketMadness:
    def __init__(self, entry: Mapping[str, Any]):
        data = entry.get("card_data") or {}
        self.locations = index(data.get("locations"), "number")
        self.portals = index(data.get("portals"), "number")

    def location_name(self, number: Any) -> str:
        return str(self.locations.get(number, {}).get("name") or f"Location {number}")

    def portal_name(self, number: Any) -> str:
        return str(self.portals.get(number, {}).get("name") or f"Portal {number}")

    def location(self, number: Any, count: int = 1) -> str:
        return card(self.location_name(number), number, count=count)

    def grouped(self, numbers: list[Any]) -> str:
        """Cards grouped by Location, in Location order: "R'lyeh (6) ×2, Kadath (7)"."""
        counts = Counter(numbers)
        return ", ".join(self.location(n, counts[n]) for n in sorted(counts, key=lambda n: (str(type(n)), n)))

    def card_name(self, field: str, value: Any) -> str | None:
        if field in CARD_FIELDS and isinstance(value, int):
            return self.location_name(value)
        if field == "portal" and isinstance(value, int):
            return f"the portal of {self.portal_name(value)}"
        return None

    def deck_words(self, deck: list[dict[str, Any]]) -> str:
        """The whole splayed deck from the top: face-up cards by position and name, face-down ones counted
        ("1 Gug · 2–3 face down · 4 Valley of the Kings")."""
        parts: list[str] = []
        run_start: int | None = None
        for position, entry in enumerate(deck + [{"end": True}], 1):
            if not entry.get("end") and "location" not in entry:  # a card nobody at the table has seen
                run_start = position if run_start is None else run_start
                continue
            if run_start is not None:
                last = position - 1
                parts.append(f"{run_start} face down" if run_start == last else f"{run_start}–{last} face down")
                run_start = None
            if entry.get("end"):
                break
            name = self.location_name(entry["location"])
            parts.append(f"{position} {name}" + ("" if entry.get("face_up") else " (face down)"))
        return " · ".join(parts) or "empty"

    def table(self, seen: Seen) -> Drawn:
        v = seen.view
        portals = v.get("portals") or []
        board = [f"Round {v.get('round', 1)} · Madness supply {v.get('madness_supply', 0)}"
                 + (f" · the next run gives {v['next_run_madness']} Madness" if v.get("next_run_madness") else "")]
        if v.get("deck") == [] or v.get("deck_size") == 0:
            board.append("The deck is empty.")
        elif v.get("deck") is not None:
            board.append(f"The deck, {plural(v.get('deck_size', len(v['deck'])), 'card')} "
                         f"({v.get('face_down_in_deck', 0)} face down), drawn from 1: {self.deck_words(v['deck'])}")
        board.append("Portals: " + " · ".join(
            f"{p.get('name') or self.portal_name(p.get('portal'))} ({p.get('portal')}) "
            + ("free" if p.get("owner") is None else f"held by {seen.who(p['owner'])}") for p in portals))
        if v.get("last_turns"):
            board.append(f"The deck is empty: last turns for {listing(seen.who(s) for s in v['last_turns'])}.")
        pending = v.get("pending")
        if pending:
            aimed = f", aimed at {seen.who(pending['target'])}" if pending.get("target") is not None else ""
            board.append(f"Sealing the portal of {pending.get('name')}{aimed}.")
            if pending.get("target_hand"):
                board.append(f"{upfirst(seen.whose(pending['target']))} hand: {self.grouped(pending['target_hand'])}")
        if v.get("reason"):
            board.append(self.round_end(v, seen))

        def stats(n: int) -> list[str]:
            owned = [p.get("name") or self.portal_name(p.get("portal")) for p in portals if p.get("owner") == n]
            return [f"Madness {by_seat(v.get('madness'), n, 0)}/{v.get('madness_limit', 10)}",
                    plural(by_seat(v.get("hand_counts"), n, 0), "card"),
                    *([f"portals {listing(owned)}"] if owned else [])]

        def public(n: int) -> list[str]:
            melds = by_seat(v.get("melds"), n, []) or []
            lines = ["melds: " + (", ".join("a run of 7" if m.get("kind") == "run" else self.location(m.get("location"), m.get("count", 1))
                                            for m in melds) or "none")]
            shown, known = by_seat(v.get("hands"), n), by_seat(v.get("known_cards"), n, []) or []
            if shown is not None and n != seen.seat:
                lines.append("hand: " + (self.grouped(shown) or "empty"))
            elif known and n != seen.seat:
                lines.append("known in hand: " + self.grouped(known))
            if by_seat(v.get("discards"), n):
                lines.append("discarded: " + self.grouped(by_seat(v.get("discards"), n)))
            return lines

        hand = v.get("hand") if v.get("hand") is not None else by_seat(v.get("hands"), seen.seat) if seen.seat is not None else None
        return Drawn(board, stats, public, hand=[self.grouped(hand)] if hand else [],
                     hand_title=f"Your hand ({plural(len(hand or []), 'card')})", phase=self.phase(v, seen))

    def round_end(self, v: dict[str, Any], seen: Seen) -> str:
        """The round's end in the log's own words (the server's narration), so the screen says it one way."""
        gained = list(v.get("gained") or [])
        if v["reason"] != "deck_exhausted" and v.get("ender") is not None:
            shed = -gained[v["ender"]] if v["ender"] < len(gained) else 0
            shedding = f", shedding {plural(shed, 'Madness token')}" if shed > 0 else ""
            why = f"{seen.who(v['ender'])} played every card and ended the round{shedding}; every other seat took 1 Madness"
        else:
            took = ", ".join(f"{seen.who(n)} took {g}" for n, g in enumerate(gained))
            why = "the deck ran out and every hand was laid down" + (f"; Madness: {took}" if took else "")
        return f"Round {v.get('round')} is over: {why}."

    # What each of the mover's commands lets it do, for the line for now: what it may do, never more.
    DOES = {"draw_cards": "draw cards", "take_deck_card": "take a face-up card", "meld_set": "meld sets",
            "meld_run": "publish a run", "seal_portal": "seal a portal", "end_turn": "end the turn",
            "deal_next_round": "deal the next round", "choose_first_player": "choose who starts the next round"}

    def phase(self, v: dict[str, Any], seen: Seen) -> str:
        kinds = [str(c.get("type")) for c in seen.legal]
        if seen.seat is not None and seen.seat in seen.to_act and kinds and not v.get("pending"):
            most = max((int(c.get("count", 1)) for c in seen.legal if c.get("type") == "draw_cards"), default=0)
            does = [self.DOES[k] if k != "draw_cards" else f"draw 1 to {most} cards" if most > 1 else "draw 1 card"
                    for k in dict.fromkeys(kinds) if k in self.DOES]
            if does:
                return ", ".join(does[:-1]) + " or " + does[-1] if len(does) > 1 else does[0]
        if v.get("phase") == "designating":
            return f"{seen.does(v.get('chooser'), 'choose')} who starts the next round"
        if v.get("phase") == "round_over":
            return "the next round is dealt"
        if v.get("pending"):
            return f"sealing the portal of {v['pending'].get('name')}"
        turn = v.get("turn")
        if turn and turn.get("action"):
            return "meld more, seal a portal or end the turn"
        if turn:
            return "draw 1 to 3 cards, meld sets or publish a run"
        return ""

    def move(self, c: Mapping[str, Any], seen: Seen) -> str | None:
        kind = c.get("type")
        if kind == "draw_cards":
            return f"Draw {plural(c['count'], 'card')} from the deck"
        if kind == "take_deck_card":
            return f"Take card {c['position'] + 1} of the deck"
        if kind == "meld_set":
            return f"Meld a set of {c['count']} {self.location_name(c['location'])}"
        if kind == "meld_run":
            return "Publish your research: meld a run of 7 different Locations"
        if kind == "seal_portal":
            portal = self.portals.get(c["portal"], {})
            return f"Seal the portal of {self.portal_name(c['portal'])}: {portal.get('text', '')}".rstrip(": ")
        if kind == "give_card":
            return f"Give {self.location_name(c['location'])} to {seen.name(c['seat'])}"
        if kind == "take_card":
            return f"Take {self.location_name(c['location'])}"
        if kind == "look_at_hand":
            return f"Look at {seen.name(c['seat'])}'s hand"
        if kind == "choose_first_player":
            return "You start the round" if c["seat"] == seen.seat else f"{seen.name(c['seat'])} starts the round"
        return {"end_turn": "End your turn", "stop_giving": "Give no more cards", "deal_next_round": "Deal the next round"}.get(str(kind))
