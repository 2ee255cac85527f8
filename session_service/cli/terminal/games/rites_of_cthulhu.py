"""Rites of Cthulhu in a terminal: the Grand Cultist, scores, the Coveted Artifact, the artifacts each seat won
and those thrown out (artifacts by name: ``captured`` and ``thrown_out`` hold artifact ids), the rites played and
left, and the rite's own board: Cthulhu Rises' gate and tricks, the Tree on the Hill's trees, the Mountains'
ridge and slopes, Dunwich's twins and walls, Out of the Aeons' yellow card and sealed bids, the Hound's graves."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from .base import UNKNOWN_CARD, Drawn, Seen, by_seat, card, index, listing, plural, upfirst, words

ARTIFACT_FIELDS = {"artifact", "artifacts", "coveted", "give", "take", "captured_artifacts", "thrown_out"}
ENTITY_FIELDS = {"card", "cards", "book", "ridge_card", "order", "graves", "twins", "shown", "ridge", "gate", "taken", "discards",
                 "sub_deck", "hand", "revealed", "bid", "bids", "first_draws"}


class RitesOfCthulhu:
    def __init__(self, entry: Mapping[str, Any]):
        data = entry.get("card_data") or {}
        self.entities = index(data.get("entities"), "id")
        self.artifacts = index(data.get("artifacts"), "id")
        self.rites = index(data.get("rites"), "id")

    # -- names -------------------------------------------------------------------------------------------
    def name(self, number: Any) -> str:
        return str(self.entities.get(number, {}).get("name", UNKNOWN_CARD))

    def artifact_name(self, number: Any) -> str:
        return str(self.artifacts.get(number, {}).get("name", "an unknown artifact"))

    def rite_title(self, key: Any) -> str:
        return str(self.rites.get(key, {}).get("title", words(key)))

    def card_name(self, field: str, value: Any) -> str | None:
        if isinstance(value, str) and value in self.rites:
            return self.rite_title(value)
        if not isinstance(value, int):
            return None
        if field in ARTIFACT_FIELDS and value in self.artifacts:
            return self.artifact_name(value)
        if field in ENTITY_FIELDS and value in self.entities:
            return self.name(value)
        return None

    def card(self, number: Any, note: str | None = None) -> str:
        row = self.entities.get(number, {})
        return card(self.name(number), row.get("rank"), row.get("cult"), "a Forbidden Book" if row.get("forbidden_book") else None, note=note)

    def cards(self, numbers: list[Any] | None, empty: str = "none") -> str:
        return ", ".join(self.card(n) for n in numbers or []) or empty

    def artifact(self, number: Any) -> str:
        signs = self.artifacts.get(number, {}).get("elder_sign")
        return card(self.artifact_name(number), plural(signs, "elder sign") if signs is not None else None)

    def artifacts_words(self, numbers: list[Any] | None, empty: str = "none") -> str:
        return ", ".join(self.artifact(n) for n in numbers or []) or empty

    # -- the table ---------------------------------------------------------------------------------------
    def table(self, seen: Seen) -> Drawn:
        v = seen.view
        t = v.get("table") or {}
        hands = t.get("hands") or {}
        grand = v.get("grand_cultist")
        board = [f"Grand Cultist: {seen.who(grand) if grand is not None else 'none yet'} · "
                 f"rites played {len(v.get('rites_played') or [])} of {v.get('rites_total', 0)} · pile {t.get('pile', 0)}",
                 f"The Coveted Artifact: {self.artifacts_words(v.get('coveted'))} · "
                 f"artifacts left to excavate: {len(v.get('artifact_deck') or [])}"]
        if v.get("thrown_out"):
            board.append("Thrown out: " + self.artifacts_words(v["thrown_out"]))
        mods = t.get("modifiers") or {}
        changes = ["turns run counter-clockwise" if mods.get("direction") == -1 else None,
                   "the lowest elder sign wins" if mods.get("low_wins") else None, "hands are open" if mods.get("open_hands") else None,
                   "no power-plays" if mods.get("no_power_plays") else None,
                   seen.does(mods["opener"], "open") if mods.get("opener") is not None else None]
        if any(changes):
            board.append("This rite: " + "; ".join(c for c in changes if c) + ".")
        if v.get("stage") == "choosing" or (v.get("rites_available") and not v.get("rite") and v.get("stage") != "finished"):
            board.append("Rites to choose from: " + listing(self.rite_title(r) for r in v.get("rites_available") or []))
        if v.get("rite"):
            board.extend(self.rite_board(v["rite"], seen))
        if v.get("rites_played"):
            board.append("Played: " + listing(self.rite_title(r) for r in v["rites_played"]))
        if t.get("set_aside") or t.get("set_aside_face_down"):
            face_down = f"{plural(t['set_aside_face_down'], 'card')} face down" if t.get("set_aside_face_down") else ""
            board.append("Set aside: " + listing([self.cards(t.get("set_aside"), ""), face_down]))
        trade = t.get("trade")
        if trade:
            traded = f" ({self.name(trade['card'])})" if trade.get("card") is not None else ""
            board.append(f"A card passes from {seen.who(trade.get('giver'))} to {seen.who(trade.get('receiver'))}{traded}.")
        if v.get("claiming") is not None:
            board.append(upfirst(f"{seen.does(v['claiming'], 'claim')} the artifacts."))

        def stats(n: int) -> list[str]:
            held = by_seat(hands, n)
            facts = [f"Score {by_seat(v.get('scores'), n, 0)}", plural(len(held) if isinstance(held, list) else held or 0, "card")]
            return facts + (["Grand Cultist"] if grand == n else [])

        def public(n: int) -> list[str]:
            held = by_seat(hands, n)
            lines = ["artifacts: " + self.artifacts_words(by_seat(v.get("captured"), n, []))]
            if isinstance(held, list) and held and n != seen.seat:
                lines.append("hand: " + self.cards(held, "empty"))
            return lines

        held = by_seat(hands, seen.seat) if seen.seat is not None else None
        mine: list[Any] = held if isinstance(held, list) else []
        won = by_seat(v.get("captured"), seen.seat, []) or [] if seen.seat is not None else []
        rite = v.get("rite") or {}
        phase = (f"{rite.get('title') or self.rite_title(rite.get('id'))}" + (f", {words(rite['phase'])}" if rite.get("phase") else "")
                 if rite else "a rite is chosen" if v.get("stage") == "choosing" else "")
        return Drawn(board, stats, public, hand=[self.cards(mine)] if mine else [],
                     hand_title=f"Your hand ({plural(len(mine), 'card')})", phase=phase,
                     texts=[f"{self.artifact_name(a)}: {self.artifacts.get(a, {}).get('text', '')}" for a in won])

    def per_seat(self, mapping: Any, seen: Seen, each: Callable[[Any], str]) -> str:
        return " · ".join(f"{seen.who(int(s))}: {each(value)}" for s, value in (mapping or {}).items())

    def cards_by_seat(self, label: str, mapping: Any, seen: Seen, empty: str = "nothing") -> list[str]:
        """One line per seat: "  Taken by you: Nug (7, blue), …"."""
        return [f"  {label} {seen.who(int(s))}: {self.cards(cards, empty)}" for s, cards in (mapping or {}).items()]

    def rite_board(self, r: Mapping[str, Any], seen: Seen) -> list[str]:
        title = r.get("title") or self.rite_title(r.get("id"))
        lines = [f"{title}: {self.rites.get(r.get('id'), {}).get('summary', '')}".rstrip(": ")]
        if r.get("turn") is not None:
            lines[0] += f" Turn: {seen.who(r['turn'])}."
        rid = r.get("id")
        if rid == "tree_on_the_hill":
            for i, tree in enumerate(r.get("trees") or []):
                lines.append(f"  Tree {i + 1}{' (complete)' if tree.get('complete') else ''}: {self.cards(tree.get('cards'))}")
            if not r.get("trees"):
                lines.append("  No tree is planted yet.")
        elif rid == "the_hound":
            for g in r.get("graves") or []:
                looted = f", looted by {seen.who(g['looted_by'])}" if g.get("status") == "looted" else ""
                face = (self.card(g["card"], note="you peeked" if g.get("peeked") else "dug up" if g.get("status") == "face_up" else None)
                        if g.get("card") is not None else "face down")
                ghouls = "; ".join(f"{seen.whose(gh.get('seat'))} ghoul {self.card(gh.get('card'))}" for gh in g.get("ghouls") or [])
                lines.append(f"  Grave {g.get('grave', 0) + 1}{looted}: {face}" + (f"; {ghouls}" if ghouls else ""))
            if r.get("dig"):
                sealed = listing(seen.who(s) for s in r["dig"].get("sealed") or []) or "nobody yet"
                lines.append(f"  Digging grave {r['dig'].get('grave', 0) + 1}: sealed by {sealed}.")
        elif rid == "out_of_the_aeons":
            yellow = self.card(r["revealed"]) if r.get("revealed") is not None else "none"
            sealed = listing(seen.who(s) for s in r.get("bids_sealed") or [])
            lines.append(f"  The yellow card: {yellow} · yellow cards left {r.get('sub_deck', 0)} · "
                         + (f"{sealed} sealed a bid" if sealed else "no bid sealed yet")
                         + (f" · waiting on {listing(seen.who(s) for s in r['waiting'])}" if r.get("waiting") else ""))
            if r.get("bids"):
                lines.append("  Bids: " + self.per_seat(r["bids"], seen, self.card))
            lines.extend(self.cards_by_seat("Won by", r.get("captured"), seen, "none"))
        elif rid == "cthulhu_rises":
            cthulhu = f"captured by {seen.who(r['captor'])}" if r.get("cthulhu") == "captured" else words(r.get("cthulhu", ""))
            lines.append(f"  Gate {r.get('gate_number')} · dominant cult {r.get('dominant_cult') or 'none yet'} · Cthulhu {cthulhu}"
                         + (f" · {seen.who(r['to_play'])} plays" if r.get("to_play") is not None else ""))
            gate = [f"{seen.who(g.get('seat'))}: {self.card(g.get('card'))}" for g in r.get("gate") or []]
            lines.append("  The gate: " + (" · ".join(gate) or "open"))
            lines.extend(self.cards_by_seat("Taken by", r.get("taken"), seen))
            if r.get("forcing") is not None:
                lines.append(f"  {upfirst(seen.does(r['forcing'], 'force'))} a card on another cultist.")
        elif rid == "dunwich_horror":
            lines.append("  The twins: " + self.cards([tw.get("card") for tw in r.get("twins") or []]))
            walls = []
            for w in r.get("walls") or []:
                state = ("captured" if w.get("status") == "captured" else self.card(w["card"]) if w.get("card") is not None
                         and w.get("status") == "face_up" else "face down")
                walls.append(f"{w.get('slot', 0) + 1} {state}")
            lines.append("  Walls: " + " · ".join(walls))
            lines.extend(self.cards_by_seat("Captured by", r.get("captured"), seen))
            claims = r.get("claims")
            if claims:
                lines.append(f"  {seen.who(claims.get('revealer'))} revealed wall {claims.get('wall', 0) + 1}: waiting on "
                             f"{listing(seen.who(s) for s in claims.get('waiting') or []) or 'nobody'}.")
        elif rid == "mountains_of_madness":
            lines.append("  The ridge: " + self.cards(r.get("ridge"), "empty"))
            for slope in r.get("slopes") or []:
                lines.append(f"  Slope {slope.get('side')} {self.name(slope.get('ridge_card'))}: {self.cards(slope.get('cards'))}")
        if r.get("points"):
            lines.append("  Points: " + self.per_seat(r["points"], seen, str))
        if r.get("discards"):
            lines.append(f"  Discarded this rite: {plural(len(r['discards']), 'card')}, the last {self.card(r['discards'][-1])}")
        return lines

    # -- moves -------------------------------------------------------------------------------------------
    def move(self, c: Mapping[str, Any], seen: Seen) -> str | None:
        kind = str(c.get("type"))
        name = self.name

        def cards(numbers: list[Any]) -> str:
            return listing(self.name(n) for n in numbers)

        if kind == "invoke_artifact":
            with_card = f" with {name(c['card'])}" if c.get("card") is not None else ""
            on_seat = f" on {seen.name(c['seat'])}" if c.get("seat") is not None else ""
            on_artifact = f" ({self.artifact_name(c['target'])})" if c.get("target") is not None else ""
            return f"Invoke {self.artifact_name(c['artifact'])}{with_card}{on_seat}{on_artifact}"
        simple: dict[str, Callable[[], str]] = {
            "choose_rite": lambda: f"Perform {self.rite_title(c['rite'])}",
            "plant_tree": lambda: f"Plant {name(c['card'])} as a new tree",
            "grow_tree": lambda: f"Grow tree {c['tree'] + 1} with {name(c['card'])}",
            "peek_grave": lambda: f"Peek at grave {c['grave'] + 1}",
            "place_ghoul": lambda: f"Place {name(c['card'])} as a ghoul on grave {c['grave'] + 1}",
            "move_ghoul": lambda: f"Move your ghoul to grave {c['grave'] + 1}",
            "psych_out": lambda: f"Seal {name(c['card'])} as a dummy",
            "call_henchman": lambda: f"Call {name(c['card'])} as your henchman",
            "bid": lambda: f"Bid {name(c['card'])} (sealed)",
            "play_card": lambda: f"Play {name(c['card'])}",
            "force_card": lambda: f"Force {name(c['card'])} on {seen.name(c['seat'])}",
            "return_card": lambda: f"Give back {name(c['card'])}",
            "trade_artifact": lambda: f"Trade {self.artifact_name(c['give'])} for {self.artifact_name(c['take'])}",
            "discard_and_draw": lambda: f"Discard {cards(c['cards'])} and draw two",
            "reveal_wall": lambda: f"Reveal wall {c['wall'] + 1} with {cards(c['cards'])}",
            "knock": lambda: f"Knock with {cards(c['cards'])}",
            "capture_wall": lambda: f"Capture wall {c['wall'] + 1} with {cards(c['cards'])}",
            "become_grand_cultist": lambda: f"Power-play: become the Grand Cultist ({c['cult']})",
            "excavate_artifact": lambda: f"Power-play: excavate an artifact ({c['cult']})",
            "steal_artifact": lambda: f"Power-play: steal {self.artifact_name(c['artifact'])} ({c['cult']})",
            "extend_ridge": lambda: f"Extend the ridge with {name(c['card'])}",
            "play_on_slope": lambda: f"Play {name(c['card'])} {c['side']} {name(c['ridge_card'])}",
            "play_cliff": lambda: f"Play a cliff of {name(c['book'])} and {name(c['card'])} {c['side']} {name(c['ridge_card'])}",
        }
        if kind in simple:
            return simple[kind]()
        return {"draw_card": "Draw a card", "end_turn": "End your turn", "pass_turn": "Pass your turn", "decline_peek": "Do not peek",
                "keep_ghoul": "Leave your ghoul where it is", "no_henchman": "Call no henchman", "discard_revealed": "Discard the yellow card",
                "keep_revealed": "Bid for the yellow card", "decline_trade": "Decline the trade", "take_artifacts": "Take the artifacts",
                "call_knock": "Knock", "pass_knock": "Do not knock"}.get(kind)
