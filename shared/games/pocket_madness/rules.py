"""Pocket Madness's rules: setup, decide, evolve, the seats the game waits on, legal commands and the outcome.

A turn is a sequence of small commands: the obligatory action (``draw_cards``, or one ``meld_set`` /
``meld_run`` per command for up to three melds, closed by ``end_turn``) and the optional ``seal_portal``
before or after it. Portal powers that need choices become a pending ``Power`` with their own commands.
What each position allows (``position.py``) is shared by ``decide``, ``legal_commands`` and the views.
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import StrEnum
from typing import Any

from shared.kernel import Command, Decided, Decision, Event, Outcome, interned, replace, replace_at, rng, RuleViolation
from shared.kernel.errors import require

from shared.games.pocket_madness.cards import (
    AZATHOTH, CTHULHU, DAGON, FACE_DOWN_CARDS, FULL_DECK, GUG, HAND_SIZE, LOCATION_NAMES, LOCATIONS,
    MADNESS_LIMIT, MAX_GIFTS, MAX_MELDS_PER_TURN, NYARLATHOTEP, PORTAL_NAMES, SHOGGOTH, SHUB_NIGGURATH,
)
from shared.games.pocket_madness.commands import (
    POWER_COMMANDS, ChooseFirstPlayer, DealNextRound, DrawCards, EndTurn, GiveCard, LookAtHand, MeldRun, MeldSet,
    SealPortal, StopGiving, TakeCard, TakeDeckCard,
)
from shared.games.pocket_madness.events import (
    FACTS, CardDiscarded, CardGiven, CardsDrawn, CardTaken, DeckCardTaken, DeckExhausted, FirstPlayerChosen,
    HandLookedAt, PortalClaimed, PortalSealed, PowerResolved, RoundDealt, RoundEnded, RunMelded, SetMelded,
    TurnEnded, TurnPassed, TurnStarted,
)
from shared.games.pocket_madness.state import (
    EMPTY_HAND, Action, Designating, Meld, Playing, PocketMadnessState, Power, RoundCards, RoundEnd, RoundOver,
    Turn, hand_add, hand_cards, hand_minus, hand_of, looked_at, moved_secretly, seen_by_all, slot,
)
from shared.games.pocket_madness.position import (
    action_closed, can_end_turn, can_meld_run, deck_empty, designator, draw_counts, gug_fresh, hand_size, in_play,
    opponents, pending_power, sealable, settable, shoggoth_binds, start_player,
)

State = PocketMadnessState


class Reason(StrEnum):
    MADNESS = "madness"


# -- setup --------------------------------------------------------------------------------------------------


def setup(players: int, options: Mapping[str, Any], entropy: bytes) -> list[Event]:
    """Deal round 1 and draw its start player at random (recorded as a fact; its own stream of the entropy)."""
    decision: Decision[Any] = Decision(None, evolve, entropy)
    _deal(decision, players, 1, None)
    decision.emit(FirstPlayerChosen(seat=rng(entropy + b"first").randrange(players), chooser=None))
    return decision.events


def _deal(decision: Decision[State], players: int, round_no: int, chooser: int | None) -> None:
    """Setup 3-6: shuffle, deal 2 each, set 17 aside unseen, turn the rest face up, shuffle both together."""
    decision.emit(dealt(decision.rng, players, round_no, chooser),
                  secret={"face_down": [], **{f"hand_{s}": [s] for s in range(players)}})


def dealt(draw: Any, players: int, round_no: int, chooser: int | None) -> RoundDealt:
    """A round's deal drawn with ``draw`` (the decision's PRNG): the fact ``_deal`` emits, and the playouts fold."""
    cards = list(FULL_DECK)
    draw.shuffle(cards)
    hands = [sorted(cards[HAND_SIZE * s : HAND_SIZE * (s + 1)]) for s in range(players)]
    rest = cards[HAND_SIZE * players :]
    pile = [(loc, False) for loc in rest[:FACE_DOWN_CARDS]] + [(loc, True) for loc in rest[FACE_DOWN_CARDS:]]
    draw.shuffle(pile)
    return RoundDealt(round=round_no, players=players, chooser=chooser, deck=[loc if up else None for loc, up in pile],
                      face_down=[loc for loc, up in pile if not up], **{f"hand_{s}": hands[s] for s in range(players)})


# -- who acts, legal commands, outcome ------------------------------------------------------------------------


def to_act(state: State) -> frozenset[int]:
    match state.phase:
        case Playing(turn=turn):
            return frozenset({turn.seat})
        case Designating(chooser=chooser):
            return frozenset() if chooser is None else frozenset({chooser})
        case RoundOver():
            return frozenset() if _game_over(state) else frozenset({designator(state.madness, start_player(state))})
    raise TypeError(type(state.phase).__name__)


def legal_commands(state: State, seat: int) -> list[Command]:
    phase = state.phase
    if isinstance(phase, Playing):  # the turn's seat, which ``to_act`` waits on (asked on every move of a playout)
        if seat != phase.turn.seat:
            return []
        if phase.pending is not None:
            return _power_commands(state, phase.pending, seat)
    elif seat not in to_act(state):
        return []
    elif isinstance(phase, RoundOver):
        return [DealNextRound()]
    else:
        return [ChooseFirstPlayer(seat=s) for s in range(state.players)]
    out: list[Command] = [_draw_cards(count=n) for n in draw_counts(state, seat)]
    out += [_set(location=loc, count=n) for loc, n in settable(state, seat)]
    if can_meld_run(state, seat):
        out.append(_MELD_RUN)
    out += [_seal_portal(portal=p) for p in sealable(state, seat)]
    if can_end_turn(state, seat):
        out.append(_END_TURN)
    return out


# one record per distinct command (``interned``): the AI's playouts list them on every move
_draw_cards, _set, _seal_portal = interned(DrawCards), interned(MeldSet), interned(SealPortal)
_give_card, _look_at_hand, _take_card, _take_deck_card = (interned(GiveCard), interned(LookAtHand), interned(TakeCard),
                                                          interned(TakeDeckCard))
_MELD_RUN, _END_TURN, _STOP_GIVING = MeldRun(), EndTurn(), StopGiving()


def _power_commands(state: State, power: Power, seat: int) -> list[Command]:
    hands = state.cards.hands
    out: list[Command]
    if power.portal == CTHULHU:
        out = [_give_card(location=loc, seat=o) for loc in LOCATIONS if hands[seat][slot(loc)] for o in opponents(state, seat)]
        return out + [_STOP_GIVING] if power.given else out
    if power.portal == SHUB_NIGGURATH:
        if power.target is None:
            out = [_look_at_hand(seat=o) for o in opponents(state, seat) if hand_size(state, o)]
            return out
        out = [_take_card(location=loc) for loc in LOCATIONS if hands[power.target][slot(loc)]]
        return out
    out = [_take_deck_card(position=i) for i in range(len(state.cards.deck))]
    return out


def _game_over(state: State) -> bool:
    return isinstance(state.phase, RoundOver) and max(state.madness) >= MADNESS_LIMIT


def outcome(state: State) -> Outcome | None:
    """At a round's end with a player at 10+ Madness: the fewest Madness tokens win; ties share the victory."""
    if not _game_over(state):
        return None
    return Outcome(
        reason=Reason.MADNESS,
        winners=winners_among(state, frozenset(range(state.players))),
        scores=tuple(state.madness),
        details={"madness": list(state.madness), "lower_is_better": True, "rounds": state.round},
    )


def winners_among(state: State, standing: frozenset[int]) -> tuple[int, ...]:
    """The fewest Madness tokens among ``standing`` win; ties share the victory."""
    least = min(state.madness[s] for s in standing)
    return tuple(s for s in sorted(standing) if state.madness[s] == least)


# -- decide -------------------------------------------------------------------------------------------------


def decide(state: State, command: Command, seat: int, entropy: bytes) -> Decided[State]:
    decision = Decision(state, evolve, entropy)
    match state.phase:
        case RoundOver():
            require(isinstance(command, DealNextRound), "rules/round_is_over",
                    "The round is over: the next round must be dealt first.")
            _deal(decision, state.players, state.round + 1, seat)
        case Designating():
            if not isinstance(command, ChooseFirstPlayer):
                raise RuleViolation("rules/choose_first_player_first", "Designate the player who goes first in this round.")
            require(command.seat < state.players, "rules/no_such_seat", "There is no such player at this table.")
            decision.emit(FirstPlayerChosen(seat=command.seat, chooser=seat))
        case Playing(pending=None):
            _decide_turn(decision, command, seat)
        case Playing():
            _decide_power(decision, command, seat)
    return decision.decided()


def _decide_turn(decision: Decision[State], command: Command, seat: int) -> None:
    state: State = decision.state
    turn = in_play(state).turn
    require(not isinstance(command, POWER_COMMANDS), "rules/no_power_in_progress",
            "No portal power is waiting for a decision.")
    require(not isinstance(command, (DealNextRound, ChooseFirstPlayer)), "rules/round_in_progress",
            "The round is still being played.")
    match command:
        case DrawCards(count=count):
            _draw(decision, turn, count, seat)
        case MeldSet(location=loc, count=count):
            _meld_set(decision, loc, count, seat)
        case MeldRun():
            _meld_run(decision, seat)
        case SealPortal(portal=portal):
            _seal(decision, portal, seat)
        case EndTurn():
            require(can_end_turn(state, seat), "rules/action_required",
                    "You must take an action (draw, open a portal or publish) before ending your turn.")
            _end_turn(decision)
        case _:
            raise TypeError(f"pocket madness: no rule for {command!r}")


def _draw(decision: Decision[State], turn: Turn, count: int, seat: int) -> None:
    """Persevere in Your Investigations (A Player's Turn, a/)."""
    state: State = decision.state
    require(turn.action is None, "rules/action_already_taken", "You have already taken your action this turn.")
    require(not deck_empty(state), "rules/deck_empty", "The deck is empty: you can only meld on your last turn.")
    require(count == 1 or not shoggoth_binds(state, seat), "rules/must_draw_one_under_shoggoth",
            "Shoggoth forces you to draw exactly 1 Location card.")
    deck = state.cards.deck
    require(count <= len(deck), "rules/not_enough_cards_in_deck", "The deck does not hold that many cards.",
            deck=len(deck))
    drawn = deck[:count]
    decision.emit(CardsDrawn(seat=seat, count=count, revealed=[loc for loc, up in drawn if up],
                             face_down=[loc for loc, up in drawn if not up]), secret={"face_down": [seat]})
    _after_deck_change(decision, seat)


def _meld_set(decision: Decision[State], loc: int, count: int, seat: int) -> None:
    """Open a Portal (A Player's Turn, b/)."""
    state: State = decision.state
    _check_can_meld(state, seat, Action.SETS)
    require(state.cards.hands[seat][slot(loc)] >= count, "rules/not_enough_cards",
            f"You do not hold {count} {LOCATION_NAMES[loc]} cards.")
    decision.emit(SetMelded(seat=seat, location=loc, count=count))
    owner = decision.state.cards.portals[slot(loc)]
    if owner != seat:
        decision.emit(PortalClaimed(seat=seat, portal=loc, previous_owner=owner))
    _after_cards_played(decision, seat)


def _meld_run(decision: Decision[State], seat: int) -> None:
    """Publish Your Research (A Player's Turn, c/)."""
    state: State = decision.state
    _check_can_meld(state, seat, Action.RUNS)
    require(all(state.cards.hands[seat]), "rules/run_needs_seven_different",
            "A run is 7 different Location cards, one of each.")
    number = in_play(state).runs + 1
    decision.emit(RunMelded(seat=seat, number=number, madness=number))
    _after_cards_played(decision, seat)


def _check_can_meld(state: State, seat: int, kind: Action) -> None:
    turn = in_play(state).turn
    require(not shoggoth_binds(state, seat), "rules/must_draw_one_under_shoggoth",
            "Shoggoth forces you to draw 1 Location card as your action.")
    if turn.action is not None and turn.action != kind:
        require(turn.action not in (Action.SETS, Action.RUNS), "rules/cannot_mix_sets_and_runs",
                "Your action this turn is either sets (Open a Portal) or runs (Publish).")
        raise RuleViolation("rules/action_already_taken", "You have already taken your action this turn.")
    require(turn.melds < MAX_MELDS_PER_TURN, "rules/three_melds_per_turn",
            "You may meld at most 3 sets or 3 runs per turn.")
    require(not turn.closed, "rules/melding_is_over", "You sealed a portal after melding: your action is over.")


def _seal(decision: Decision[State], portal: int, seat: int) -> None:
    state: State = decision.state
    require(not in_play(state).turn.sealed, "rules/one_seal_per_turn", "You may seal only one Portal per turn.")
    require(state.cards.portals[slot(portal)] == seat, "rules/portal_not_yours",
            f"The {PORTAL_NAMES[portal]} Portal is not in front of you.")
    if portal not in sealable(state, seat):
        raise RuleViolation(*_unsealable_reason(state, portal, seat))
    decision.emit(PortalSealed(seat=seat, portal=portal))
    if portal == AZATHOTH:
        for victim in opponents(state, seat):
            cards = hand_cards(decision.state.cards.hands[victim])
            if cards:
                # Discarded face up before its owner: the card is public, how it was picked is not recorded.
                decision.emit(CardDiscarded(seat=victim, card=decision.rng.choice(cards)))
    elif portal == GUG:
        decision.emit(TurnPassed(seat=seat))
    if in_play(decision.state).pending is None:
        _maybe_end_turn(decision)


def _unsealable_reason(state: State, portal: int, seat: int) -> tuple[str, str]:
    no_effect = "rules/portal_has_no_effect"
    if portal == GUG:
        if gug_fresh(in_play(state).turn):
            return ("rules/gug_not_on_the_turn_claimed",
                    "Gug cannot be sealed on the turn you claimed it, nor on the extra turn that immediately follows.")
        if shoggoth_binds(state, seat):
            return "rules/must_draw_one_under_shoggoth", "Shoggoth forces you to draw: Gug cannot replace that action."
        if deck_empty(state):
            return no_effect, "With the deck empty, passing is the same as ending your turn."
        return "rules/gug_replaces_the_action", "Gug passes your turn: seal it instead of taking your action."
    if portal in (NYARLATHOTEP, SHOGGOTH):
        return no_effect, "The deck is empty: this Portal's power has no effect."
    if portal == SHUB_NIGGURATH:
        return no_effect, "No opponent holds a card for Shub-Niggurath to take."
    if portal == AZATHOTH:
        return no_effect, "No opponent holds a card for Azathoth to discard."
    return no_effect, "You hold no card to give."


def _decide_power(decision: Decision[State], command: Command, seat: int) -> None:
    state: State = decision.state
    power = pending_power(state)
    expected = {
        CTHULHU: ("give_card", "stop_giving"),
        SHUB_NIGGURATH: ("look_at_hand",) if power.target is None else ("take_card",),
        NYARLATHOTEP: ("take_deck_card",),
    }[power.portal]
    require(command.type in expected, "rules/finish_the_portal_power",
            f"Finish the {PORTAL_NAMES[power.portal]} power first ({' or '.join(expected)}).", expected=list(expected))
    hands = state.cards.hands
    match command:
        case GiveCard(seat=to, location=loc):
            require(to != seat and to < state.players, "rules/give_to_an_opponent", "Cthulhu's cards go to other players.")
            require(hands[seat][slot(loc)] > 0, "rules/card_not_in_hand", "You do not hold that Location card.")
            decision.emit(CardGiven(seat=seat, to=to, location=loc), secret={"location": [seat, to]})
            if not hand_size(decision.state, seat):
                _end_round(decision, RoundEnd.HAND_EMPTIED, seat)
                return
            gifts = in_play(decision.state).pending
            if gifts is not None and gifts.given >= MAX_GIFTS:
                decision.emit(PowerResolved(seat=seat, portal=CTHULHU))
        case StopGiving():
            require(power.given > 0, "rules/give_at_least_one", "Cthulhu distributes 1 or 2 cards: give at least one.")
            decision.emit(PowerResolved(seat=seat, portal=CTHULHU))
        case LookAtHand(seat=target):
            require(target != seat and target < state.players, "rules/look_at_an_opponent",
                    "Shub-Niggurath looks at an opponent's hand.")
            require(hand_size(state, target) > 0, "rules/opponent_has_no_cards", "That opponent holds no cards.")
            decision.emit(HandLookedAt(seat=seat, target=target, cards=hand_cards(hands[target])), secret={"cards": [seat]})
        case TakeCard(location=loc):
            looked = power.target
            assert looked is not None  # Shub-Niggurath takes from the hand its sealer looked at
            require(hands[looked][slot(loc)] > 0, "rules/card_not_in_that_hand", "That hand holds no such Location card.")
            decision.emit(CardTaken(seat=seat, target=looked, location=loc), secret={"location": [seat, looked]})
            decision.emit(PowerResolved(seat=seat, portal=SHUB_NIGGURATH))
        case TakeDeckCard(position=pos):
            deck = state.cards.deck
            require(pos < len(deck), "rules/no_such_position", "There is no card at that position of the deck.",
                    deck=len(deck))
            loc, up = deck[pos]
            decision.emit(DeckCardTaken(seat=seat, position=pos, face_up=up, card=loc),
                          secret=None if up else {"card": [seat]})
            decision.emit(PowerResolved(seat=seat, portal=NYARLATHOTEP))
            _after_deck_change(decision, seat)  # ends the turn if nothing is left to do
            return
        case _:
            raise TypeError(f"pocket madness: no power rule for {command!r}")
    if isinstance(decision.state.phase, Playing) and decision.state.phase.pending is None:
        _maybe_end_turn(decision)


def _after_deck_change(decision: Decision[State], seat: int) -> None:
    """The deck is empty: every player, the one who took the last card included and last, gets one last turn."""
    state: State = decision.state
    if deck_empty(state) and in_play(state).last_turns is None:
        decision.emit(DeckExhausted(last_turns=[(seat + k) % state.players for k in range(1, state.players + 1)]))
    if in_play(decision.state).pending is None:
        _maybe_end_turn(decision)


def _after_cards_played(decision: Decision[State], seat: int) -> None:
    """A player who has played all her cards ends the round immediately."""
    if not hand_size(decision.state, seat):
        _end_round(decision, RoundEnd.HAND_EMPTIED, seat)
    else:
        _maybe_end_turn(decision)


def _maybe_end_turn(decision: Decision[State]) -> None:
    """End the turn by itself once nothing is left to do (decided on public facts only)."""
    state: State = decision.state
    if isinstance(state.phase, Playing) and state.phase.pending is None:
        turn = state.phase.turn
        if action_closed(turn) and not sealable(state, turn.seat):
            _end_turn(decision)


def _end_turn(decision: Decision[State]) -> None:
    state: State = decision.state
    playing = in_play(state)
    seat = playing.turn.seat
    decision.emit(TurnEnded(seat=seat))
    if playing.turn.dagon:
        decision.emit(TurnStarted(seat=seat, extra=True))
    elif playing.last_turns is None:
        decision.emit(TurnStarted(seat=(seat + 1) % state.players, extra=False))
    elif playing.last_turns:
        decision.emit(TurnStarted(seat=playing.last_turns[0], extra=False))
    else:
        _end_round(decision, RoundEnd.DECK_EXHAUSTED, None)


def _end_round(decision: Decision[State], reason: RoundEnd, ender: int | None) -> None:
    """End of the round, its scoring recorded as public facts.

    Deck empty: every hand is laid down (public) and each player takes 1 Madness per different Location in it.
    Hand emptied: the ender discards half her tokens (rounded up) and each opponent takes 1.
    """
    state: State = decision.state
    if reason == RoundEnd.HAND_EMPTIED:
        decision.emit(RoundEnded(reason=reason, seat=ender, gained=round_gains(state, reason, ender)))
    else:
        hands = [hand_cards(h) for h in state.cards.hands]
        decision.emit(RoundEnded(reason=reason, seat=None, gained=round_gains(state, reason, None), hands=hands))


def round_gains(state: State, reason: RoundEnd, ender: int | None) -> list[int]:
    """Each seat's Madness change at the round's end (End of the Round): the ender of a hand sheds half her tokens
    (rounded up) and each opponent takes 1; an exhausted deck gives 1 per different Location held."""
    if reason == RoundEnd.HAND_EMPTIED:
        return [-((m + 1) // 2) if s == ender else 1 for s, m in enumerate(state.madness)]
    return [sum(1 for n in h if n) for h in state.cards.hands]


def round_ended(state: State, reason: RoundEnd, ender: int | None, gained: list[int]) -> State:
    """The fold of ``RoundEnded``, and the playouts' (``simulate``)."""
    madness = tuple(m + g for m, g in zip(state.madness, gained))
    return replace(state, madness=madness, phase=RoundOver(RoundEnd(reason), ender, tuple(gained)))


# -- evolve -------------------------------------------------------------------------------------------------


def evolve(state: State | None, event: Event) -> State:
    fact = FACTS.parse(event)
    if isinstance(fact, RoundDealt):
        return _dealt(state, fact)
    assert state is not None
    match fact:
        case FirstPlayerChosen(seat=seat):
            return replace(state, start=seat, phase=Playing(Turn(seat)))
        case CardsDrawn(seat=seat, count=count, revealed=revealed, face_down=face_down):
            cards = state.cards
            hand = hand_of([*hand_cards(cards.hands[seat]), *revealed, *face_down])
            cards = replace(_replace_hand(cards, seat, hand), deck=cards.deck[count:])
            cards = seen_by_all(cards, seat, lambda known: hand_of([*hand_cards(known), *revealed]))
            return _turn(replace(state, cards=cards), action=Action.DREW)
        case SetMelded(seat=seat, location=loc, count=count):
            played = hand_add(EMPTY_HAND, loc, count)
            cards = _played(state.cards, seat, played, Meld(loc, count))
            return _turn(replace(state, cards=cards), action=Action.SETS, melds=in_play(state).turn.melds + 1)
        case PortalClaimed(seat=seat, portal=portal):
            cards = replace(state.cards, portals=replace_at(state.cards.portals, slot(portal), seat))
            return _turn(replace(state, cards=cards), claimed=in_play(state).turn.claimed | {portal})
        case RunMelded(seat=seat, number=number, madness=added):
            cards = _played(state.cards, seat, (1,) * len(LOCATIONS), Meld(None, len(LOCATIONS)))
            gained = tuple(m if s == seat else m + added for s, m in enumerate(state.madness))
            state = replace(state, cards=cards, madness=gained, phase=replace(in_play(state), runs=number))
            return _turn(state, action=Action.RUNS, melds=in_play(state).turn.melds + 1)
        case PortalSealed(seat=seat, portal=portal):
            turn = in_play(state).turn
            cards = replace(state.cards, portals=replace_at(state.cards.portals, slot(portal), None))
            state = _turn(replace(state, cards=cards), sealed=True, closed=turn.action in (Action.SETS, Action.RUNS))
            if portal in (CTHULHU, SHUB_NIGGURATH, NYARLATHOTEP):
                return replace(state, phase=replace(in_play(state), pending=Power(portal)))
            if portal == DAGON:
                return _turn(state, dagon=True)
            if portal == SHOGGOTH:
                return replace(state, phase=replace(in_play(state), shoggoth=seat))
            return state
        case TurnPassed():
            return _turn(state, action=Action.PASSED)
        case CardDiscarded(seat=seat, card=card):
            cards = state.cards
            cards = replace(_replace_hand(cards, seat, hand_add(cards.hands[seat], card, -1)),
                            discards=replace_at(cards.discards, seat, cards.discards[seat] + (card,)))
            cards = seen_by_all(cards, seat, lambda known: hand_minus(known, hand_add(EMPTY_HAND, card)))
            return replace(state, cards=cards)
        case CardGiven(seat=seat, to=to, location=loc):
            pending = replace(pending_power(state), given=pending_power(state).given + 1)
            cards = moved_secretly(state.cards, seat, to, loc)
            return replace(state, cards=cards, phase=replace(in_play(state), pending=pending))
        case HandLookedAt(seat=seat, target=target):
            pending = replace(pending_power(state), target=target)
            cards = looked_at(state.cards, seat, target)
            return replace(state, cards=cards, phase=replace(in_play(state), pending=pending))
        case CardTaken(seat=seat, target=target, location=loc):
            return replace(state, cards=moved_secretly(state.cards, target, seat, loc))
        case DeckCardTaken(seat=seat, position=pos, face_up=up, card=card):
            cards = state.cards
            cards = replace(_replace_hand(cards, seat, hand_add(cards.hands[seat], card)),
                            deck=cards.deck[:pos] + cards.deck[pos + 1 :])
            if up:
                cards = seen_by_all(cards, seat, lambda known: hand_add(known, card))
            return replace(state, cards=cards)
        case PowerResolved():
            return replace(state, phase=replace(in_play(state), pending=None))
        case DeckExhausted(last_turns=order):
            return replace(state, phase=replace(in_play(state), last_turns=tuple(order)))
        case TurnEnded():
            return state
        case TurnStarted(seat=seat, extra=extra):
            return started(state, seat, extra)
        case RoundEnded(reason=reason, seat=ender, gained=gained):
            return round_ended(state, RoundEnd(reason), ender, gained)
        case fact:
            raise TypeError(f"pocket-madness: no fold for {fact!r}")


def started(state: State, seat: int, extra: bool) -> State:
    """``seat``'s turn begins (``extra``: a Dagon turn): the fold of ``TurnStarted``, and the playouts' (``simulate``)."""
    playing = in_play(state)
    last_turns = playing.last_turns
    if last_turns is not None and not extra:
        last_turns = last_turns[1:]
    turn = Turn(seat, extra=extra, last=playing.last_turns is not None,
                gug_claimed_before=extra and GUG in playing.turn.claimed)
    shoggoth = None if playing.shoggoth == seat else playing.shoggoth
    return replace(state, phase=replace(playing, turn=turn, last_turns=last_turns, shoggoth=shoggoth))


def _dealt(state: State | None, dealt: RoundDealt) -> State:
    """A new round's cards; Madness and the previous start player carry over."""
    players = dealt.players
    face_down = iter(dealt.face_down)
    cards = RoundCards(
        hands=tuple(hand_of(h) for h in dealt.hands()),
        deck=tuple((next(face_down), False) if loc is None else (loc, True) for loc in dealt.deck),
        melds=((),) * players,
        discards=((),) * players,
        portals=(None,) * len(LOCATIONS),
        known=(EMPTY_HAND,) * players,
        learned=((EMPTY_HAND,) * players,) * players,
    )
    if state is None:
        return PocketMadnessState(players, dealt.round, None, (0,) * players, cards, Designating(dealt.chooser))
    return replace(state, round=dealt.round, cards=cards, phase=Designating(dealt.chooser))


def _turn(state: State, **changes: Any) -> State:
    playing = in_play(state)
    return replace(state, phase=replace(playing, turn=replace(playing.turn, **changes)))


def _replace_hand(cards: RoundCards, seat: int, hand: tuple[int, ...]) -> RoundCards:
    return replace(cards, hands=replace_at(cards.hands, seat, hand))


def _played(cards: RoundCards, seat: int, played: tuple[int, ...], meld: Meld) -> RoundCards:
    """``played`` cards melded face up from ``seat``'s hand: they leave it and what everyone knows of it."""
    cards = replace(_replace_hand(cards, seat, tuple(h - p for h, p in zip(cards.hands[seat], played))),
                    melds=replace_at(cards.melds, seat, cards.melds[seat] + (meld,)))
    return seen_by_all(cards, seat, lambda known: hand_minus(known, played))
