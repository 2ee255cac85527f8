"""Cthulhu Rises's rules (rulebook "Cthulhu Rises", p. 14): trick-taking with gates, the Grand Cult (green) as
trump, and the summoning of Cthulhu. Win by holding Cthulhu when the last gate closes, or by an overthrow: open a
gate, capture Cthulhu, then close a later gate (the overthrow winner may trade a Coveted Artifact)."""

from __future__ import annotations

import random
from collections.abc import Callable

from shared.kernel import Command, Decision, Fact, RuleViolation, interned, replace, replace_at
from shared.kernel.errors import require

from shared.games.rites_of_cthulhu.cards import CTHULHU, HAND_SIZE, cult, rank
from shared.games.rites_of_cthulhu.rites.base import RiteEnd, RiteResult, here
from shared.games.rites_of_cthulhu.rites.cthulhu_rises.commands import DeclineTrade, ForceCard, PlayCard
from shared.games.rites_of_cthulhu.rites.cthulhu_rises.cards import DISCARDS, GRAND_CULT, CthulhuPlace, SummonedFrom
from shared.games.rites_of_cthulhu.rites.cthulhu_rises.events import (
    CardPlayedToGate,
    CthulhuSummoned,
    ForcedTradeDeclined,
    ForcedTradeOffered,
    GateClosed,
    SummoningFailed,
)
from shared.games.rites_of_cthulhu.rites.cthulhu_rises.state import CthulhuRisesState
from shared.games.rites_of_cthulhu.rites.table import (
    best,
    draw,
    drawn,
    force_card,
    forced,
    opener,
    set_aside_from_pile,
    turn_order,
    without,
)
from shared.games.rites_of_cthulhu.state import RitesState, Tabletop


def initial(table: Tabletop) -> CthulhuRisesState:
    return CthulhuRisesState(taken=((),) * table.players)


def begin(d: Decision[RitesState]) -> None:
    """The Deal: set aside, unseen, the cards that keep the deck divisible by the number of cultists."""
    count = DISCARDS[d.state.players]
    if count:
        set_aside_from_pile(d, count)


def keeps_in_hand(table: Tabletop, state: CthulhuRisesState) -> frozenset[int]:
    """"During the first gate, if a cultist has Cthulhu in her hand, she must keep him until the first gate closes"."""
    return frozenset({CTHULHU}) if state.gate_number == 1 else frozenset()


# -- whose turn ----------------------------------------------------------------------------------------------------


def _opener_of_gate(table: Tabletop, state: CthulhuRisesState) -> int | None:
    start = opener(table) if state.leader is None else state.leader
    return next((s for s in turn_order(table, start) if table.hands[s]), None)


def next_to_play(table: Tabletop, state: CthulhuRisesState) -> int | None:
    """The next cultist to play on the open gate: in turn order, skipping those with empty hands."""
    if not state.gate:
        return _opener_of_gate(table, state)
    played = {s for s, _ in state.gate}
    return next((s for s in turn_order(table, state.gate[0][0]) if s not in played and table.hands[s]), None)


def to_act(table: Tabletop, state: CthulhuRisesState) -> frozenset[int]:
    if state.overthrow is not None:
        return frozenset()
    if state.forcing is not None:
        return frozenset({state.forcing})
    seat = next_to_play(table, state)
    return frozenset() if seat is None else frozenset({seat})


def timeout_command(table: Tabletop, state: CthulhuRisesState, seat: int, rng: random.Random) -> Command:
    """A silent closer forces no card (the reward is a "may"); a silent cultist plays a legal card at random."""
    if state.forcing is not None:
        return DeclineTrade()
    return rng.choice(legal_commands(table, state, seat))


# -- rules ---------------------------------------------------------------------------------------------------------


_NO_SUMMONING = ("rules/no_summoning_in_first_gate", "Cthulhu must stay in your hand until the first gate closes.")
_NO_GREEN_LEAD = ("rules/no_green_lead_in_first_gate", "The first gate may not be opened with a card of the Grand Cult.")
_FOLLOW = ("rules/must_follow_dominant_cult", "You must play a card of the gate's dominant cult.")


def _narrowing(table: Tabletop, state: CthulhuRisesState, seat: int) -> list[tuple[tuple[str, str], list[int]]]:
    """The seat's hand narrowed rule by rule, each rule with the cards it leaves (a rule that would leave none
    narrows nothing: "if possible"). Each rule narrows what the one before left, so Cthulhu, kept in hand through
    gate 1, is no card a cultist could follow a green lead with. Legal plays and refusals both read this."""
    options = list(table.hands[seat])
    steps: list[tuple[tuple[str, str], list[int]]] = []

    def narrow(rule: tuple[str, str], keep: Callable[[int], bool]) -> None:
        nonlocal options
        options = [c for c in options if keep(c)] or options
        steps.append((rule, options))

    if state.gate_number == 1:
        # No summoning in the first gate: Cthulhu stays in hand; the first opener may not lead green.
        narrow(_NO_SUMMONING, lambda c: c != CTHULHU)
        if not state.gate:
            narrow(_NO_GREEN_LEAD, lambda c: cult(c) != GRAND_CULT)
    if state.gate:
        dominant = cult(state.gate[0][1])
        narrow(_FOLLOW, lambda c: cult(c) == dominant)
    return steps


def _playable(table: Tabletop, state: CthulhuRisesState, seat: int) -> list[int]:
    steps = _narrowing(table, state, seat)
    return sorted(steps[-1][1] if steps else table.hands[seat])


def legal_commands(table: Tabletop, state: CthulhuRisesState, seat: int) -> list[Command]:
    if seat not in to_act(table, state):
        return []
    if state.forcing is not None:
        targets = [s for s in range(table.players) if s != seat and table.hands[s]]
        return [DeclineTrade(), *(ForceCard(card=c, seat=t) for c in sorted(table.hands[seat]) for t in targets)]
    return [_play_card(card=c) for c in _playable(table, state, seat)]


_play_card = interned(PlayCard)  # one record per play: a playout lists them on every move


def decide(d: Decision[RitesState], command: Command, seat: int) -> None:
    table, state = here(d)
    if state.forcing is not None:
        if isinstance(command, DeclineTrade):
            d.emit(ForcedTradeDeclined(seat=seat))
            return
        if not isinstance(command, ForceCard):
            raise RuleViolation("rules/must_decide_forced_trade",
                                "You closed the gate: force a card on another cultist or decline first.")
        card, target = command.card, command.seat
        require(card in table.hands[seat], "rules/card_not_in_hand", "That card is not in your hand.")
        require(0 <= target < table.players and target != seat and bool(table.hands[target]),
                "rules/no_such_trade_partner", "Force the card on another cultist who holds cards.")
        d.emit(ForcedTradeOffered(seat=seat, receiver=target))
        force_card(d, seat, target, card)
        return
    if not isinstance(command, PlayCard):
        raise RuleViolation("rules/must_play_to_gate", "Play a card on the gate.")
    _play(d, seat, command.card)


def _play(d: Decision[RitesState], seat: int, card: int) -> None:
    table, state = here(d)
    require(card in table.hands[seat], "rules/card_not_in_hand", "That card is not in your hand.")
    for (code, message), options in _narrowing(table, state, seat):
        require(card in options, code, message)
    d.emit(CardPlayedToGate(seat=seat, card=card, opened=not state.gate))
    # Hands are kept at 5 by drawing after playing (a hand short of Cthulhu since a summoning draws two).
    draw(d, seat, HAND_SIZE - len(d.state.table.hands[seat]))
    table, state = here(d)
    if cult(card) == GRAND_CULT and seat in state.eligible and state.gate_number > 1:
        _summon(d, table, state, card)


def _summon(d: Decision[RitesState], table: Tabletop, state: CthulhuRisesState, card: int) -> None:
    """A spell to summon Cthulhu: he comes to the center of the gate from a hand or from his captor."""
    fact = summoning(table, state, card)
    if fact is not None:
        d.emit(fact)


def summoning(table: Tabletop, state: CthulhuRisesState, card: int) -> Fact | None:
    """What a green card played by an eligible cultist after the first gate summons: Cthulhu from a hand or from his
    captor, or nothing there to come (None: he is already at the gate, or the card is Cthulhu)."""
    if card == CTHULHU or state.center or any(c == CTHULHU for _, c in state.gate):
        return None
    holder = next((s for s, hand in enumerate(table.hands) if CTHULHU in hand), None)
    if holder is not None:
        # No replacement now: the holder refills after her next play (a draw caused by another cultist's move
        # would show her a card from the pile out of her own turn).
        return CthulhuSummoned(seat=holder, source=SummonedFrom.HAND)
    if state.captor is not None:
        return CthulhuSummoned(seat=state.captor, source=SummonedFrom.CAPTURED)
    return SummoningFailed()


def settle(d: Decision[RitesState]) -> None:
    """Closing a gate: once every cultist holding cards has played on it."""
    closed = closing(*here(d))
    if closed is not None:
        d.emit(closed)


def closing(table: Tabletop, state: CthulhuRisesState) -> GateClosed | None:
    """The gate closing, once every cultist holding cards has played on it (else None)."""
    if not state.gate or next_to_play(table, state) is not None:
        return None
    # The highest green card wins, else the highest card of the dominant cult.
    greens = [(s, c) for s, c in state.gate if cult(c) == GRAND_CULT]
    dominant = cult(state.gate[0][1])
    contenders = greens or [(s, c) for s, c in state.gate if cult(c) == dominant]
    top = best(table, (rank(c) for _, c in contenders))
    closer = next(s for s, c in contenders if rank(c) == top)
    in_gate = state.center or any(c == CTHULHU for _, c in state.gate)
    cthulhu = (CthulhuPlace.CAPTURED if closer in state.eligible else CthulhuPlace.CENTER) if in_gate else None
    # An overthrow: the closer already held Cthulhu, captured in an earlier gate, when this gate opened
    # (a summoning in this gate brings him to the center, and the closer takes him back).
    return GateClosed(seat=closer, cards=[c for _, c in state.gate], cthulhu=cthulhu,
                      overthrow=state.holder_at_start == closer)


def simulate(table: Tabletop, state: CthulhuRisesState, command: Command, seat: int
             ) -> tuple[Tabletop, CthulhuRisesState, int] | None:
    """``decide`` and ``settle`` for a playout (``Rite.simulate``): a card played to the gate, with its draw, its
    summoning and the gate closing, or the closer's forced card or her refusal, folded here without checking the listed
    move or building the facts (but the rarer summoning and the gate closing)."""
    if state.forcing is not None:
        if isinstance(command, ForceCard):  # ForcedTradeOffered, then the table's CardForced
            return forced(table, seat, command.seat, command.card), _decided(state), 1
        return table, _decided(state), 1  # ForcedTradeDeclined
    assert isinstance(command, PlayCard)
    card, moves = command.card, 1
    table, state = _played(table, state, seat, card, not state.gate)
    table = drawn(table, seat, HAND_SIZE - len(table.hands[seat]))
    if cult(card) == GRAND_CULT and seat in state.eligible and state.gate_number > 1:
        summoned = summoning(table, state, card)
        if summoned is not None:
            table, state = evolve(table, state, summoned)
            moves += 1
    closed = closing(table, state)
    if closed is not None:
        table, state = evolve(table, state, closed)
        moves += 1
    return table, state, moves


# -- fold ----------------------------------------------------------------------------------------------------------


def evolve(table: Tabletop, state: CthulhuRisesState, fact: Fact) -> tuple[Tabletop, CthulhuRisesState]:
    match fact:
        case CardPlayedToGate(seat=seat, card=card, opened=opened):
            return _played(table, state, seat, card, opened)
        case GateClosed():
            return table, _closed(table, state, fact)
        case CthulhuSummoned(seat=seat, source=source):
            if source == SummonedFrom.HAND:
                table = without(table, seat, [CTHULHU])
            return table, replace(state, center=True, captor=None)
        case SummoningFailed():
            return table, replace(state, drawn_at_failure=table.drawn or (0,) * table.players)
        case ForcedTradeOffered() | ForcedTradeDeclined():
            return table, _decided(state)
    raise TypeError(f"Cthulhu Rises has no fact {fact!r}")


def _played(table: Tabletop, state: CthulhuRisesState, seat: int, card: int, opened: bool
            ) -> tuple[Tabletop, CthulhuRisesState]:
    """The fold of ``CardPlayedToGate`` (``simulate`` folds its move without building the fact)."""
    if opened:
        state = replace(state, gate=state.gate + ((seat, card),), eligible=state.eligible | {seat},
                        holder_at_start=state.captor)
    else:
        state = replace(state, gate=state.gate + ((seat, card),))
    return without(table, seat, [card]), state


def _decided(state: CthulhuRisesState) -> CthulhuRisesState:
    """The fold of ``ForcedTradeOffered`` and ``ForcedTradeDeclined``: the closer's choice is made."""
    return replace(state, forcing=None)


def _closed(table: Tabletop, state: CthulhuRisesState, closed: GateClosed) -> CthulhuRisesState:
    closer = closed.seat
    captor, center, captured_at = state.captor, state.center, state.captured_at
    if closed.cthulhu == CthulhuPlace.CAPTURED:
        captor, center, captured_at = closer, False, state.gate_number
    elif closed.cthulhu == CthulhuPlace.CENTER:
        captor, center = None, True
    taken = replace_at(state.taken, closer, state.taken[closer] + tuple(c for c in closed.cards if c != CTHULHU))
    others_hold = any(table.hands[s] for s in range(table.players) if s != closer)
    overthrow = closer if closed.overthrow else None
    return replace(
        state,
        gate=(),
        gate_number=state.gate_number + 1,
        leader=closer,
        captor=captor,
        center=center,
        captured_at=captured_at,
        taken=taken,
        forcing=closer if (overthrow is None and table.hands[closer] and others_hold) else None,
        overthrow=overthrow,
    )


# -- end -----------------------------------------------------------------------------------------------------------


def result(table: Tabletop, state: CthulhuRisesState) -> RiteResult | None:
    if state.overthrow is not None:
        return RiteResult(state.overthrow, RiteEnd.OVERTHROW, may_trade_artifact=True)
    if state.gate or state.forcing is not None:
        return None
    if table.pile or any(table.hands):
        return None
    if state.captor is None:
        return RiteResult(None, RiteEnd.CTHULHU_NOT_CAPTURED)
    return RiteResult(state.captor, RiteEnd.HOLDS_CTHULHU)
