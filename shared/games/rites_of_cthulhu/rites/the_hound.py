"""The Hound (Rites of Cthulhu rulebook, "The Hound", p. 45): loot a graveyard of face-down cards with ghouls.

The graveyard is players + 1 face-down graves. Before the first turn the Grand Cultist may peek at one grave.
On her turn a cultist places a ghoul (a card from her hand, replaced at once from the pile) next to a grave
where she has no ghoul yet and peeks at it privately (a face-up grave needs no peek); then she either leaves the
ghoul or moves it once to another grave without peeking. Two ghouls at a grave are digging partners: the grave
is turned face up and each partner seals a henchman of her ghoul's cult, a dummy (kept face down, psyching the
partner out) or nothing; the sealed cards are revealed together. Ghoul plus henchman totals decide who loots
the grave (a forbidden book doubles the other card); equal totals go to the higher ghoul, and a double tie
leaves the grave face up for later. A psyched-out henchman is discarded, a dummy goes back to its owner's hand
(two dummies are both discarded). Hands are refilled to 5 at once. When every grave is looted the most looted
elder sign points wins.

Rulings (docs/rulings/rites-of-cthulhu.md, second part): peeks are knowledge of one seat only; a cultist with
no grave to place at passes; when nobody can place a ghoul the rite ends with the graves left unlooted; the
comparison of totals and ghouls honours the rank-inverting artifact.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from marshmallow import Schema, fields

from shared.kernel import Event, ev, sees

from shared.games.rites_of_cthulhu.rites.base import (
    Batch,
    NoFields,
    PlayCard,
    Rite,
    RiteResult,
    Table,
    beats,
    cult,
    draw,
    first_in_order,
    hand_audience,
    next_seat,
    opener,
    rank,
    remove_cards,
    require,
    resample_table,
    violation,
    with_hand,
)
from shared.games.rites_of_cthulhu.rites.dunwich_horror import redistribute

HAND_SIZE = 5
HENCHMAN, DUMMY, NOTHING = "henchman", "dummy", "nothing"


def strength(ghoul: int, henchman: int | None) -> int:
    """Ghoul plus henchman; a forbidden book (elder sign 0) doubles the other card instead of adding."""
    g = rank(ghoul)
    if henchman is None:
        return g
    h = rank(henchman)
    if g == 0 or h == 0:
        return 2 * (g + h)
    return g + h


# --- state --------------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Grave:
    card: int
    face_up: bool = False
    looted_by: int | None = None
    ghouls: tuple[tuple[int, int], ...] = ()  # (seat, ghoul card)

    def has_ghoul_of(self, seat: int) -> bool:
        return any(s == seat for s, _ in self.ghouls)


@dataclass(frozen=True, slots=True)
class Laying:
    """The rite was picked; the graveyard is not laid out yet."""


@dataclass(frozen=True, slots=True)
class PeekPrivilege:
    """Before the first turn the rite's opener may peek at any one grave (read when needed: an artifact may
    give the Grand Cultist's first turn and privilege away)."""


@dataclass(frozen=True, slots=True)
class Placing:
    """``seat`` places a ghoul."""

    seat: int


@dataclass(frozen=True, slots=True)
class Placed:
    """``seat`` placed (and peeked at) her ghoul at ``grave``: she leaves it or moves it once."""

    seat: int
    grave: int


@dataclass(frozen=True, slots=True)
class Digging:
    """Two ghouls dig ``grave`` (``seat`` made the dig on her turn); ``sealed`` holds (seat, kind, card)."""

    seat: int
    grave: int
    sealed: tuple[tuple[int, str, int | None], ...] = ()


@dataclass(frozen=True, slots=True)
class Emptied:
    """Every grave is looted, or nobody can place a ghoul any more."""


@dataclass(frozen=True, slots=True)
class HoundState:
    phase: Laying | PeekPrivilege | Placing | Placed | Digging | Emptied
    graves: tuple[Grave, ...] = ()
    peeks: frozenset[tuple[int, int]] = frozenset()  # (seat, grave): that seat knows that face-down grave
    discards: tuple[int, ...] = ()


# --- commands -----------------------------------------------------------------------------------------------


class GraveChoice(Schema):
    grave = fields.Integer(required=True)


class GhoulPlacement(Schema):
    card = fields.Integer(required=True)
    grave = fields.Integer(required=True)


class TheHound(Rite):
    id = "the_hound"
    title = "The Hound"
    summary = (
        "Send ghouls to peek at and dig up face-down graves with a digging partner; sealed henchmen of the ghoul's "
        "cult decide who loots. Most looted elder sign points wins."
    )
    privilege = "Before the first turn, peeks at any one grave; takes the first turn."
    commands = {
        "peek_grave": GraveChoice,
        "decline_peek": NoFields,
        "place_ghoul": GhoulPlacement,
        "keep_ghoul": NoFields,
        "move_ghoul": GraveChoice,
        "call_henchman": PlayCard,
        "psych_out": PlayCard,
        "no_henchman": NoFields,
        "pass_turn": NoFields,
    }
    state_types = (HoundState, Grave, Laying, PeekPrivilege, Placing, Placed, Digging, Emptied)
    hooks = frozenset({"direction", "opener", "open_hands", "no_power_plays", "low_wins"})

    # -- setup -------------------------------------------------------------------------------------------

    def initial(self, table: Table) -> HoundState:
        return HoundState(phase=Laying())

    def begin(self, table: Table, state: HoundState, rng: Any) -> list[Event]:
        """The Deal: players + 1 graves face down from the pile; the Grand Cultist's privilege comes first."""
        graves = list(table.pile[: table.players + 1])
        return [ev("graveyard_laid", count=len(graves), graves=graves, secret={"graves": []})]

    # -- who acts and what they may do -----------------------------------------------------------------

    def to_act(self, table: Table, state: HoundState) -> frozenset[int]:
        phase = state.phase
        if self._stuck(table, state):
            return frozenset()
        if isinstance(phase, PeekPrivilege):
            return frozenset({opener(table)})
        if isinstance(phase, (Placing, Placed)):
            return frozenset({phase.seat})
        if isinstance(phase, Digging):
            sealed = {s for s, _, _ in phase.sealed}
            return frozenset(s for s, _ in state.graves[phase.grave].ghouls if s not in sealed)
        return frozenset()

    def legal_commands(self, table: Table, state: HoundState, seat: int) -> list[dict[str, Any]]:
        if seat not in self.to_act(table, state):
            return []
        phase = state.phase
        hand = sorted(table.hands[seat])
        if isinstance(phase, PeekPrivilege):
            graves = [i for i, g in enumerate(state.graves) if not g.face_up and g.looted_by is None]
            return [{"type": "peek_grave", "grave": i} for i in graves] + [{"type": "decline_peek"}]
        if isinstance(phase, Placing):
            out = [{"type": "place_ghoul", "card": c, "grave": g} for c in hand for g in self._open_graves(state, seat)]
            return out or [{"type": "pass_turn"}]
        if isinstance(phase, Placed):
            moves = [{"type": "move_ghoul", "grave": g} for g in self._open_graves(state, seat)]
            return [{"type": "keep_ghoul"}] + moves
        if isinstance(phase, Digging):
            ghoul = self._ghoul(state, phase.grave, seat)
            out = [{"type": "call_henchman", "card": c} for c in hand if cult(c) == cult(ghoul)]
            out += [{"type": "psych_out", "card": c} for c in hand]
            return out + [{"type": "no_henchman"}]
        return []

    @staticmethod
    def _open_graves(state: HoundState, seat: int) -> list[int]:
        """Graves where ``seat`` may send a ghoul: not looted, and without a ghoul of hers."""
        return [i for i, g in enumerate(state.graves) if g.looted_by is None and not g.has_ghoul_of(seat)]

    @staticmethod
    def _ghoul(state: HoundState, grave: int, seat: int) -> int:
        return next(c for s, c in state.graves[grave].ghouls if s == seat)

    # -- decide ------------------------------------------------------------------------------------------

    def decide(self, table: Table, state: HoundState, command: Mapping[str, Any], seat: int, rng: Any) -> list[Event]:
        kind = command["type"]
        phase = state.phase
        batch = Batch(self, table, state)
        require(seat in self.to_act(table, state), "rules/not_your_turn", "It is not your turn to act.")
        if kind in ("peek_grave", "decline_peek"):
            require(isinstance(phase, PeekPrivilege), "rules/no_peek_privilege", "The privileged peek comes before the first turn.")
            if kind == "peek_grave":
                grave = self._grave(state, command["grave"])
                require(not grave.face_up, "rules/grave_face_up", "That grave is already face up.")
                batch.emit(self._peek(seat, command["grave"], grave.card, privilege=True))
            else:
                batch.emit(ev("peek_declined", seat=seat))
            batch.emit(ev("hound_turn_began", seat=seat))
        elif kind in ("place_ghoul", "pass_turn"):
            require(isinstance(phase, Placing), "rules/not_placing", "Place a ghoul at the start of your turn.")
            if kind == "pass_turn":
                require(
                    not table.hands[seat] or not self._open_graves(state, seat),
                    "rules/must_place_ghoul",
                    "You can place a ghoul: you may not pass.",
                )
                batch.emit(ev("turn_passed_without_ghoul", seat=seat))
                batch.emit(ev("hound_turn_began", seat=next_seat(table, seat)))
                return batch.events
            card, index = command["card"], command["grave"]
            require(card in table.hands[seat], "rules/card_not_in_hand", "Place a ghoul from your own hand.")
            grave = self._grave(state, index)
            require(not grave.has_ghoul_of(seat), "rules/one_ghoul_per_grave", "You already have a ghoul at that grave.")
            batch.emit(ev("ghoul_placed", seat=seat, card=card, grave=index))
            self._refill(batch, seat)
            if not grave.face_up:
                batch.emit(self._peek(seat, index, grave.card, privilege=False))
        elif kind in ("keep_ghoul", "move_ghoul"):
            require(isinstance(phase, Placed), "rules/nothing_to_move", "Place a ghoul first.")
            target = phase.grave
            if kind == "move_ghoul":
                target = command["grave"]
                grave = self._grave(state, target)
                require(target != phase.grave, "rules/move_to_another_grave", "Move your ghoul to a different grave.")
                require(not grave.has_ghoul_of(seat), "rules/one_ghoul_per_grave", "You already have a ghoul at that grave.")
                batch.emit(ev("ghoul_moved", seat=seat, card=self._ghoul(state, phase.grave, seat), source=phase.grave, grave=target))
            else:
                batch.emit(ev("ghoul_kept", seat=seat, grave=target))
            grave = batch.state.graves[target]
            if len(grave.ghouls) == 2:
                batch.emit(ev("grave_dug_up", grave=target, card=grave.card, partners=[s for s, _ in grave.ghouls], turn=seat))
            else:
                batch.emit(ev("hound_turn_began", seat=next_seat(table, seat)))
        elif kind in ("call_henchman", "psych_out", "no_henchman"):
            require(isinstance(phase, Digging), "rules/not_digging", "Henchmen are called only when a grave is dug up.")
            card = command.get("card")
            if card is not None:
                require(card in table.hands[seat], "rules/card_not_in_hand", "Choose a card from your own hand.")
            if kind == "call_henchman":
                ghoul = self._ghoul(state, phase.grave, seat)
                require(
                    cult(card) == cult(ghoul),
                    "rules/henchman_must_match_ghoul",
                    "A henchman must be of the same cult as your ghoul.",
                )
            choice = {"call_henchman": HENCHMAN, "psych_out": DUMMY, "no_henchman": NOTHING}[kind]
            audience = hand_audience(table, seat)
            secret: dict[str, list[int]] = {"choice": [seat]}
            if audience is not None:
                secret["card"] = audience
            batch.emit(ev("henchman_sealed", seat=seat, grave=phase.grave, choice=choice, card=card, secret=secret))
            if len(batch.state.phase.sealed) == 2:
                self._resolve(batch)
        else:
            raise violation("rules/unknown_command", f"The Hound has no command {kind!r}.")
        return batch.events

    @staticmethod
    def _peek(seat: int, grave: int, card: int, privilege: bool) -> Event:
        return ev("grave_peeked", seat=seat, grave=grave, card=card, privilege=privilege, secret={"card": [seat]})

    @staticmethod
    def _grave(state: HoundState, index: int) -> Grave:
        require(0 <= index < len(state.graves), "rules/no_such_grave", "There is no such grave.", grave=index)
        grave = state.graves[index]
        require(grave.looted_by is None, "rules/grave_looted", "That grave has already been looted.", grave=index)
        return grave

    def _resolve(self, batch: Batch) -> None:
        """Reveal the henchmen together, psych-outs first; the higher total loots, then the higher ghoul."""
        state, table = batch.state, batch.table
        phase = state.phase
        assert isinstance(phase, Digging)
        grave = state.graves[phase.grave]
        sealed = {s: (kind, card) for s, kind, card in phase.sealed}
        partners = [s for s, _ in grave.ghouls]
        shown = [
            {"seat": s, "shown": {HENCHMAN: "henchman", DUMMY: "face_down", NOTHING: "nothing"}[sealed[s][0]],
             **({"card": sealed[s][1]} if sealed[s][0] == HENCHMAN else {})}
            for s in partners
        ]
        batch.emit(ev("henchmen_revealed", grave=phase.grave, shown=shown))
        dummies = [s for s in partners if sealed[s][0] == DUMMY]
        counted = {s: sealed[s][1] for s in partners if sealed[s][0] == HENCHMAN}
        if len(dummies) == 2:
            batch.emit(ev("dummies_discarded", grave=phase.grave, cards=[sealed[s][1] for s in partners]))
        elif dummies:
            for s in partners:
                if s in counted:
                    batch.emit(ev("henchman_psyched_out", seat=s, card=counted.pop(s)))
            audience = hand_audience(table, dummies[0])
            batch.emit(
                ev("dummy_returned", seat=dummies[0], card=sealed[dummies[0]][1],
                   secret=None if audience is None else {"card": audience})
            )
        ghouls = dict(grave.ghouls)
        totals = {s: strength(ghouls[s], counted.get(s)) for s in partners}
        a, b = partners
        if totals[a] != totals[b]:
            winner = a if beats(table, totals[a], totals[b]) else b
        elif rank(ghouls[a]) != rank(ghouls[b]):
            winner = a if beats(table, rank(ghouls[a]), rank(ghouls[b])) else b
        else:
            winner = None
        tally = [[s, totals[s]] for s in partners]
        if winner is None:
            batch.emit(ev("dig_tied", grave=phase.grave, card=grave.card, totals=tally))
        else:
            batch.emit(ev("grave_looted", seat=winner, grave=phase.grave, card=grave.card, totals=tally))
        cleared = [ghouls[s] for s in partners] + [counted[s] for s in partners if s in counted]
        batch.emit(ev("dig_cleared", grave=phase.grave, cards=cleared))
        for s in partners:
            self._refill(batch, s)
        if all(g.looted_by is not None for g in batch.state.graves):
            batch.emit(ev("graveyard_emptied", points=self._points(batch.state, table.players)))
        else:
            batch.emit(ev("hound_turn_began", seat=next_seat(table, phase.seat)))

    def _refill(self, batch: Batch, seat: int) -> None:
        """Additional Rules: hands are kept at 5 at all times (while the pile lasts; the Hound never reshuffles)."""
        batch.emit(*draw(batch.table, seat, HAND_SIZE - len(batch.table.hands[seat])))

    # -- evolve --------------------------------------------------------------------------------------------

    def evolve(self, table: Table, state: HoundState, event: Event) -> tuple[Table, HoundState]:
        d = event.data
        replace = dataclasses.replace
        match event.type:
            case "graveyard_laid":
                graves = tuple(Grave(c) for c in d["graves"])
                return replace(table, pile=table.pile[len(graves):]), replace(
                    state, graves=graves, phase=PeekPrivilege()
                )
            case "grave_peeked":
                return table, replace(state, peeks=state.peeks | {(d["seat"], d["grave"])})
            case "peek_declined" | "turn_passed_without_ghoul":
                return table, state
            case "hound_turn_began":
                return table, replace(state, phase=Placing(d["seat"]))
            case "ghoul_placed":
                table = with_hand(table, d["seat"], remove_cards(table.hands[d["seat"]], [d["card"]]))
                state = self._with_grave(state, d["grave"], lambda g: replace(g, ghouls=g.ghouls + ((d["seat"], d["card"]),)))
                return table, replace(state, phase=Placed(d["seat"], d["grave"]))
            case "ghoul_kept":
                return table, state
            case "ghoul_moved":
                seat = d["seat"]
                state = self._with_grave(state, d["source"], lambda g: replace(g, ghouls=tuple(x for x in g.ghouls if x[0] != seat)))
                state = self._with_grave(state, d["grave"], lambda g: replace(g, ghouls=g.ghouls + ((seat, d["card"]),)))
                return table, state
            case "grave_dug_up":
                state = self._with_grave(state, d["grave"], lambda g: replace(g, face_up=True))
                return table, replace(state, phase=Digging(d["turn"], d["grave"]))
            case "henchman_sealed":
                phase = state.phase
                assert isinstance(phase, Digging)
                if d["card"] is not None:
                    table = with_hand(table, d["seat"], remove_cards(table.hands[d["seat"]], [d["card"]]))
                sealed = phase.sealed + ((d["seat"], d["choice"], d["card"]),)
                return table, replace(state, phase=replace(phase, sealed=sealed))
            case "henchmen_revealed" | "henchman_psyched_out":
                return table, self._unseal(state, [d["seat"]] if "seat" in d else [], discard=True)
            case "dummies_discarded":
                phase = state.phase
                assert isinstance(phase, Digging)
                return table, self._unseal(state, [s for s, _, _ in phase.sealed], discard=True)
            case "dummy_returned":
                table = with_hand(table, d["seat"], table.hands[d["seat"]] + (d["card"],))
                return table, self._unseal(state, [d["seat"]], discard=False)
            case "grave_looted":
                return table, self._with_grave(state, d["grave"], lambda g: replace(g, looted_by=d["seat"]))
            case "dig_tied":
                return table, state
            case "dig_cleared":
                phase = state.phase
                assert isinstance(phase, Digging)
                state = self._with_grave(state, d["grave"], lambda g: replace(g, ghouls=()))
                return table, replace(state, discards=state.discards + tuple(d["cards"]), phase=replace(phase, sealed=()))
            case "graveyard_emptied":
                return table, replace(state, phase=Emptied())
            case _:
                raise TypeError(f"The Hound has no event {event.type!r}")

    @staticmethod
    def _with_grave(state: HoundState, index: int, change: Any) -> HoundState:
        graves = list(state.graves)
        graves[index] = change(graves[index])
        return dataclasses.replace(state, graves=tuple(graves))

    @staticmethod
    def _unseal(state: HoundState, seats: list[int], discard: bool) -> HoundState:
        """Take ``seats``' sealed cards off the table: to the discards, or (a dummy) back to the hand."""
        phase = state.phase
        assert isinstance(phase, Digging)
        gone = [(s, k, c) for s, k, c in phase.sealed if s in seats]
        keep = tuple(x for x in phase.sealed if x[0] not in seats)
        cards = tuple(c for _, _, c in gone if c is not None) if discard else ()
        return dataclasses.replace(state, phase=dataclasses.replace(phase, sealed=keep), discards=state.discards + cards)

    # -- end, view, conservation ---------------------------------------------------------------------------

    @staticmethod
    def _points(state: HoundState, players: int) -> list[int]:
        points = [0] * players
        for g in state.graves:
            if g.looted_by is not None:
                points[g.looted_by] += rank(g.card)
        return points

    def _stuck(self, table: Table, state: HoundState) -> bool:
        """Nobody can send a ghoul any more (empty hands, or only her own ghouls on the graves left)."""
        return isinstance(state.phase, Placing) and not any(
            table.hands[s] and self._open_graves(state, s) for s in range(table.players)
        )

    def result(self, table: Table, state: HoundState) -> RiteResult | None:
        """The Win: the most looted points (ties: the first of them in turn order from the Grand Cultist)."""
        if isinstance(state.phase, Emptied):
            reason = "graveyard_looted"
        elif self._stuck(table, state):
            reason = "no_ghouls_left"
        else:
            return None
        points = self._points(state, table.players)
        top = max(points)
        return RiteResult(first_in_order(table, [s for s, p in enumerate(points) if p == top]), reason)

    def view(self, table: Table, state: HoundState, viewer: Any) -> dict[str, Any]:
        phase = state.phase
        graves = []
        for i, g in enumerate(state.graves):
            item: dict[str, Any] = {"grave": i, "ghouls": [{"seat": s, "card": c} for s, c in g.ghouls]}
            if g.looted_by is not None:
                item.update(status="looted", card=g.card, looted_by=g.looted_by)
            elif g.face_up:
                item.update(status="face_up", card=g.card)
            else:
                item["status"] = "face_down"
                if viewer is not None and (sees(viewer, []) or (viewer, i) in state.peeks):
                    item["card"] = g.card
                    item["peeked"] = True
            graves.append(item)
        out: dict[str, Any] = {
            "phase": type(phase).__name__.lower(),
            "graves": graves,
            "points": {str(s): p for s, p in enumerate(self._points(state, table.players))},
            "discards": list(state.discards),
        }
        if isinstance(phase, PeekPrivilege):
            out["turn"] = opener(table)
        if isinstance(phase, (Placing, Placed, Digging)):
            out["turn"] = phase.seat
        if isinstance(phase, Placed):
            out["placed_at"] = phase.grave
        if isinstance(phase, Digging):
            dig: dict[str, Any] = {"grave": phase.grave, "sealed": [s for s, _, _ in phase.sealed]}
            for s, kind, card in phase.sealed:
                if sees(viewer, [s]):
                    dig.setdefault("choices", {})[str(s)] = {"choice": kind, "card": card}
                elif hand_audience(table, s) is None and card is not None:
                    dig.setdefault("cards", {})[str(s)] = card
            out["dig"] = dig
        return out

    def cards(self, state: HoundState) -> tuple[int, ...]:
        out = [g.card for g in state.graves] + [c for g in state.graves for _, c in g.ghouls] + list(state.discards)
        if isinstance(state.phase, Digging):
            out += [c for _, _, c in state.phase.sealed if c is not None]
        return tuple(out)

    def resample_hidden(self, table: Table, state: HoundState, seat: int, rng: Any) -> tuple[Table, HoundState]:
        """Everything ``seat`` cannot know: other hands, the pile, the face-down graves it has not peeked at and
        other seats' sealed cards, together (its own peeks stay: knowledge of one seat)."""
        graves = [i for i, g in enumerate(state.graves) if not g.face_up and (seat, i) not in state.peeks]
        phase = state.phase
        sealed = []
        if isinstance(phase, Digging):
            sealed = [
                i for i, (s, _, c) in enumerate(phase.sealed)
                if s != seat and c is not None and hand_audience(table, s) is not None
            ]
        extra = [state.graves[i].card for i in graves] + [phase.sealed[i][2] for i in sealed]
        table, tail = redistribute(table, seat, rng, extra)
        new_graves = list(state.graves)
        for i in graves:
            new_graves[i] = dataclasses.replace(new_graves[i], card=tail.pop(0))
        state = dataclasses.replace(state, graves=tuple(new_graves))
        if sealed:
            entries = list(phase.sealed)
            for i in sealed:
                s, kind, _ = entries[i]
                card = tail.pop(0)
                if kind == HENCHMAN and cult(card) != cult(self._ghoul(state, phase.grave, s)):
                    kind = DUMMY
                entries[i] = (s, kind, card)
            state = dataclasses.replace(state, phase=dataclasses.replace(phase, sealed=tuple(entries)))
        return table, state

    def resample(self, table: Table, state: HoundState, seat: int, rng: Any) -> tuple[Table, HoundState]:
        """What no other seat's next move can show ``seat``: other hands and the pile below its top 5 cards.

        Another seat's move may dig up any grave, reveal the sealed henchmen and refill ``seat`` from the pile,
        so those stay in place: the kernel's one-move non-interference check compares that move's events in both
        worlds (``resample_hidden`` redistributes them too).
        """
        top = table.pile[:HAND_SIZE]
        new = resample_table(dataclasses.replace(table, pile=table.pile[HAND_SIZE:]), seat, rng)
        return dataclasses.replace(new, pile=top + new.pile), state

    def invariant(self, table: Table, state: HoundState) -> None:
        if isinstance(state.phase, Laying):
            return
        assert len(state.graves) == table.players + 1
        for g in state.graves:
            assert len(g.ghouls) <= 2 and len({s for s, _ in g.ghouls}) == len(g.ghouls)
            assert g.looted_by is None or (g.face_up and not g.ghouls)
        phase = state.phase
        if isinstance(phase, Digging):
            assert len(state.graves[phase.grave].ghouls) == 2 and state.graves[phase.grave].face_up
            assert len(phase.sealed) <= 2
        else:
            placed = phase.grave if isinstance(phase, Placed) else None
            assert all(len(g.ghouls) < 2 for i, g in enumerate(state.graves) if i != placed)
