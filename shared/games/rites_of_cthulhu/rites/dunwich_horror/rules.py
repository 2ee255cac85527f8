"""The Dunwich Horror's rules (rulebook "Dunwich Horror", p. 29): free the twins by capturing the walls.

The twin brothers, Wilbur Whateley (blue 7) and The Dunwich Horror (blue 6), are set aside face up and each is
walled in with four face-down cards from the pile. On her turn a cultist either reveals a wall card with a pair
whose elder sign sum or difference equals its twin's elder sign (then captures it with a second pair or knocks),
captures an earlier revealed wall card with a pair whose sum or difference equals that card's elder sign, or
discards two cards and draws two. Hands are drawn back to 5 only at the end of one's own turn; an empty pile is
refilled by reshuffling the discards. When the revealer cannot capture, she knocks and every other cultist may
claim the card: the first valid claim the server applies wins, and the log records the arrival order. The rite
ends when every wall card is captured; the most captured elder sign points wins.

Rulings (docs/rulings/rites-of-cthulhu.md): a turn is one reveal (plus its capture or knock), one capture of an
earlier revealed card, or the discard-two-draw-two; a pair is two different cards, listed in ascending order; the
claim window closes when every other cultist has passed; the Grand Cultist's arbitration of simultaneous knocks
is never needed.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from itertools import combinations

from shared.kernel import Command, Decision, Fact, RuleViolation, replace, replace_at
from shared.kernel.errors import require

from shared.games.rites_of_cthulhu.cards import HAND_SIZE, RANKS, rank
from shared.games.rites_of_cthulhu.rites.base import DrawCard, EndTurn, RiteEnd, RiteResult, here
from shared.games.rites_of_cthulhu.rites.dunwich_horror.cards import TWINS, WALLS_PER_TWIN, twin_of
from shared.games.rites_of_cthulhu.rites.dunwich_horror.commands import (
    CallKnock, CaptureWall, DiscardAndDraw, Knock, PassKnock, RevealWall,
)
from shared.games.rites_of_cthulhu.rites.dunwich_horror.events import (
    ClaimsClosed,
    DunwichDiscardsReshuffled,
    DunwichTurnBegan,
    FarmhouseWallsBuilt,
    KnockCalled,
    KnockPassed,
    TwinReplacementDrawn,
    TwinsFreed,
    TwinsSetAside,
    TwoCardsDiscarded,
    WallCaptured,
    WallClaimed,
    WallRevealed,
)
from shared.games.rites_of_cthulhu.rites.dunwich_horror.state import (
    Building,
    Claims,
    DunwichState,
    Freed,
    LastClaims,
    Replacing,
    Revealed,
    Turn,
)
from shared.games.rites_of_cthulhu.rites.table import (
    draw, drawn, first_in_order, next_seat, opener, remove_cards, without,
)
from shared.games.rites_of_cthulhu.state import RitesState, Tabletop


def pair_makes(cards: Iterable[int], target: int) -> bool:
    """A pair reveals or captures ``target`` when the sum or the difference of its elder signs equals it."""
    a, b = cards
    a, b = a % RANKS, b % RANKS  # their elder signs (cards.rank, inlined: a playout asks this thousands of times)
    return a + b == target or abs(a - b) == target


def wall_card(state: DunwichState, slot: int) -> int:
    """The card at a wall slot not yet captured."""
    card = state.walls[slot]
    assert card is not None
    return card


def face_down(state: DunwichState) -> list[int]:
    return [i for i, c in enumerate(state.walls) if c is not None and i not in state.face_up]


def points(state: DunwichState) -> list[int]:
    return [sum(rank(c) for c in cards) for cards in state.captured]


# -- setup -------------------------------------------------------------------------------------------------------


def initial(table: Tabletop) -> DunwichState:
    return DunwichState(phase=Building(), captured=((),) * table.players)


def begin(d: Decision[RitesState]) -> None:
    """The Deal: take out the twins (holders hand them over in view of the table), wall each in with 4 face-down
    pile cards.

    The holders draw their hands back to 5 on their own ``draw_card`` before the first turn, so the Grand
    Cultist's choice of the rite shows nobody another seat's hand or the pile (see the rulings).
    """
    table = d.state.table
    holder = {c: s for s, hand in enumerate(table.hands) for c in hand}
    d.emit(TwinsSetAside(twins=list(TWINS), handed_over=[holder.get(twin) for twin in TWINS]))
    walls = list(d.state.table.pile[: 2 * WALLS_PER_TWIN])
    d.emit(FarmhouseWallsBuilt(count=len(walls), walls=walls), {"walls": []})


# -- who acts and what they may do ---------------------------------------------------------------------------------


def turn_seat(table: Tabletop, state: DunwichState) -> int | None:
    """Whose turn it is (during a claim window: the revealer's)."""
    phase = state.phase
    if isinstance(phase, Turn):
        return opener(table) if phase.seat is None else phase.seat
    if isinstance(phase, Revealed):
        return phase.seat
    if isinstance(phase, Claims):
        return phase.revealer
    return None


def to_act(table: Tabletop, state: DunwichState) -> frozenset[int]:
    phase = state.phase
    if isinstance(phase, Replacing):
        return phase.waiting
    if isinstance(phase, Turn):
        return frozenset({opener(table) if phase.seat is None else phase.seat})
    if isinstance(phase, Revealed):
        return frozenset({phase.seat})
    if isinstance(phase, Claims):
        return frozenset(s for s in range(table.players) if s != phase.revealer and s not in phase.passed)
    return frozenset()


def legal_commands(table: Tabletop, state: DunwichState, seat: int) -> list[Command]:
    if seat not in to_act(table, state):
        return []
    phase = state.phase
    pairs = list(combinations(sorted(table.hands[seat]), 2))
    out: list[Command] = []
    if isinstance(phase, Replacing):
        out.append(DrawCard())
    elif isinstance(phase, Turn):
        hidden = [(slot, rank(twin_of(slot))) for slot in face_down(state)]
        shown = [(slot, rank(wall_card(state, slot))) for slot in sorted(state.face_up)]
        for pair in pairs:
            for slot, target in hidden:
                if pair_makes(pair, target):
                    out.append(RevealWall(cards=pair, wall=slot))
            for slot, target in shown:
                if pair_makes(pair, target):
                    out.append(CaptureWall(cards=pair, wall=slot))
        out += [DiscardAndDraw(cards=pair) for pair in pairs]
        if not out:
            out.append(EndTurn())
    elif isinstance(phase, Revealed):
        target = rank(wall_card(state, phase.wall))
        out += [CaptureWall(cards=p, wall=phase.wall) for p in pairs if pair_makes(p, target)]
        out.append(CallKnock())
    elif isinstance(phase, Claims):
        target = rank(wall_card(state, phase.wall))
        out += [Knock(cards=p) for p in pairs if pair_makes(p, target)]
        out.append(PassKnock())
    return out


def timeout_command(table: Tabletop, state: DunwichState, seat: int, rng: random.Random) -> Command:
    """A silent cultist in a knock race passes and a silent revealer knocks (she produced no pair); otherwise a
    legal move at random."""
    if isinstance(state.phase, Claims):
        return PassKnock()
    if isinstance(state.phase, Revealed):
        return CallKnock()
    return rng.choice(legal_commands(table, state, seat))


# -- decide --------------------------------------------------------------------------------------------------------


def decide(d: Decision[RitesState], command: Command, seat: int) -> None:
    table, state = here(d)
    phase = state.phase
    if isinstance(command, (Knock, PassKnock)):
        _claim(d, seat, command)
        return
    if isinstance(command, DrawCard):
        require(isinstance(phase, Replacing), "rules/no_replacement_due",
                "Only a cultist who handed a twin over draws back to 5 cards, before the first turn.")
        _refill(d, seat)
        d.emit(TwinReplacementDrawn(seat=seat))
        return
    require(not isinstance(phase, Replacing), "rules/replacements_pending",
            "Wait until the cultists who handed a twin over have drawn back to 5 cards.")
    if isinstance(phase, Claims):
        raise RuleViolation("rules/claim_window_open", "Wait until the knock on the table is answered.")
    match command:
        case RevealWall(cards=pair, wall=slot):
            require(isinstance(phase, Turn), "rules/one_reveal_per_turn", "You have already revealed a wall card this turn.")
            cards = _pair(table, seat, pair)
            require(slot in face_down(state), "rules/wall_not_face_down", "Pick a face-down wall card.", wall=slot)
            twin = twin_of(slot)
            require(pair_makes(cards, rank(twin)), "rules/pair_does_not_match",
                    f"The sum or difference of your pair must equal the twin's elder sign ({rank(twin)}).")
            d.emit(WallRevealed(seat=seat, cards=cards, wall=slot, twin=twin, card=wall_card(state, slot)))
        case CaptureWall(cards=pair, wall=slot):
            cards = _pair(table, seat, pair)
            if isinstance(phase, Revealed):
                require(slot == phase.wall, "rules/capture_the_revealed_card", "Capture the card you just revealed, or knock.")
            require(slot in state.face_up, "rules/wall_not_revealed", "Only a revealed wall card can be captured.", wall=slot)
            card = wall_card(state, slot)
            require(pair_makes(cards, rank(card)), "rules/pair_does_not_match",
                    f"The sum or difference of your pair must equal the wall card's elder sign ({rank(card)}).")
            d.emit(WallCaptured(seat=seat, cards=cards, wall=slot, card=card))
            _end_turn(d, seat)
        case CallKnock():
            require(isinstance(phase, Revealed), "rules/nothing_to_knock_for", "Knock only after revealing a wall card.")
            d.emit(KnockCalled(seat=seat, wall=phase.wall, card=wall_card(state, phase.wall)))
        case DiscardAndDraw(cards=pair):
            require(isinstance(phase, Turn), "rules/one_reveal_per_turn", "You have already revealed a wall card this turn.")
            d.emit(TwoCardsDiscarded(seat=seat, cards=_pair(table, seat, pair)))
            _draw(d, seat, 2)
            _end_turn(d, seat)
        case EndTurn():
            require(isinstance(phase, Turn), "rules/must_capture_or_knock", "Capture the revealed card or knock.")
            require(legal_commands(table, state, seat) == [EndTurn()], "rules/must_act",
                    "You can still reveal, capture or discard two cards: you may not pass.")
            _end_turn(d, seat)
        case _:
            raise TypeError(f"the dunwich horror: no rule for {command!r}")


def _claim(d: Decision[RitesState], seat: int, command: Knock | PassKnock) -> None:
    """The knock race: the first valid claim applied wins. The window is open to the cultists the rite waits on (not
    the revealer, not one who passed), so a later knock is refused by the kernel's turn check: the game no longer
    waits on anyone for it."""
    table, state = here(d)
    phase = state.phase
    if not isinstance(phase, Claims):
        raise RuleViolation("rules/no_knock_window", "Nobody is waiting for a knock right now.")
    arrival = len(phase.passed) + 1
    if isinstance(command, PassKnock):
        d.emit(KnockPassed(seat=seat, wall=phase.wall, arrival=arrival))
        passed = here(d)[1].phase.passed
        if len(passed) == table.players - 1:
            d.emit(ClaimsClosed(wall=phase.wall, passed=list(passed)))
            _end_turn(d, phase.revealer)
        return
    cards = _pair(table, seat, command.cards)
    card = wall_card(state, phase.wall)
    require(pair_makes(cards, rank(card)), "rules/pair_does_not_match",
            f"The sum or difference of your pair must equal the wall card's elder sign ({rank(card)}).")
    d.emit(WallClaimed(seat=seat, cards=cards, wall=phase.wall, card=card, revealer=phase.revealer, arrival=arrival,
                       order=[*phase.passed, seat]))
    _end_turn(d, phase.revealer)


def _pair(table: Tabletop, seat: int, cards: tuple[int, ...]) -> list[int]:
    require(cards[0] != cards[1], "rules/pair_needs_two_cards", "A pair is two different cards.")
    require(all(c in table.hands[seat] for c in cards), "rules/cards_not_in_hand", "Play cards from your own hand.")
    return list(cards)


def _end_turn(d: Decision[RitesState], seat: int) -> None:
    """The end of a turn: free the twins if no wall is left, else refill to 5 and pass the turn on."""
    state = here(d)[1]
    if all(c is None for c in state.walls):
        d.emit(TwinsFreed(points=points(state)))
        return
    _refill(d, seat)
    d.emit(DunwichTurnBegan(seat=next_seat(d.state.table, seat)))


def _refill(d: Decision[RitesState], seat: int) -> None:
    _draw(d, seat, HAND_SIZE - len(d.state.table.hands[seat]))


def _draw(d: Decision[RitesState], seat: int, count: int) -> int:
    """Draw ``count`` cards, reshuffling the discards into a fresh pile whenever the pile runs out; how many."""
    drawn = 0
    while drawn < count:
        if not d.state.table.pile:
            if not here(d)[1].discards:
                break
            _reshuffle(d)
        drawn += draw(d, seat, count - drawn)
    if not d.state.table.pile and here(d)[1].discards:
        _reshuffle(d)
    return drawn


replacement_draw = _draw
"""A power-play's replacements and the artifacts' draws reshuffle the discards as the rite's own draws do."""


def drawable(table: Tabletop, state: DunwichState) -> int:
    """The cards a draw can reach: the pile, then the discards reshuffled."""
    return len(table.pile) + len(state.discards)


def _reshuffle(d: Decision[RitesState]) -> None:
    order = list(here(d)[1].discards)
    d.rng.shuffle(order)
    d.emit(DunwichDiscardsReshuffled(count=len(order), order=order), {"order": []})


# -- a playout's move ---------------------------------------------------------------------------------------------


class _Reshuffles(Exception):
    """A draw would reshuffle the discards (randomness ``simulate`` has not got): the move goes to ``decide``."""


def simulate(table: Tabletop, state: DunwichState, command: Command, seat: int
             ) -> tuple[Tabletop, DunwichState, int] | None:
    """``decide`` for a playout (``Rite.simulate``): the folds of the facts the listed move emits, without checking it
    or building them; ``None`` (to ``decide``) where a draw would reshuffle the discards."""
    try:
        return _simulated(table, state, command, seat)
    except _Reshuffles:
        return None


def _simulated(table: Tabletop, state: DunwichState, command: Command, seat: int
               ) -> tuple[Tabletop, DunwichState, int]:
    phase = state.phase
    match command:
        case RevealWall(cards=cards, wall=wall):  # WallRevealed
            table, state = _discard(table, state, seat, cards)
            return table, replace(state, face_up=state.face_up | {wall}, phase=Revealed(seat, wall)), 1
        case CaptureWall(cards=cards, wall=wall):  # WallCaptured, then the end of the turn
            table, state = _captured(*_discard(table, state, seat, cards), seat, wall, wall_card(state, wall))
            return _turn_ended(table, state, seat, 1)
        case CallKnock():  # KnockCalled
            assert isinstance(phase, Revealed)
            return table, replace(state, phase=Claims(seat, phase.wall), last_claims=None), 1
        case PassKnock():  # KnockPassed, and ClaimsClosed once every other cultist passed
            assert isinstance(phase, Claims)
            passed = phase.passed + (seat,)
            if len(passed) < table.players - 1:
                return table, replace(state, phase=replace(phase, passed=passed)), 1
            state = replace(state, phase=Turn(phase.revealer), last_claims=LastClaims(phase.wall, None))
            return _turn_ended(table, state, phase.revealer, 2)
        case Knock(cards=cards):  # WallClaimed
            assert isinstance(phase, Claims)
            table, state = _captured(*_discard(table, state, seat, cards), seat, phase.wall,
                                     wall_card(state, phase.wall))
            state = replace(state, phase=Turn(phase.revealer), last_claims=LastClaims(phase.wall, seat))
            return _turn_ended(table, state, phase.revealer, 1)
        case DiscardAndDraw(cards=cards):  # TwoCardsDiscarded, two drawn, the end of the turn
            table, state = _discard(table, state, seat, cards)
            return _turn_ended(_drawn(table, state, seat, 2), state, seat, 1)
        case EndTurn():
            return _turn_ended(table, state, seat, 0)
        case DrawCard():  # the refill, then TwinReplacementDrawn
            assert isinstance(phase, Replacing)
            table = _drawn(table, state, seat, HAND_SIZE - len(table.hands[seat]))
            waiting = phase.waiting - {seat}
            return table, replace(state, phase=Replacing(waiting) if waiting else Turn()), 1
    raise TypeError(f"the dunwich horror: no rule for {command!r}")


def _turn_ended(table: Tabletop, state: DunwichState, seat: int, moves: int) -> tuple[Tabletop, DunwichState, int]:
    """``_end_turn``'s folds after ``moves`` of the rite's facts: TwinsFreed, or the refill and DunwichTurnBegan."""
    if all(c is None for c in state.walls):
        return table, replace(state, phase=Freed()), moves + 1
    table = _drawn(table, state, seat, HAND_SIZE - len(table.hands[seat]))
    return table, replace(state, phase=Turn(next_seat(table, seat))), moves + 1


def _drawn(table: Tabletop, state: DunwichState, seat: int, count: int) -> Tabletop:
    """``_draw``'s fold where it reshuffles nothing (else ``_Reshuffles``): it does once the pile runs out with
    discards to shuffle."""
    if state.discards and len(table.pile) <= max(count, 0):
        raise _Reshuffles()
    return drawn(table, seat, count) if count > 0 else table


# -- evolve --------------------------------------------------------------------------------------------------------


def evolve(table: Tabletop, state: DunwichState, fact: Fact) -> tuple[Tabletop, DunwichState]:
    match fact:
        case TwinsSetAside(twins=twins, handed_over=handed_over):
            twins_ = tuple(twins)
            table = replace(
                table,
                hands=tuple(remove_cards(h, twins_) for h in table.hands),
                pile=remove_cards(table.pile, twins_),
                set_aside=remove_cards(table.set_aside, twins_),
                face_down=tuple(x for x in table.face_down if x[0] not in twins_),
            )
            holders = frozenset(s for s in handed_over if s is not None)
            return table, replace(state, twins=twins_, phase=Replacing(holders) if holders else Turn())
        case TwinReplacementDrawn(seat=seat):
            assert isinstance(state.phase, Replacing)
            waiting = state.phase.waiting - {seat}
            return table, replace(state, phase=Replacing(waiting) if waiting else Turn())
        case FarmhouseWallsBuilt(walls=walls):
            return replace(table, pile=table.pile[len(walls):]), replace(state, walls=tuple(walls))
        case DunwichTurnBegan(seat=seat):
            return table, replace(state, phase=Turn(seat))
        case WallRevealed(seat=seat, cards=cards, wall=wall):
            table, state = _discard(table, state, seat, cards)
            return table, replace(state, face_up=state.face_up | {wall}, phase=Revealed(seat, wall))
        case WallCaptured(seat=seat, cards=cards, wall=wall, card=card):
            return _captured(*_discard(table, state, seat, cards), seat, wall, card)
        case WallClaimed(seat=seat, cards=cards, wall=wall, card=card, revealer=revealer):
            table, state = _captured(*_discard(table, state, seat, cards), seat, wall, card)
            return table, replace(state, phase=Turn(revealer), last_claims=LastClaims(wall, seat))
        case KnockCalled(seat=seat, wall=wall):
            return table, replace(state, phase=Claims(seat, wall), last_claims=None)
        case KnockPassed(seat=seat):
            assert isinstance(state.phase, Claims)
            return table, replace(state, phase=replace(state.phase, passed=state.phase.passed + (seat,)))
        case ClaimsClosed(wall=wall):
            assert isinstance(state.phase, Claims)
            return table, replace(state, phase=Turn(state.phase.revealer), last_claims=LastClaims(wall, None))
        case TwoCardsDiscarded(seat=seat, cards=cards):
            return _discard(table, state, seat, cards)
        case DunwichDiscardsReshuffled(order=order):
            return replace(table, pile=table.pile + tuple(order)), replace(state, discards=())
        case TwinsFreed():
            return table, replace(state, phase=Freed())
    raise TypeError(f"The Dunwich Horror has no fact {fact!r}")


def _discard(table: Tabletop, state: DunwichState, seat: int, cards: Sequence[int]) -> tuple[Tabletop, DunwichState]:
    return without(table, seat, cards), replace(state, discards=state.discards + tuple(cards))


def _captured(table: Tabletop, state: DunwichState, seat: int, wall: int, card: int) -> tuple[Tabletop, DunwichState]:
    return table, replace(state, walls=replace_at(state.walls, wall, None), face_up=state.face_up - {wall},
                          captured=replace_at(state.captured, seat, state.captured[seat] + (card,)))


# -- end -----------------------------------------------------------------------------------------------------------


def result(table: Tabletop, state: DunwichState) -> RiteResult | None:
    """The Win: the most captured wall points (ties: the first of them in turn order from the Grand Cultist)."""
    if not isinstance(state.phase, Freed):
        return None
    scores = points(state)
    top = max(scores)
    return RiteResult(first_in_order(table, [s for s, p in enumerate(scores) if p == top]), RiteEnd.TWINS_FREED)
