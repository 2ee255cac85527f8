"""The Dunwich Horror (Rites of Cthulhu rulebook, "Dunwich Horror", p. 29): free the twins by capturing the walls.

The twin brothers, Wilbur Whateley (blue 7) and The Dunwich Horror (blue 6), are set aside face up and each is
walled in with four face-down cards from the pile. On her turn a cultist either reveals a wall card with a pair
whose elder sign sum or difference equals its twin's elder sign (then captures it with a second pair or knocks),
captures an earlier revealed wall card with a pair whose sum or difference equals that card's elder sign, or
discards two cards and draws two. Hands are drawn back to 5 only at the end of one's own turn; an empty pile is
refilled by reshuffling the discards. When the revealer cannot capture, she knocks and every other cultist may
claim the card: the first valid claim the server applies wins, and the log records the arrival order. The rite
ends when every wall card is captured; the most captured elder sign points wins.

Rulings (docs/rulings/rites-of-cthulhu.md, second part): a turn is one reveal (plus its capture or knock), one
capture of an earlier revealed card, or the discard-two-draw-two; a pair is two different cards, listed in
ascending order; the claim window closes when every other cultist has passed (the server's turn timer plays for
a silent seat); the Grand Cultist's arbitration of simultaneous knocks is never needed.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from itertools import combinations
from typing import Any

from marshmallow import Schema, fields, post_load, validate

from shared.kernel import Event, ev, sees

from shared.games.rites_of_cthulhu.cards import entity
from shared.games.rites_of_cthulhu.rites.base import (
    Batch,
    NoFields,
    DrawCard,
    EndTurn,
    Rite,
    RiteResult,
    Table,
    draw,
    first_in_order,
    next_seat,
    opener,
    rank,
    remove_cards,
    require,
    resample_table,
    violation,
    with_hand,
)

WILBUR = entity("Wilbur Whateley")
HORROR = entity("The Dunwich Horror")
TWINS = (WILBUR, HORROR)
WALLS_PER_TWIN = 4
HAND_SIZE = 5


def twin_of(slot: int) -> int:
    """The twin whose farmhouse wall slot ``slot`` belongs to (slots 0-3 Wilbur, 4-7 The Dunwich Horror)."""
    return TWINS[slot // WALLS_PER_TWIN]


def redistribute(table: Table, seat: int, rng: Any, extra: list[int]) -> tuple[Table, list[int]]:
    """``resample_table`` with the rite's own unseen cards (``extra``) pooled with the other unseen cards."""
    if table.mods.open_hands:  # the pile stays (draws are public); the rite's unseen cards shuffle among themselves
        extra = list(extra)
        rng.shuffle(extra)
        return resample_table(table, seat, rng), extra
    size = len(table.pile)
    new = resample_table(dataclasses.replace(table, pile=table.pile + tuple(extra)), seat, rng)
    return dataclasses.replace(new, pile=new.pile[:size]), list(new.pile[size:])


def pair_makes(cards: Iterable[int], target: int) -> bool:
    """A pair reveals or captures ``target`` when the sum or the difference of its elder signs equals it."""
    a, b = (rank(c) for c in cards)
    return a + b == target or abs(a - b) == target


# --- state --------------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Building:
    """The rite was picked; the farmhouses are not built yet."""


@dataclass(frozen=True, slots=True)
class Replacing:
    """Cultists who handed a twin over draw their hands back to 5 (each on her own command) before the first turn."""

    waiting: frozenset[int]


@dataclass(frozen=True, slots=True)
class Turn:
    """``seat`` may reveal, capture an earlier revealed card, or discard two and draw two.

    ``seat`` is None before the first move: the rite's opener, read when needed (an artifact may change it)."""

    seat: int | None = None


@dataclass(frozen=True, slots=True)
class Revealed:
    """``seat`` revealed wall ``wall`` this turn: she captures it with a second pair or knocks."""

    seat: int
    wall: int


@dataclass(frozen=True, slots=True)
class Claims:
    """The claim window after ``revealer`` knocked: ``passed`` lists the seats that passed, in arrival order."""

    revealer: int
    wall: int
    passed: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class Freed:
    """Every wall card is captured: the twins are free and the rite is over."""


@dataclass(frozen=True, slots=True)
class LastClaims:
    """How the latest claim window closed (so a late knock learns why it is refused)."""

    wall: int
    claimant: int | None


@dataclass(frozen=True, slots=True)
class DunwichState:
    phase: Building | Replacing | Turn | Revealed | Claims | Freed
    twins: tuple[int, ...] = ()
    walls: tuple[int | None, ...] = ()
    face_up: frozenset[int] = frozenset()
    captured: tuple[tuple[int, ...], ...] = ()
    discards: tuple[int, ...] = ()
    last_claims: LastClaims | None = None


# --- commands -----------------------------------------------------------------------------------------------


class CardPair(Schema):
    """Two cards from the hand; a pair is a set, so it is loaded in ascending order."""

    cards = fields.List(fields.Integer(), required=True, validate=validate.Length(equal=2))

    @post_load
    def _ascending(self, data: dict[str, Any], **_: Any) -> dict[str, Any]:
        data["cards"] = sorted(data["cards"])
        return data


class WallPair(CardPair):
    wall = fields.Integer(required=True)


# --- the rite -----------------------------------------------------------------------------------------------


class DunwichHorror(Rite):
    id = "dunwich_horror"
    title = "The Dunwich Horror"
    summary = (
        "Free the twins Wilbur Whateley (7) and The Dunwich Horror (6) by revealing and capturing their face-down "
        "farmhouse walls with card pairs whose elder sign sum or difference matches; most captured points wins."
    )
    privilege = "Takes the first turn. (Arbitrating simultaneous knocks is never needed: the first knock applied wins.)"
    commands = {
        "reveal_wall": WallPair,
        "capture_wall": WallPair,
        "call_knock": NoFields,
        "knock": CardPair,
        "pass_knock": NoFields,
        "discard_and_draw": CardPair,
        "end_turn": EndTurn,
        "draw_card": DrawCard,
    }
    state_types = (DunwichState, Building, Replacing, Turn, Revealed, Claims, Freed, LastClaims)

    # -- setup -------------------------------------------------------------------------------------------

    def initial(self, table: Table) -> DunwichState:
        return DunwichState(phase=Building(), captured=((),) * table.players)

    def begin(self, table: Table, state: DunwichState, rng: Any) -> list[Event]:
        """The Deal: take out the twins (holders hand them over), wall each in with 4 face-down pile cards.

        The holders draw their hands back to 5 on their own ``draw_card`` before the first turn, so the Grand
        Cultist's choice of the rite shows nobody another seat's hand or the pile (see the rulings).
        """
        batch = Batch(self, table, state, rng)
        holders = sorted({s for s, hand in enumerate(table.hands) for c in hand if c in TWINS})
        batch.emit(ev("twins_set_aside", twins=list(TWINS), holders=holders, secret={"holders": []}))
        walls = list(batch.table.pile[: 2 * WALLS_PER_TWIN])
        batch.emit(ev("farmhouse_walls_built", count=len(walls), walls=walls, secret={"walls": []}))
        return batch.events

    # -- who acts and what they may do -----------------------------------------------------------------

    @staticmethod
    def turn_seat(table: Table, state: DunwichState) -> int | None:
        """Whose turn it is (during a claim window: the revealer's)."""
        phase = state.phase
        if isinstance(phase, Turn):
            return opener(table) if phase.seat is None else phase.seat
        if isinstance(phase, Revealed):
            return phase.seat
        if isinstance(phase, Claims):
            return phase.revealer
        return None

    def to_act(self, table: Table, state: DunwichState) -> frozenset[int]:
        phase = state.phase
        if isinstance(phase, Replacing):
            return phase.waiting
        if isinstance(phase, (Turn, Revealed)):
            return frozenset({self.turn_seat(table, state)})
        if isinstance(phase, Claims):
            return frozenset(s for s in range(table.players) if s != phase.revealer and s not in phase.passed)
        return frozenset()

    def legal_commands(self, table: Table, state: DunwichState, seat: int) -> list[dict[str, Any]]:
        if seat not in self.to_act(table, state):
            return []
        phase = state.phase
        pairs = [list(p) for p in combinations(sorted(table.hands[seat]), 2)]
        out: list[dict[str, Any]] = []
        if isinstance(phase, Replacing):
            out.append({"type": "draw_card"})
        elif isinstance(phase, Turn):
            for pair in pairs:
                for slot in self._face_down(state):
                    if pair_makes(pair, rank(twin_of(slot))):
                        out.append({"type": "reveal_wall", "cards": pair, "wall": slot})
                for slot in sorted(state.face_up):
                    if pair_makes(pair, rank(state.walls[slot])):
                        out.append({"type": "capture_wall", "cards": pair, "wall": slot})
            out += [{"type": "discard_and_draw", "cards": pair} for pair in pairs]
            if not out:
                out.append({"type": "end_turn"})
        elif isinstance(phase, Revealed):
            target = rank(state.walls[phase.wall])
            out += [{"type": "capture_wall", "cards": p, "wall": phase.wall} for p in pairs if pair_makes(p, target)]
            out.append({"type": "call_knock"})
        elif isinstance(phase, Claims):
            target = rank(state.walls[phase.wall])
            out += [{"type": "knock", "cards": p} for p in pairs if pair_makes(p, target)]
            out.append({"type": "pass_knock"})
        return out

    # -- decide ------------------------------------------------------------------------------------------

    def decide(self, table: Table, state: DunwichState, command: Mapping[str, Any], seat: int, rng: Any) -> list[Event]:
        kind = command["type"]
        batch = Batch(self, table, state, rng)
        phase = state.phase
        if kind in ("knock", "pass_knock"):
            self._claim(batch, seat, command)
            return batch.events
        if kind == "draw_card":
            require(
                isinstance(phase, Replacing) and seat in phase.waiting,
                "rules/no_replacement_due",
                "Only a cultist who handed a twin over draws back to 5 cards, before the first turn.",
            )
            self._refill(batch, seat)
            batch.emit(ev("twin_replacement_drawn", seat=seat))
            return batch.events
        require(
            not isinstance(phase, Replacing),
            "rules/replacements_pending",
            "Wait until the cultists who handed a twin over have drawn back to 5 cards.",
        )
        require(isinstance(phase, (Turn, Revealed, Claims)), "rules/rite_not_running", "The rite is not being played.")
        if isinstance(phase, Claims):
            raise violation("rules/claim_window_open", "Wait until the knock on the table is answered.")
        require(self.turn_seat(table, state) == seat, "rules/not_your_turn", "It is not your turn.")
        if kind == "reveal_wall":
            require(isinstance(phase, Turn), "rules/one_reveal_per_turn", "You have already revealed a wall card this turn.")
            cards = self._pair(table, seat, command["cards"])
            slot = command["wall"]
            require(slot in self._face_down(state), "rules/wall_not_face_down", "Pick a face-down wall card.", wall=slot)
            twin = twin_of(slot)
            require(
                pair_makes(cards, rank(twin)),
                "rules/pair_does_not_match",
                f"The sum or difference of your pair must equal the twin's elder sign ({rank(twin)}).",
            )
            batch.emit(ev("wall_revealed", seat=seat, cards=cards, wall=slot, twin=twin, card=state.walls[slot]))
        elif kind == "capture_wall":
            cards = self._pair(table, seat, command["cards"])
            slot = command["wall"]
            if isinstance(phase, Revealed):
                require(slot == phase.wall, "rules/capture_the_revealed_card", "Capture the card you just revealed, or knock.")
            require(slot in state.face_up, "rules/wall_not_revealed", "Only a revealed wall card can be captured.", wall=slot)
            card = state.walls[slot]
            require(
                pair_makes(cards, rank(card)),
                "rules/pair_does_not_match",
                f"The sum or difference of your pair must equal the wall card's elder sign ({rank(card)}).",
            )
            batch.emit(ev("wall_captured", seat=seat, cards=cards, wall=slot, card=card))
            self._end_turn(batch, seat)
        elif kind == "call_knock":
            require(isinstance(phase, Revealed), "rules/nothing_to_knock_for", "Knock only after revealing a wall card.")
            batch.emit(ev("knock_called", seat=seat, wall=phase.wall, card=state.walls[phase.wall]))
        elif kind == "discard_and_draw":
            require(isinstance(phase, Turn), "rules/one_reveal_per_turn", "You have already revealed a wall card this turn.")
            cards = self._pair(table, seat, command["cards"])
            batch.emit(ev("two_cards_discarded", seat=seat, cards=cards))
            self._draw(batch, seat, 2)
            self._end_turn(batch, seat)
        elif kind == "end_turn":
            require(isinstance(phase, Turn), "rules/must_capture_or_knock", "Capture the revealed card or knock.")
            require(
                self.legal_commands(table, state, seat) == [{"type": "end_turn"}],
                "rules/must_act",
                "You can still reveal, capture or discard two cards: you may not pass.",
            )
            self._end_turn(batch, seat)
        else:
            raise violation("rules/unknown_command", f"The Dunwich Horror has no command {kind!r}.")
        return batch.events

    def _claim(self, batch: Batch, seat: int, command: Mapping[str, Any]) -> None:
        """The knock race: the first valid claim applied wins; later ones find the window closed."""
        state, table = batch.state, batch.table
        phase = state.phase
        if not isinstance(phase, Claims):
            last = state.last_claims
            if last is not None and last.claimant is not None:
                raise violation(
                    "rules/knock_already_claimed", "Another cultist knocked first and already took that wall card."
                )
            raise violation("rules/no_knock_window", "Nobody is waiting for a knock right now.")
        require(seat != phase.revealer, "rules/revealer_cannot_claim", "You revealed this card: the others may claim it.")
        require(seat not in phase.passed, "rules/already_passed", "You have already passed on this wall card.")
        arrival = len(phase.passed) + 1
        if command["type"] == "pass_knock":
            batch.emit(ev("knock_passed", seat=seat, wall=phase.wall, arrival=arrival))
            if len(batch.state.phase.passed) == table.players - 1:
                batch.emit(ev("claims_closed", wall=phase.wall, passed=list(batch.state.phase.passed)))
                self._end_turn(batch, phase.revealer)
            return
        cards = self._pair(table, seat, command["cards"])
        card = state.walls[phase.wall]
        require(
            pair_makes(cards, rank(card)),
            "rules/pair_does_not_match",
            f"The sum or difference of your pair must equal the wall card's elder sign ({rank(card)}).",
        )
        batch.emit(
            ev(
                "wall_claimed",
                seat=seat,
                cards=cards,
                wall=phase.wall,
                card=card,
                revealer=phase.revealer,
                arrival=arrival,
                order=[*phase.passed, seat],
            )
        )
        self._end_turn(batch, phase.revealer)

    def _pair(self, table: Table, seat: int, cards: list[int]) -> list[int]:
        cards = sorted(cards)
        require(cards[0] != cards[1], "rules/pair_needs_two_cards", "A pair is two different cards.")
        require(
            all(c in table.hands[seat] for c in cards), "rules/cards_not_in_hand", "Play cards from your own hand."
        )
        return cards

    @staticmethod
    def _face_down(state: DunwichState) -> list[int]:
        return [i for i, c in enumerate(state.walls) if c is not None and i not in state.face_up]

    def _end_turn(self, batch: Batch, seat: int) -> None:
        """The end of a turn: free the twins if no wall is left, else refill to 5 and pass the turn on."""
        if all(c is None for c in batch.state.walls):
            batch.emit(ev("twins_freed", points=self._points(batch.state)))
            return
        self._refill(batch, seat)
        batch.emit(ev("dunwich_turn_began", seat=next_seat(batch.table, seat)))

    def _refill(self, batch: Batch, seat: int) -> None:
        self._draw(batch, seat, HAND_SIZE - len(batch.table.hands[seat]))

    def _draw(self, batch: Batch, seat: int, count: int) -> None:
        """Draw ``count`` cards, reshuffling the discards into a fresh pile whenever the pile runs out."""
        while count > 0:
            if not batch.table.pile:
                if not batch.state.discards:
                    return
                order = list(batch.state.discards)
                batch.rng.shuffle(order)
                batch.emit(ev("dunwich_discards_reshuffled", count=len(order), order=order, secret={"order": []}))
            drawn = draw(batch.table, seat, count)
            batch.emit(*drawn)
            count -= len(drawn[0].data["cards"]) if drawn else 0
        if not batch.table.pile and batch.state.discards:
            order = list(batch.state.discards)
            batch.rng.shuffle(order)
            batch.emit(ev("dunwich_discards_reshuffled", count=len(order), order=order, secret={"order": []}))

    # -- evolve --------------------------------------------------------------------------------------------

    def evolve(self, table: Table, state: DunwichState, event: Event) -> tuple[Table, DunwichState]:
        d = event.data
        replace = dataclasses.replace
        match event.type:
            case "twins_set_aside":
                twins = tuple(d["twins"])
                hands = tuple(remove_cards(h, twins) for h in table.hands)
                table = replace(
                    table,
                    hands=hands,
                    pile=remove_cards(table.pile, twins),
                    set_aside=remove_cards(table.set_aside, twins),
                    face_down=tuple(x for x in table.face_down if x[0] not in twins),
                )
                phase = Replacing(frozenset(d["holders"])) if d["holders"] else Turn()
                return table, replace(state, twins=twins, phase=phase)
            case "twin_replacement_drawn":
                phase = state.phase
                assert isinstance(phase, Replacing)
                waiting = phase.waiting - {d["seat"]}
                return table, replace(state, phase=Replacing(waiting) if waiting else Turn())
            case "farmhouse_walls_built":
                walls = tuple(d["walls"])
                return replace(table, pile=table.pile[len(walls):]), replace(state, walls=walls)
            case "dunwich_turn_began":
                return table, replace(state, phase=Turn(d["seat"]))
            case "wall_revealed":
                table, state = self._discard(table, state, d["seat"], d["cards"])
                return table, replace(state, face_up=state.face_up | {d["wall"]}, phase=Revealed(d["seat"], d["wall"]))
            case "wall_captured" | "wall_claimed":
                table, state = self._discard(table, state, d["seat"], d["cards"])
                walls = list(state.walls)
                walls[d["wall"]] = None
                captured = list(state.captured)
                captured[d["seat"]] = captured[d["seat"]] + (d["card"],)
                state = replace(
                    state, walls=tuple(walls), face_up=state.face_up - {d["wall"]}, captured=tuple(captured)
                )
                if event.type == "wall_claimed":
                    state = replace(state, phase=Turn(d["revealer"]), last_claims=LastClaims(d["wall"], d["seat"]))
                return table, state
            case "knock_called":
                return table, replace(state, phase=Claims(d["seat"], d["wall"]), last_claims=None)
            case "knock_passed":
                phase = state.phase
                assert isinstance(phase, Claims)
                return table, replace(state, phase=replace(phase, passed=phase.passed + (d["seat"],)))
            case "claims_closed":
                phase = state.phase
                assert isinstance(phase, Claims)
                return table, replace(state, phase=Turn(phase.revealer), last_claims=LastClaims(d["wall"], None))
            case "two_cards_discarded":
                return self._discard(table, state, d["seat"], d["cards"])
            case "dunwich_discards_reshuffled":
                return replace(table, pile=table.pile + tuple(d["order"])), replace(state, discards=())
            case "twins_freed":
                return table, replace(state, phase=Freed())
            case _:
                raise TypeError(f"The Dunwich Horror has no event {event.type!r}")

    @staticmethod
    def _discard(table: Table, state: DunwichState, seat: int, cards: list[int]) -> tuple[Table, DunwichState]:
        table = with_hand(table, seat, remove_cards(table.hands[seat], cards))
        return table, dataclasses.replace(state, discards=state.discards + tuple(cards))

    # -- end, view, conservation ---------------------------------------------------------------------------

    @staticmethod
    def _points(state: DunwichState) -> list[int]:
        return [sum(rank(c) for c in cards) for cards in state.captured]

    def result(self, table: Table, state: DunwichState) -> RiteResult | None:
        """The Win: the most captured wall points (ties: the first of them in turn order from the Grand Cultist)."""
        if not isinstance(state.phase, Freed):
            return None
        points = self._points(state)
        top = max(points)
        return RiteResult(first_in_order(table, [s for s, p in enumerate(points) if p == top]), "twins_freed")

    def view(self, table: Table, state: DunwichState, viewer: Any) -> dict[str, Any]:
        phase = state.phase
        walls = []
        for slot, card in enumerate(state.walls):
            wall: dict[str, Any] = {"slot": slot, "twin": twin_of(slot)}
            if card is None:
                wall["status"] = "captured"
            elif slot in state.face_up:
                wall.update(status="face_up", card=card, elder_sign=rank(card))
            else:
                wall["status"] = "face_down"
                if sees(viewer, ()):  # full information only (the audit)
                    wall["card"] = card
            walls.append(wall)
        out: dict[str, Any] = {
            "phase": type(phase).__name__.lower(),
            "turn": self.turn_seat(table, state),
            "twins": [{"card": c, "elder_sign": rank(c)} for c in state.twins],
            "walls": walls,
            "captured": {str(s): list(cards) for s, cards in enumerate(state.captured)},
            "points": {str(s): p for s, p in enumerate(self._points(state))},
            "discards": list(state.discards),
        }
        if isinstance(phase, Replacing):
            out["replacing"] = sorted(phase.waiting)
        if isinstance(phase, Revealed):
            out["revealed_wall"] = phase.wall
        if isinstance(phase, Claims):
            out["claims"] = {
                "revealer": phase.revealer,
                "wall": phase.wall,
                "passed": list(phase.passed),
                "waiting": sorted(self.to_act(table, state)),
            }
        if state.last_claims is not None:
            out["last_claims"] = {"wall": state.last_claims.wall, "claimant": state.last_claims.claimant}
        return out

    def cards(self, state: DunwichState) -> tuple[int, ...]:
        walls = tuple(c for c in state.walls if c is not None)
        return state.twins + walls + tuple(c for cards in state.captured for c in cards) + state.discards

    def resample(self, table: Table, state: DunwichState, seat: int, rng: Any) -> tuple[Table, DunwichState]:
        """What no other seat's next move can show ``seat``: other hands and the pile below its top 5 cards.

        Another seat's move may reveal any wall card, and closing a claim window refills the revealer (who may be
        ``seat``) from the top of the pile, so those stay in place: the kernel's one-move non-interference check
        compares the events of that move in both worlds. ``resample_hidden`` redistributes the walls too.
        """
        top = table.pile[:HAND_SIZE]
        new = resample_table(dataclasses.replace(table, pile=table.pile[HAND_SIZE:]), seat, rng)
        return dataclasses.replace(new, pile=top + new.pile), state

    def resample_hidden(self, table: Table, state: DunwichState, seat: int, rng: Any) -> tuple[Table, DunwichState]:
        """Everything ``seat`` cannot know: other hands, the pile and every face-down wall card, together."""
        slots = self._face_down(state)
        table, cards = redistribute(table, seat, rng, [state.walls[i] for i in slots])
        walls = list(state.walls)
        for slot, card in zip(slots, cards):
            walls[slot] = card
        return table, dataclasses.replace(state, walls=tuple(walls))

    def invariant(self, table: Table, state: DunwichState) -> None:
        if isinstance(state.phase, Building):
            return
        assert state.twins == TWINS
        assert len(state.walls) == 2 * WALLS_PER_TWIN
        assert all(state.walls[i] is not None for i in state.face_up)
        assert len(state.captured) == table.players
        phase = state.phase
        if isinstance(phase, Revealed):
            assert phase.wall in state.face_up
        if isinstance(phase, Claims):
            assert phase.wall in state.face_up and phase.revealer not in phase.passed
        if isinstance(phase, Freed):
            assert all(c is None for c in state.walls)
