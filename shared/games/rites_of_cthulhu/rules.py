"""The overarching game of Rites of Cthulhu: setup, decide, evolve, who the game waits on, legal commands, outcome.

Rulebook pages 1-13 ("Game Setup", "Performing Rites", "Power-Plays", "The Artifacts Deck", "Winning the Game").
Each rite is a ``Rite`` (``rites/``) this module calls only through its functions; power-plays and artifact
powers are in ``power_plays.py`` and ``artifacts.py``. One ``Decision`` carries a whole command: the rite's
events, the settling after them, the end of the rite and the next deal.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from enum import StrEnum
from typing import Any

from shared.kernel import Command, Decided, Decision, Event, Outcome, replace, replace_at, RuleViolation
from shared.kernel.errors import require

from shared.games.rites_of_cthulhu import artifacts, power_plays
from shared.games.rites_of_cthulhu.cards import ARTIFACT_COUNT, DECK_SIZE, HAND_SIZE, rank
from shared.games.rites_of_cthulhu.commands import (
    BecomeGrandCultist, ChooseRite, ExcavateArtifact, InvokeArtifact, ReturnCard, StealArtifact, TakeArtifacts,
    TradeArtifact,
)
from shared.games.rites_of_cthulhu.events import (
    FACTS,
    ArtifactExcavated,
    ArtifactInvoked,
    ArtifactStolen,
    ArtifactTaken,
    ArtifactThrownOut,
    ArtifactTraded,
    EntitiesShuffled,
    FirstCardsRevealed,
    GameEnded,
    GameStarted,
    GrandCultistChosen,
    GrandCultistPassed,
    HandsOpened,
    OpenerChanged,
    OverthrowClaimed,
    PowerPlayMade,
    PowerPlaysForbidden,
    RanksInverted,
    RiteBegun,
    RiteChosen,
    RiteFailed,
    RiteWon,
    TurnOrderReversed,
)
from shared.games.rites_of_cthulhu.rites import RITES
from shared.games.rites_of_cthulhu.rites.base import Rite, RiteEnd, RiteResult
from shared.games.rites_of_cthulhu.rites.table import TABLE_FACTS, draw, fold_table, return_card
from shared.games.rites_of_cthulhu.state import (
    Choosing,
    Claiming,
    Finished,
    GameEnd,
    Performing,
    RitesState,
    Tabletop,
)

OUT_OF_TURN = power_plays.POWER_PLAYS | {artifacts.INVOKE}
"""Power-plays ("At any point during the game") and artifact invocations may be made by any seat, waited on or not."""
RITES_PER_PLAYER_COUNT = {2: 6, 3: 6, 4: 4, 5: 5, 6: 6}
"""Performing Rites: "2 players – play all 6 rites … 4 players – play 4 out of 6 rites …"."""
ALL_RITES = 6
MAX_SETTLE = 100
"""A rite's ``settle`` must reach a fixed point well before this many rounds."""


class Reason(StrEnum):
    MOST_ELDER_SIGN_POINTS = "most_elder_sign_points"


def rites_total(players: int, play_all: bool) -> int:
    """Rites per game: 2-3 players 6, 4 players 4, 5 players 5, 6 players 6 (all with the play-all option),
    capped by the rites there are."""
    return min(ALL_RITES if play_all else RITES_PER_PLAYER_COUNT[players], len(RITES))


def available_rites(state: RitesState) -> list[str]:
    return [rid for rid in RITES if rid not in state.played]


def rite_state(state: RitesState) -> Any:
    """The current rite's own state."""
    assert isinstance(state.stage, Performing)
    return state.stage.rite


def current_rite(state: RitesState) -> Rite | None:
    """The rite being performed (its deal and Coveted Artifact done), if any."""
    stage = state.stage
    return RITES[stage.rite_id] if isinstance(stage, Performing) and stage.begun else None


# -- setup -------------------------------------------------------------------------------------------------------


def setup(players: int, options: Mapping[str, Any], entropy: bytes) -> list[Event]:
    d: Decision[Any] = Decision(None, evolve, entropy)
    deck = list(range(DECK_SIZE))
    d.rng.shuffle(deck)
    # The first Grand Cultist: everyone draws and reveals at once; the highest elder sign wins; tied
    # cultists draw again from the rest of the deck (project ruling).
    contenders, draws = list(range(players)), []
    while True:
        drawn = [-1] * players
        for s in contenders:
            drawn[s] = deck.pop()
        draws.append(drawn)
        top = max(rank(drawn[s]) for s in contenders)
        contenders = [s for s in contenders if rank(drawn[s]) == top]
        if len(contenders) == 1:
            break
    d.emit(GameStarted(players=players, rites_total=rites_total(players, options.get("play_all_rites", False))))
    for drawn in draws:
        d.emit(FirstCardsRevealed(cards=drawn))
    d.emit(GrandCultistChosen(seat=contenders[0]))
    _deal(d)
    return d.events


def _deal(d: Decision[RitesState]) -> None:
    """The Grand Cultist shuffles the whole entities deck and deals 5 cards to each cultist."""
    order = list(range(DECK_SIZE))
    d.rng.shuffle(order)
    d.emit(EntitiesShuffled(order=order), {"order": []})
    for seat in range(d.state.players):
        draw(d, seat, HAND_SIZE)


# -- who acts and what they may do -----------------------------------------------------------------------------------


def rite_actors(state: RitesState) -> frozenset[int]:
    rite = current_rite(state)
    if rite is None:
        return frozenset()
    if state.table.trade is not None:
        return frozenset({state.table.trade.receiver})
    return rite.to_act(state.table, rite_state(state))


def to_act(state: RitesState) -> frozenset[int]:
    """The seats the game waits on, from public facts only: the Grand Cultist choosing, the overthrow winner
    claiming, the receiver of a forced card, else whom the rite waits on. A seat that may make a power-play or invoke
    an artifact out of turn is not listed: it finds the play in its own legal commands (``OUT_OF_TURN``)."""
    match state.stage:
        case Choosing():
            return frozenset({state.grand_cultist})
        case Claiming(winner=winner):
            return frozenset({winner})
        case Finished():
            return frozenset()
    return rite_actors(state)


def legal_commands(state: RitesState, seat: int) -> list[Command]:
    stage = state.stage
    if isinstance(stage, Performing) and stage.begun:  # a rite under way (every move of a playout)
        table = state.table
        moves: list[Command] = []
        if table.trade is not None:
            if seat == table.trade.receiver:
                moves = [ReturnCard(card=c) for c in _returnable(state, seat)]
        else:  # none for a seat the rite does not wait on: each rite's own legal_commands asks its to_act
            moves = RITES[stage.rite_id].legal_commands(table, stage.rite, seat)
        return moves + power_plays.legal(state, seat) + artifacts.legal(state, seat)
    match state.stage:
        case Choosing():
            if seat != state.grand_cultist:
                return []
            return [ChooseRite(rite=rid) for rid in available_rites(state)]
        case Claiming(winner=winner):
            if seat != winner:
                return []
            return [TakeArtifacts(), *(TradeArtifact(give=g, take=t) for g in state.coveted for t in state.artifact_deck)]
        case Finished():
            return []
    out: list[Command] = []
    if seat in rite_actors(state):
        if state.table.trade is not None:
            out += [ReturnCard(card=c) for c in _returnable(state, seat)]
        else:
            out += RITES[state.stage.rite_id].legal_commands(state.table, rite_state(state), seat)
    return out + power_plays.legal(state, seat) + artifacts.legal(state, seat)


def timeout_command(state: RitesState, seat: int, rng: random.Random) -> Command:
    """What the turn timer plays for a silent ``seat`` the game waits on (never an out-of-turn play): the overthrow
    winner takes the pile ("may take … or trade"), the Grand Cultist picks a rite and the receiver of a forced card
    gives one back at random, else the rite's own policy (docs/rulings/rites-of-cthulhu.md)."""
    if isinstance(state.stage, Claiming):
        return TakeArtifacts()
    rite = current_rite(state)
    if rite is None or state.table.trade is not None:
        return rng.choice([c for c in legal_commands(state, seat) if c.type not in OUT_OF_TURN])
    return rite.timeout_command(state.table, rite_state(state), seat, rng)


def _returnable(state: RitesState, seat: int) -> list[int]:
    """The cards ``seat`` may give back for a forced card: any but those the rite keeps in hand, unless only those
    are left."""
    rite = current_rite(state)
    assert rite is not None
    kept = rite.keeps_in_hand(state.table, rite_state(state))
    hand = sorted(state.table.hands[seat])
    return [c for c in hand if c not in kept] or hand


# -- decide ----------------------------------------------------------------------------------------------------------


def decide(state: RitesState, command: Command, seat: int, entropy: bytes) -> Decided[RitesState]:
    d = Decision(state, evolve, entropy)
    stage = state.stage
    if isinstance(command, ChooseRite):
        require(isinstance(stage, Choosing), "rules/not_choosing_a_rite", "No rite is being chosen now.")
        require(command.rite in available_rites(state), "rules/rite_not_available",
                "That rite is not available (unknown or already performed).")
        _choose(d, command.rite)
        return d.decided()
    if isinstance(command, (TakeArtifacts, TradeArtifact)):
        require(isinstance(stage, Claiming), "rules/not_claiming",
                "Only an overthrow winner claims artifacts, once the rite ends.")
        if isinstance(command, TradeArtifact):
            require(command.give in state.coveted and command.take in state.artifact_deck,
                    "rules/invalid_artifact_trade", "Trade one Coveted Artifact for one artifact of the deck.")
            d.emit(ArtifactTraded(seat=seat, gave=command.give, took=command.take))
        d.emit(RiteWon(seat=seat, reason=RiteEnd.OVERTHROW))
        _after_rite(d, passes=True)
        return d.decided()
    rite = current_rite(state)
    require(rite is not None, "rules/no_rite_in_progress", "No rite is being performed.")
    assert rite is not None
    match command:
        case BecomeGrandCultist():
            power_plays.decide(d, command, seat)
            d.emit(RiteFailed(reason=RiteEnd.GRAND_CULTIST_SEIZED, seat=seat))
            _after_rite(d, passes=False)
            return d.decided()
        case ExcavateArtifact() | StealArtifact():
            power_plays.decide(d, command, seat)
            artifacts.excavate(d, seat)
        case InvokeArtifact():
            artifacts.decide(d, command, seat)
        case ReturnCard(card=card):
            trade = state.table.trade
            require(trade is not None, "rules/no_trade_to_answer", "Nobody has forced a card on you.")
            require(card in state.table.hands[seat], "rules/card_not_in_hand", "That card is not in your hand.")
            require(card in _returnable(state, seat), "rules/card_must_stay_in_hand",
                    "That card must stay in your hand now (Cthulhu, until the first gate closes).")
            return_card(d, card)
        case _:
            _decide_in_rite(d, rite, command, seat)
    _settle(d)
    return d.decided()


def _decide_in_rite(d: Decision[RitesState], rite: Rite, command: Command, seat: int) -> None:
    """A rite's own move, once no forced trade waits for its answer."""
    if command.type not in rite.commands:
        raise RuleViolation("rules/not_in_this_rite", f"{rite.title} has no {command.type} move.")
    require(d.state.table.trade is None, "rules/trade_pending", "A forced card trade must be answered first.")
    rite.decide(d, command, seat)


def _choose(d: Decision[RitesState], rite_id: str) -> None:
    """Performing rites: the rite is picked, the deal adjusted, the Coveted Artifact excavated, its power applied."""
    d.emit(RiteChosen(rite=rite_id))
    RITES[rite_id].begin(d)
    artifacts.excavate(d)
    d.emit(RiteBegun(rite=rite_id))
    _settle(d)


def _settle(d: Decision[RitesState]) -> None:
    """After every command: the rite's own follow-ups, then the end of the rite if it is over. Not while a forced
    card is unanswered: the receiver "trades it for any card from her hand", one action that must end first (a
    cultist who forced her last card has not emptied her hand, a gate waits for her)."""
    rite = current_rite(d.state)
    if rite is None or d.state.table.trade is not None:
        return
    for _ in range(MAX_SETTLE):
        before = d.emitted  # not len(d.events): a playout's decision keeps no events (simulating())
        rite.settle(d)
        if d.emitted == before:
            break
    else:
        raise AssertionError(f"{rite.id}: settle does not reach a fixed point")
    result = rite.result(d.state.table, rite_state(d.state))
    if result is not None:
        end_rite(d, result)


def end_rite(d: Decision[RitesState], result: RiteResult) -> None:
    """The rite is over (its follow-ups done, ``_settle``): its winner takes the Coveted Artifacts, or claims them,
    and the next rite is dealt. A playout's move builds the settled state directly and comes here for the rest
    (``simulate.py``)."""
    state: RitesState = d.state
    if result.winner is None:
        d.emit(RiteFailed(reason=result.reason, seat=None))
    elif result.may_trade_artifact and state.coveted and state.artifact_deck:
        d.emit(OverthrowClaimed(seat=result.winner))
        return
    else:
        d.emit(RiteWon(seat=result.winner, reason=result.reason))
    _after_rite(d, passes=True)


def _after_rite(d: Decision[RitesState], passes: bool) -> None:
    """The Grand Cultist passes left; the next rite is dealt, or the game ends after the last one."""
    state: RitesState = d.state
    if passes:
        d.emit(GrandCultistPassed(seat=(state.grand_cultist + 1) % state.players))
    if len(state.played) >= state.rites_total or not available_rites(state):
        d.emit(GameEnded(scores=[artifacts.points(state, s) for s in range(state.players)]))
    else:
        _deal(d)


# -- evolve ----------------------------------------------------------------------------------------------------------


def evolve(state: RitesState | None, event: Event) -> RitesState:
    fact = FACTS.parse(event)
    if isinstance(fact, GameStarted):
        n = fact.players
        return RitesState(
            players=n, rites_total=fact.rites_total, grand_cultist=0,
            table=Tabletop(players=n, grand_cultist=0, hands=((),) * n, pile=tuple(range(DECK_SIZE))),
            stage=Choosing(), artifact_deck=tuple(range(ARTIFACT_COUNT)), captured=((),) * n,
        )
    assert state is not None
    if isinstance(fact, TABLE_FACTS):
        return replace(state, table=fold_table(state.table, fact))
    match fact:
        case FirstCardsRevealed(cards=cards):
            return replace(state, first_draws=state.first_draws + (tuple(cards),))
        case GrandCultistChosen(seat=seat) | GrandCultistPassed(seat=seat):
            return replace(state, grand_cultist=seat)
        case EntitiesShuffled(order=order):
            table = Tabletop(players=state.players, grand_cultist=state.grand_cultist, hands=((),) * state.players,
                          pile=tuple(order))
            return replace(state, table=table, stage=Choosing(), revealed=(), fresh_used=())
        case RiteChosen(rite=rite_id):
            return replace(state, stage=Performing(rite_id, RITES[rite_id].initial(state.table)))
        case RiteBegun():
            assert isinstance(state.stage, Performing)
            return replace(state, stage=replace(state.stage, begun=True))
        case ArtifactExcavated(artifact=a):
            return replace(state, artifact_deck=tuple(x for x in state.artifact_deck if x != a),
                           coveted=state.coveted + (a,), revealed=state.revealed + (a,))
        case TurnOrderReversed(direction=direction):
            return _modified(state, direction=direction)
        case HandsOpened():
            return _modified(state, open_hands=True)
        case RanksInverted():
            return _modified(state, low_wins=True)
        case PowerPlaysForbidden():
            return _modified(state, no_power_plays=True)
        case OpenerChanged(seat=seat):
            return _modified(state, opener=seat)
        case ArtifactInvoked(artifact=a, second=second):
            if second:
                return replace(state, second_used=state.second_used + (a,))
            return replace(state, fresh_used=state.fresh_used + (a,))
        case ArtifactTaken(artifact=a, from_seat=from_seat, seat=seat):
            captured = replace_at(state.captured, from_seat, tuple(x for x in state.captured[from_seat] if x != a))
            return replace(state, captured=replace_at(captured, seat, captured[seat] + (a,)))
        case ArtifactThrownOut(artifact=a):
            return replace(state, coveted=tuple(x for x in state.coveted if x != a), thrown_out=state.thrown_out + (a,))
        case ArtifactStolen(seat=seat, artifact=a):
            return replace(state, captured=replace_at(state.captured, seat, state.captured[seat] + (a,)),
                           coveted=tuple(x for x in state.coveted if x != a))
        case PowerPlayMade():
            return state
        case OverthrowClaimed(seat=seat):
            assert isinstance(state.stage, Performing)
            return replace(state, stage=Claiming(seat, state.stage.rite_id))
        case ArtifactTraded(gave=gave, took=took):
            return replace(state, artifact_deck=tuple(sorted(set(state.artifact_deck) - {took} | {gave})),
                           coveted=tuple(took if a == gave else a for a in state.coveted))
        case RiteWon(seat=seat):
            return replace(state, captured=replace_at(state.captured, seat, state.captured[seat] + state.coveted),
                           coveted=(), played=state.played + (_rite_id(state),), stage=Choosing())
        case RiteFailed(reason=reason, seat=seat):
            state = replace(state, thrown_out=state.thrown_out + state.coveted, coveted=(),
                            played=state.played + (_rite_id(state),), stage=Choosing())
            if reason != RiteEnd.GRAND_CULTIST_SEIZED:
                return state
            assert seat is not None
            return replace(state, grand_cultist=seat)
        case GameEnded():
            return replace(state, stage=Finished(GameEnd.ALL_RITES_PERFORMED))
    stage = state.stage
    if not isinstance(stage, Performing):
        raise TypeError(f"Rites of Cthulhu has no event {event.type} outside a rite")
    rite = RITES[stage.rite_id]
    table, rite_state = rite.evolve(state.table, stage.rite, fact)
    if stage.begun and not isinstance(fact, rite.not_moves):
        table = replace(table, moves=table.moves + 1)
    return replace(state, table=table, stage=replace(stage, rite=rite_state))


def _rite_id(state: RitesState) -> str:
    assert isinstance(state.stage, (Performing, Claiming))
    return state.stage.rite_id


def _modified(state: RitesState, **changes: Any) -> RitesState:
    return replace(state, table=replace(state.table, mods=replace(state.table.mods, **changes)))


# -- outcome ---------------------------------------------------------------------------------------------------------


def outcome(state: RitesState) -> Outcome | None:
    if not isinstance(state.stage, Finished):
        return None
    scores = tuple(artifacts.points(state, s) for s in range(state.players))
    return Outcome(reason=Reason.MOST_ELDER_SIGN_POINTS, winners=winners_among(state, frozenset(range(state.players))),
                   scores=scores)


def winners_among(state: RitesState, standing: frozenset[int]) -> tuple[int, ...]:
    """Winning the Game: the most Elder Sign points on won artifacts among ``standing``; ties share the victory."""
    points = {s: artifacts.points(state, s) for s in sorted(standing)}
    top = max(points.values())
    return tuple(s for s, v in points.items() if v == top)
