"""What a Pocket Madness position allows: the questions ``decide``, ``legal_commands`` and the views all ask
(may this seat draw, meld, seal, end its turn; who designates the next round). Pure functions of the state,
and each depends on public facts plus the asking seat's own hand only."""

from __future__ import annotations

from shared.games.pocket_madness.cards import (
    AZATHOTH,
    CTHULHU,
    GUG,
    LOCATIONS,
    MAX_DRAW,
    MAX_MELDS_PER_TURN,
    MIN_SET,
    NYARLATHOTEP,
    SHOGGOTH,
    SHUB_NIGGURATH,
)
from shared.games.pocket_madness.state import Action, Playing, PocketMadnessState, Power, Turn, slot

State = PocketMadnessState


def in_play(state: State) -> Playing:
    """The phase of a round being played: every turn command and every fact of a turn happens in one."""
    assert isinstance(state.phase, Playing)
    return state.phase


def pending_power(state: State) -> Power:
    """The portal power waiting for its sealer's decision (in a position where one is pending)."""
    power = in_play(state).pending
    assert power is not None
    return power


def start_player(state: State) -> int:
    """The round's start player: chosen before its first turn, so known from then on."""
    assert state.start is not None
    return state.start


def opponents(state: State, seat: int) -> list[int]:
    return [s for s in range(state.players) if s != seat]


def hand_size(state: State, seat: int) -> int:
    return sum(state.cards.hands[seat])


def deck_empty(state: State) -> bool:
    return not state.cards.deck


def _turn_of(state: State, seat: int) -> Turn | None:
    """The turn ``seat`` is playing with no power pending, else None."""
    phase = state.phase
    if isinstance(phase, Playing) and phase.pending is None and phase.turn.seat == seat:
        return phase.turn
    return None


def shoggoth_binds(state: State, seat: int) -> bool:
    """Shoggoth: until the sealer's next turn, its opponents must draw 1 card; an empty deck lifts it."""
    shoggoth = state.phase.shoggoth if isinstance(state.phase, Playing) else None
    return shoggoth is not None and shoggoth != seat and not deck_empty(state)


def action_closed(turn: Turn) -> bool:
    """The obligatory action is over: drawn, passed, three melds made, or a seal after melding closed it."""
    if turn.action in (Action.DREW, Action.PASSED):
        return True
    return turn.action in (Action.SETS, Action.RUNS) and (turn.melds >= MAX_MELDS_PER_TURN or turn.closed)


def gug_fresh(turn: Turn) -> bool:
    """Gug "cannot be played immediately after having been drawn": not on the turn it was claimed, nor on the
    Dagon extra turn that immediately follows that turn (ruling 9)."""
    return GUG in turn.claimed or turn.gug_claimed_before


def sealable(state: State, seat: int) -> list[int]:
    """The portals ``seat`` may seal now: its own, once per turn, each only when its power can take effect."""
    turn = _turn_of(state, seat)
    if turn is None or turn.sealed:
        return []
    out = []
    for portal in LOCATIONS:
        if state.cards.portals[slot(portal)] != seat:
            continue
        if portal == GUG:
            # Gug replaces the obligatory action, not on the turn it was claimed nor on the Dagon turn right
            # after it, and never dodges Shoggoth.
            if turn.action is not None or gug_fresh(turn) or deck_empty(state) or shoggoth_binds(state, seat):
                continue
        elif portal in (NYARLATHOTEP, SHOGGOTH):
            if deck_empty(state):
                continue
        elif portal in (SHUB_NIGGURATH, AZATHOTH):
            if not any(hand_size(state, o) for o in opponents(state, seat)):
                continue
        elif portal == CTHULHU:
            if not hand_size(state, seat):
                continue
        out.append(portal)
    return out


def _may_meld(state: State, seat: int, kind: Action) -> bool:
    turn = _turn_of(state, seat)
    return (turn is not None and not shoggoth_binds(state, seat) and turn.action in (None, kind)
            and not action_closed(turn))


def settable(state: State, seat: int) -> list[tuple[int, int]]:
    """The (location, count) sets ``seat`` may meld now."""
    if not _may_meld(state, seat, Action.SETS):
        return []
    hand = state.cards.hands[seat]
    return [(loc, n) for loc in LOCATIONS for n in range(MIN_SET, hand[slot(loc)] + 1)]


def can_meld_run(state: State, seat: int) -> bool:
    return _may_meld(state, seat, Action.RUNS) and all(state.cards.hands[seat])


def draw_counts(state: State, seat: int) -> list[int]:
    turn = _turn_of(state, seat)
    if turn is None or turn.action is not None:
        return []
    most = 1 if shoggoth_binds(state, seat) else MAX_DRAW
    return list(range(1, min(most, len(state.cards.deck)) + 1))


def can_end_turn(state: State, seat: int) -> bool:
    """End the turn once the action is taken; with the deck empty, melding is optional (the last turns)."""
    turn = _turn_of(state, seat)
    return turn is not None and (turn.action is not None or deck_empty(state))


def designator(madness: tuple[int, ...], start: int) -> int:
    """New round: the seat with most Madness; ties go to the earliest in turn order after the start player."""
    players = len(madness)
    order = [(start + k) % players for k in range(1, players + 1)]
    top = max(madness)
    return next(s for s in order if madness[s] == top)
