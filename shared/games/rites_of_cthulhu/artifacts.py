"""Artifact powers (rulebook "The Artifacts Deck"; the thirteen artifacts are project data in ``cards.ARTIFACTS``):
revealing a Coveted Artifact, its power, and later invocations.

Every power acts through what every rite shares: the ``Modifiers`` a rite honours (turn order, opener, rank
order, open hands, no power-plays) and the table (hands, pile, forced trades, knowledge). No rite has a special
case for an artifact.

Symbols: an "all cultists" artifact applies to everybody when revealed and again when its owner invokes it in a
later rite (only before that rite's first move, since its powers shape the rite from the start). A "single
cultist" artifact's ability may be used once during the rite it is revealed in, by whichever cultist invokes it
first, and once more by its owner in a later rite.
"""

from __future__ import annotations


from shared.kernel import Command, Decision, interned
from shared.kernel.errors import require

from shared.games.rites_of_cthulhu.cards import ARTIFACTS, Power, Symbol, Timing
from shared.games.rites_of_cthulhu.commands import InvokeArtifact
from shared.games.rites_of_cthulhu.events import (
    ArtifactExcavated,
    ArtifactInvoked,
    ArtifactTaken,
    ArtifactThrownOut,
    HandsOpened,
    OpenerChanged,
    PowerPlaysForbidden,
    RanksInverted,
    TurnOrderReversed,
)
from shared.games.rites_of_cthulhu.rites import RITES
from shared.games.rites_of_cthulhu.rites.table import CardsKnown, first_in_order, force_card, set_aside_from_hand
from shared.games.rites_of_cthulhu.state import Performing, RitesState

INVOKE = InvokeArtifact.type
"""The command that invokes an artifact's power."""

IMMEDIATE = frozenset({Power.REVERSE_ORDER, Power.OPEN_HANDS, Power.LOW_WINS, Power.NO_POWER_PLAYS,
                       Power.OPENER_LEFT, Power.OPENER_POOREST})
"""Powers that change the rite's rules and take no choice."""


def power(artifact: int) -> Power:
    return _POWERS[artifact]


_POWERS = tuple(Power(card["power"]) for card in ARTIFACTS)
"""Each artifact's power, read once (``legal`` asks on every move of a playout)."""


def points(state: RitesState, seat: int) -> int:
    return sum(ARTIFACTS[a]["elder_sign"] for a in state.captured[seat])


def excavate(d: Decision[RitesState], seat: int | None = None) -> None:
    """Excavate a Coveted Artifact (drawn at random from the deck) and apply its power if it acts at once."""
    deck = d.state.artifact_deck
    if not deck:
        return
    artifact = deck[d.rng.randrange(len(deck))]
    d.emit(ArtifactExcavated(artifact=artifact, seat=seat))
    if ARTIFACTS[artifact]["timing"] == Timing.BEFORE:
        immediate(d, artifact)


def immediate(d: Decision[RitesState], artifact: int) -> None:
    """An "all cultists" power taking effect."""
    state: RitesState = d.state
    table = state.table
    match power(artifact):
        case Power.REVERSE_ORDER:
            d.emit(TurnOrderReversed(direction=-table.mods.direction))
        case Power.OPEN_HANDS:
            d.emit(HandsOpened(hands=[sorted(hand) for hand in table.hands]))
        case Power.LOW_WINS:
            d.emit(RanksInverted())
        case Power.NO_POWER_PLAYS:
            d.emit(PowerPlaysForbidden())
        case Power.EXCAVATE:
            excavate(d)
        case Power.OPENER_LEFT:
            d.emit(OpenerChanged(seat=(table.grand_cultist + 1) % state.players))
        case Power.OPENER_POOREST:
            fewest = min(points(state, s) for s in range(state.players))
            poorest = [s for s in range(state.players) if points(state, s) == fewest]
            d.emit(OpenerChanged(seat=first_in_order(table, poorest)))
        case other:
            raise AssertionError(f"{other} is not an immediate power")


def _options(state: RitesState, artifact: int, seat: int) -> list[Command]:
    """Every complete ``invoke_artifact`` command for this artifact and seat (empty: nothing to do). Each power
    reads only what it needs (asked on every move of a playout)."""
    assert isinstance(state.stage, Performing)
    table = state.table
    rite = RITES[state.stage.rite_id]

    def hand() -> list[int]:
        return sorted(table.hands[seat])

    def free() -> list[int]:
        kept = rite.keeps_in_hand(table, state.stage.rite)  # type: ignore[union-attr]  # a rite is performed
        return [c for c in hand() if c not in kept]

    def others_with_cards() -> list[int]:
        return [s for s in range(state.players) if s != seat and table.hands[s]]

    def drawable() -> bool:
        return rite.draws_replacements and rite.drawable(table, state.stage.rite) > 0  # type: ignore[union-attr]

    def use(card: int | None = None, target_seat: int | None = None, target: int | None = None) -> Command:
        return _invoke(artifact, card, target_seat, target)

    match power(artifact):
        case Power.EXCAVATE:
            return [use()] if state.artifact_deck else []
        case p if p in IMMEDIATE:
            return [use()]
        case Power.REDRAW_ONE:
            return [use(card=c) for c in free()] if drawable() else []
        case Power.REDRAW_HAND:
            held = hand()
            return [use()] if held and free() == held and drawable() else []
        case Power.STEAL_CAPTURED:
            return [use(target_seat=s, target=a) for s in range(state.players) if s != seat for a in state.captured[s]]
        case Power.REPLACE_COVETED:
            return [use(target=a) for a in state.coveted if a != artifact] if state.artifact_deck else []
        case Power.FORCED_TRADE:
            targets = others_with_cards()
            return [use(card=c, target_seat=s) for c in free() for s in targets]
        case Power.PEEK_HAND:
            return [use(target_seat=s) for s in others_with_cards()]
    raise AssertionError(f"no options for {power(artifact)}")


_invoke = interned(InvokeArtifact)  # one record per distinct command


def _invocable(state: RitesState, seat: int) -> dict[int, bool]:
    """The artifacts ``seat`` may invoke now, each with whether it is its owner's second invocation."""
    stage = state.stage
    if not isinstance(stage, Performing) or not stage.begun or state.table.trade is not None:
        return {}
    out = {a: False for a in state.revealed if a in _SINGLE and a not in state.fresh_used}
    for a in state.captured[seat]:
        if a in state.revealed or a in state.second_used:
            continue
        if a in _BEFORE and state.table.moves > 0:
            continue
        out[a] = True
    return out


_SINGLE = frozenset(a["id"] for a in ARTIFACTS if a["symbol"] == Symbol.SINGLE)
_BEFORE = frozenset(a["id"] for a in ARTIFACTS if a["timing"] == Timing.BEFORE)
"""The artifacts of each symbol and timing, read once (``legal`` asks on every move of a playout)."""


def legal(state: RitesState, seat: int) -> list[Command]:
    if not state.revealed and not state.captured[seat]:  # nothing to invoke
        return []
    return [c for a in _invocable(state, seat) for c in _options(state, a, seat)]


def decide(d: Decision[RitesState], command: InvokeArtifact, seat: int) -> None:
    state: RitesState = d.state
    artifact = command.artifact
    invocable = _invocable(state, seat)
    require(artifact in invocable, "rules/artifact_not_invocable", "You may not invoke that artifact now.")
    require(command in _options(state, artifact, seat), "rules/invalid_artifact_target",
            "That is not a possible use of this artifact's power.")
    d.emit(ArtifactInvoked(seat=seat, artifact=artifact, second=invocable[artifact]))
    hand = list(state.table.hands[seat])
    assert isinstance(state.stage, Performing)
    draw = RITES[state.stage.rite_id].replacement_draw
    match power(artifact):
        case Power.REDRAW_ONE:
            assert command.card is not None  # one of _options
            set_aside_from_hand(d, seat, [command.card], face_down=True)
            draw(d, seat, 1)
        case Power.REDRAW_HAND:
            set_aside_from_hand(d, seat, hand, face_down=True)
            draw(d, seat, len(hand))
        case Power.STEAL_CAPTURED:
            assert command.target is not None and command.seat is not None  # one of _options
            d.emit(ArtifactTaken(artifact=command.target, from_seat=command.seat, seat=seat))
        case Power.REPLACE_COVETED:
            assert command.target is not None  # one of _options
            d.emit(ArtifactThrownOut(artifact=command.target))
            excavate(d, seat)
        case Power.FORCED_TRADE:
            assert command.seat is not None and command.card is not None  # one of _options
            force_card(d, seat, command.seat, command.card)
        case Power.PEEK_HAND:
            target = command.seat
            assert target is not None  # one of _options
            d.emit(CardsKnown(seat=seat, of_seat=target, cards=sorted(state.table.hands[target])), {"cards": [seat]})
        case _:
            immediate(d, artifact)
