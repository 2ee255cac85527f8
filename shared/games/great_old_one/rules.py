"""Rules of Cthulhu: The Great Old One, Elder Edition: setup, decide, evolve, who the game waits on, legal commands
and the end.

Rulebook: ``shared/rulebooks/cthulhu-the-great-old-one.txt``. Every ruling where it is silent is written down in
``docs/rulings/great-old-one.md`` and pinned by a test named after it.

Shape of play: an opening where every seat may lay down pairs (all seats at once), then turns of four phases
(Draw, Call, Recruit, Horror) ended by ``end_turn``. The seat whose turn it is may play pairs in any phase;
any seat holding a Sign may play it in any phase of any turn: an out-of-turn play the seat finds in its own
legal commands, while the game waits only on the seat whose turn it is.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from enum import StrEnum
from typing import Any

from shared.kernel import Command, Decided, Decision, Event, Outcome, interned, replace, replace_at, RuleViolation
from shared.kernel.errors import require

from shared.games.great_old_one.commands import (
    CallStory, DrawCard, EndTurn, FinishOpening, PassCall, PassRecruit, PlayHorror, PlayPair, PlaySign, RecruitDraw,
    RecruitSwap,
)
from shared.games.great_old_one.cards import (
    CENTRE_SIZE, CULTIST, DECK_SIZE, GREAT_OLD_ONE, HAND_SIZE, HORROR_CARDS, HORROR_CONNECTION, PAIRS_TO_END,
    SCORE_CULTIST, SCORE_HORROR, SCORE_LINKED, SCORE_MATCHED, SIGN_CARDS, STORY_CARDS, STORY_KEYS, STORY_OF,
    pair_connections, pairs_in,
)
from shared.games.great_old_one.effects import NO_CHOICE, carry_out, check_swap, check_way, opponents, random_card, ways
from shared.games.great_old_one.events import (
    FACTS, CallPassed, CardDrawn, CardGiven, CardsDealt, CardTaken, CentreRevealed, CultistPlayed, DeckShuffled,
    DrawSkipped, FinalRoundBegan, GameEnded, GameStarted, HorrorPlayed, HorrorReturned, HorrorTaken, OpeningFinished,
    PairPlayed, PhaseBegan, RecruitPassed, SignPlayed, StoryCalled, StorySwapped, TurnBegan, TurnEnded, WardRaised,
)
from shared.games.great_old_one.memory import remembering
from shared.games.great_old_one.state import Area, EndReason, Opening, Over, Pair, Step, Turn
from shared.games.great_old_one.state import GreatOldOneState as State


class Reason(StrEnum):
    """Why the winners won (How To Win)."""

    SCORE = "score"
    GREAT_OLD_ONE_IN_HAND = "great_old_one_in_hand"
    GREAT_OLD_ONE_WITH_CULTIST = "great_old_one_with_cultist"


def score(area: Area) -> int:
    """How To Win: matched pairs 2, linked pairs 1, Horror cards 1, the Cultist -1."""
    pairs = sum(SCORE_MATCHED if p.matched else SCORE_LINKED for p in area.pairs)
    return pairs + SCORE_HORROR * len(area.horrors) + (SCORE_CULTIST if area.cultist else 0)


# -- setup ---------------------------------------------------------------------------------------------


def setup(players: int, options: Mapping[str, Any], entropy: bytes) -> list[Event]:
    """To Begin: shuffle, deal nine each, turn up three Story cards (the others shuffled back)."""
    first = options.get("first_player", 0)
    require(
        0 <= first < players, "rules/invalid_option", "the first player must be one of the seats at the table",
        option="first_player", players=players,
    )
    decision: Decision[Any] = Decision(None, evolve, entropy)
    order = list(range(DECK_SIZE))
    decision.rng.shuffle(order)
    decision.emit(GameStarted(players=players, first_player=first, finish_round=bool(options.get("finish_round", False))))
    decision.emit(DeckShuffled(order=list(order)), secret={"order": []})
    for seat in range(players):
        cards = sorted(order[seat * HAND_SIZE : (seat + 1) * HAND_SIZE])
        decision.emit(CardsDealt(seat=seat, cards=cards), secret={"cards": [seat]})
    rest = order[players * HAND_SIZE :]
    centre: list[int] = []
    turned: list[int] = []
    for card in rest:
        if len(centre) == CENTRE_SIZE:
            break
        (centre if card in STORY_CARDS else turned).append(card)
    decision.emit(CentreRevealed(cards=centre, returned=turned))
    remaining = [c for c in rest if c not in set(centre)]
    decision.rng.shuffle(remaining)
    decision.emit(DeckShuffled(order=remaining), secret={"order": []})
    return decision.events


# -- evolve --------------------------------------------------------------------------------------------


def _fold(state: State | None, event: Event) -> State:
    fact = FACTS.parse(event)
    if isinstance(fact, GameStarted):
        n = fact.players
        return State(
            players=n, first_player=fact.first_player, phase=Opening(), deck=(), hands=((),) * n, areas=(Area(),) * n,
            centre=(), removed=(), warded=frozenset(), finish_round=fact.finish_round,
        )
    assert state is not None
    match fact:
        case DeckShuffled(order=order):
            return replace(state, deck=tuple(order))
        case CardsDealt(seat=seat, cards=cards):
            return _to_hand(_from_deck(state, cards), seat, cards)
        case CentreRevealed(cards=cards):
            return replace(_from_deck(state, cards), centre=tuple(cards))
        case PairPlayed(seat=seat, cards=cards, matched=matched, connections=connections):
            area = state.areas[seat]
            state = _from_hand(state, seat, *cards)
            pair = Pair((cards[0], cards[1]), matched, tuple(connections))
            return replace(state, areas=replace_at(state.areas, seat, replace(area, pairs=area.pairs + (pair,))))
        case OpeningFinished(seat=seat):
            return replace(state, phase=Opening(_opening(state).done | {seat}))
        case TurnBegan(seat=seat, turn_number=number):
            final_round = isinstance(state.phase, Turn) and state.phase.final_round
            return replace(state, phase=Turn(seat, number, final_round=final_round), warded=state.warded - {seat})
        case PhaseBegan(phase=step):
            return replace(state, phase=replace(_turn(state), step=Step(step)))
        case CardDrawn(seat=seat, card=card):
            return _to_hand(_from_deck(state, [card]), seat, [card])
        case StoryCalled(seat=seat, target=target, card=card):
            return state if card is None else _move(state, card, target, seat)
        case CardTaken(seat=seat, from_seat=source, card=card):
            return _move(state, card, source, seat)
        case CardGiven(seat=seat, to_seat=target, card=card):
            return _move(state, card, seat, target)
        case StorySwapped(seat=seat, card=card, centre_card=centre):
            state = _to_hand(_from_hand(state, seat, card), seat, [centre])
            return replace(state, centre=replace_at(state.centre, state.centre.index(centre), card))
        case HorrorPlayed(seat=seat, card=card):
            area = state.areas[seat]
            state = _horror_down(_from_hand(state, seat, card))
            return replace(state, areas=replace_at(state.areas, seat, replace(area, horrors=area.horrors + (card,))))
        case CultistPlayed(seat=seat, card=card):
            state = _horror_down(_from_hand(state, seat, card))
            return replace(state, areas=replace_at(state.areas, seat, replace(state.areas[seat], cultist=True)))
        case HorrorTaken(seat=seat, from_seat=owner, card=card) | HorrorReturned(seat=seat, from_seat=owner, card=card):
            area = state.areas[owner]
            area = replace(area, horrors=tuple(h for h in area.horrors if h != card))
            return _to_hand(replace(state, areas=replace_at(state.areas, owner, area)), seat, [card])
        case SignPlayed(seat=seat, card=card):
            return replace(_from_hand(state, seat, card), removed=state.removed + (card,))
        case FinalRoundBegan():
            return replace(state, phase=replace(_turn(state), final_round=True))
        case WardRaised(seat=seat):
            return replace(state, warded=state.warded | {seat})
        case CallPassed() | RecruitPassed() | TurnEnded() | DrawSkipped():
            return state
        case GameEnded(reason=reason):
            return replace(state, phase=Over(EndReason(reason), _turn(state)))
    raise TypeError(f"great-old-one: no fold for {fact!r}")


evolve: Callable[[State | None, Event], State] = remembering(_fold)  # the fold, and what each seat saw (memory.py)


def _opening(state: State) -> Opening:
    assert isinstance(state.phase, Opening), "an opening fact outside the opening"
    return state.phase


def _horror_down(state: State) -> State:
    """A Horror or the Cultist is down: in a turn, the one it allows (a position laid out by other means has none)."""
    return replace(state, phase=replace(state.phase, horror_played=True)) if isinstance(state.phase, Turn) else state


def _turn(state: State) -> Turn:
    assert isinstance(state.phase, Turn), "a turn's fact outside a turn"
    return state.phase


def _from_deck(state: State, cards: list[int]) -> State:
    gone = set(cards)
    return replace(state, deck=tuple(c for c in state.deck if c not in gone))


def _to_hand(state: State, seat: int, cards: list[int]) -> State:
    return replace(state, hands=replace_at(state.hands, seat, tuple(sorted(state.hands[seat] + tuple(cards)))))


def _from_hand(state: State, seat: int, *cards: int) -> State:
    gone = set(cards)
    return replace(state, hands=replace_at(state.hands, seat, tuple(c for c in state.hands[seat] if c not in gone)))


def _move(state: State, card: int, source: int, target: int) -> State:
    return _to_hand(_from_hand(state, source, card), target, [card])


# -- who the game waits on, and what a seat may do ----------------------------------------------------------


def to_act(state: State) -> frozenset[int]:
    """The seats the game waits on: in the opening those that have not finished, then the seat whose turn it is.
    A seat holding a Sign may play it out of turn but is not waited on (that would say it holds one)."""
    phase = state.phase
    if isinstance(phase, Turn):
        return _alone(phase.seat)
    if isinstance(phase, Opening):
        return frozenset(range(state.players)) - phase.done
    return frozenset()


@functools.cache
def _alone(seat: int) -> frozenset[int]:
    return frozenset({seat})


def legal_commands(state: State, seat: int) -> list[Command]:
    """Every command ``seat`` may post now, complete."""
    turn = state.phase
    match turn:
        case Over():
            return []
        case Opening(done=done):
            return [] if seat in done else _pair_commands(state, seat, with_takes=False) + [FinishOpening()]
    assert isinstance(turn, Turn)
    commands: list[Command] = []
    hand = state.hands[seat]
    if seat == turn.seat:
        commands = _pair_commands(state, seat, with_takes=True)
        commands += _phase_commands(state, turn, seat)
    if not SIGN_CARDS.isdisjoint(hand):
        for card in hand:
            if card in SIGN_CARDS:
                commands += [_sign(card, *way) for way in ways(state, seat, card)]
    return commands


# one record per distinct command (``interned``): the AI's playouts list them on every move
_sign, _horror, _pair, _call, _swap = (interned(PlaySign), interned(PlayHorror), interned(PlayPair), interned(CallStory),
                                       interned(RecruitSwap))
_DRAW, _PASS_CALL, _RECRUIT_DRAW, _PASS_RECRUIT, _END = DrawCard(), PassCall(), RecruitDraw(), PassRecruit(), EndTurn()


@functools.cache
def _calls(target: int) -> tuple[CallStory, ...]:
    """Every Call of ``target``: one for each Story (the Call phase's commands, up to a hundred at six seats)."""
    return tuple(_call(target=target, story=story) for story in STORY_KEYS)


def _takeable(state: State, connections: tuple[str, ...]) -> list[tuple[int, int]]:
    """Story Cards: a pair naming a connection may take a Horror "currently in play" naming it, from any play
    area, the player's own included."""
    return [
        (owner, h)
        for owner in range(state.players)
        for h in state.areas[owner].horrors
        if HORROR_CONNECTION[h] in connections
    ]


def _pair_commands(state: State, seat: int, with_takes: bool) -> list[Command]:
    commands: list[Command] = []
    pairs = pairs_in(state.hands[seat])
    if not pairs:
        return commands
    with_takes = with_takes and any(area.horrors for area in state.areas)
    for a, b in pairs:
        commands.append(_pair((a, b), None))
        if with_takes:
            connections = pair_connections(a, b)[1]  # type: ignore[index]  # a pair
            commands += [_pair((a, b), h) for _, h in _takeable(state, connections)]
    return commands


def _callable(state: State, seat: int) -> list[int]:
    return [t for t in opponents(state, seat) if state.hands[t]]


def _phase_commands(state: State, turn: Turn, seat: int) -> list[Command]:
    hand = state.hands[seat]
    commands: list[Command]
    step = turn.step
    if step is Step.DRAW:
        return [_DRAW]
    if step is Step.CALL:
        commands = []
        for t in _callable(state, seat):
            commands += _calls(t)
        return commands or [_PASS_CALL]
    if step is Step.RECRUIT:
        centre = state.centre
        commands = [_swap(c, x) for c in hand if c in STORY_CARDS for x in centre]
        if state.deck:
            commands.append(_RECRUIT_DRAW)
        return commands or [_PASS_RECRUIT]
    # the Horror phase
    commands = []
    if not turn.horror_played:
        for card in hand:
            if card in HORROR_CARDS:
                commands += [_horror(card, *way) for way in ways(state, seat, card)]
            elif card == CULTIST:
                commands.append(_horror(card, None, None, None))
    commands.append(_END)
    return commands


# -- decide ----------------------------------------------------------------------------------------------

Handler = Callable[[Decision[State], Any, int], None]


def decide(state: State, command: Command, seat: int, entropy: bytes) -> Decided[State]:
    """Check a command against the rules and return the facts it produces."""
    decision = Decision(state, evolve, entropy)
    if isinstance(command, PlaySign):
        _play_sign(decision, command, seat)
    elif isinstance(state.phase, Opening):
        _decide_opening(decision, command, seat)
    else:  # a turn: the kernel refuses any command once the game is over
        if isinstance(command, FinishOpening):
            raise RuleViolation("rules/opening_over", "the opening is over")
        if isinstance(command, PlayPair):
            _play_pair(decision, command, seat)
        else:
            step, handler = PHASE_COMMANDS[type(command)]
            now = _turn(state).step
            require(
                now is step, "rules/wrong_phase",
                f"that is done in the {step.value} phase; this is the {now.value} phase", phase=now.value,
            )
            handler(decision, command, seat)
    return decision.decided()


def _decide_opening(decision: Decision[State], command: Command, seat: int) -> None:
    """To Begin 3: each player may play Matched or Linked pairs, all at once; the first turn follows the last."""
    state = decision.state
    match command:
        case PlayPair(take=take):
            require(take is None, "rules/no_horror_to_take", "no Horror card is in play to take")
            _play_pair(decision, command, seat)
        case FinishOpening():
            decision.emit(OpeningFinished(seat=seat))
            if len(_opening(decision.state).done) == state.players:
                decision.emit(TurnBegan(seat=state.first_player, turn_number=1))
        case _:
            raise RuleViolation("rules/opening_in_progress", "the game has not begun: play opening pairs or finish your opening")


def _game_over(decision: Decision[State], reason: EndReason) -> None:
    """How To Win: the game ends and all players reveal their hands: to every seat, in the event as in the view."""
    decision.emit(GameEnded(reason=reason.value, hands=[list(h) for h in decision.state.hands]))


def _play_pair(decision: Decision[State], command: PlayPair, seat: int) -> None:
    """Story Cards: a Matched or Linked pair, at any time during your turn; it may take a Horror naming it."""
    state, cards = decision.state, command.cards
    require(len(cards) == 2, "rules/pair_is_two_cards", "a pair is two cards")
    a, b = cards
    require(a < b, "rules/pair_not_in_order", "list the two cards of a pair in ascending order")
    hand = state.hands[seat]
    require(a in hand and b in hand, "rules/card_not_in_hand", "you do not hold those cards")
    info = pair_connections(a, b)
    if info is None:
        raise RuleViolation("rules/not_a_pair", "those cards are neither a Matched nor a Linked pair")
    matched, connections = info
    take = command.take
    owners = {h: owner for owner, h in _takeable(state, connections)}
    require(
        take is None or take in owners, "rules/horror_not_named",
        "you may take only a Horror card in play naming a connection your pair names",
    )
    decision.emit(PairPlayed(seat=seat, cards=[a, b], matched=matched, connections=list(connections)))
    if take is not None:
        decision.emit(HorrorTaken(seat=seat, from_seat=owners[take], card=take))
    if len(decision.state.areas[seat].pairs) >= PAIRS_TO_END and isinstance(state.phase, Turn):
        if not state.finish_round:
            _game_over(decision, EndReason.SEVENTH_PAIR)
        elif not state.phase.final_round:
            decision.emit(FinalRoundBegan(seat=seat))


def _draw(decision: Decision[State], seat: int) -> None:
    decision.emit(CardDrawn(seat=seat, card=decision.state.deck[0]), secret={"card": [seat]})


def _draw_phase(decision: Decision[State], command: DrawCard, seat: int) -> None:
    """Draw Phase: draw a card; with the deck empty there is nothing to draw (ruling 18)."""
    if decision.state.deck:
        _draw(decision, seat)
    else:
        decision.emit(DrawSkipped(seat=seat))
    decision.emit(PhaseBegan(phase=Step.CALL.value))


def _call_story(decision: Decision[State], command: CallStory, seat: int) -> None:
    """Call Phase: name a Story card to an opponent; they hand it over if held, else take one at random."""
    state, target, story = decision.state, command.target, command.story
    require(story in STORY_KEYS, "rules/no_such_story", "there is no Story card by that name", story=story[:64])
    require(0 <= target < state.players and target != seat, "rules/call_an_opponent", "call one of your opponents")
    hand = state.hands[target]
    require(bool(hand), "rules/opponent_hand_empty", "that opponent holds no cards")
    if target in state.warded:
        decision.emit(StoryCalled(seat=seat, target=target, story=story, warded=True, card=None, handed=False))
    else:
        held = [c for c in hand if STORY_OF[c] == story]
        card, handed = (held[0], True) if held else (random_card(decision, hand), False)
        called = StoryCalled(seat=seat, target=target, story=story, warded=False, card=card, handed=handed)
        decision.emit(called, secret={"card": [seat, target]})
    decision.emit(PhaseBegan(phase=Step.RECRUIT.value))


def _pass_call(decision: Decision[State], command: PassCall, seat: int) -> None:
    require(not _callable(decision.state, seat), "rules/must_call", "an opponent holds cards: you must call")
    decision.emit(CallPassed(seat=seat))
    decision.emit(PhaseBegan(phase=Step.RECRUIT.value))


def _recruit_swap(decision: Decision[State], command: RecruitSwap, seat: int) -> None:
    """Recruit Phase: switch a Story card from your hand with one in the centre."""
    check_swap(decision.state, seat, command.card, command.centre_card)
    decision.emit(StorySwapped(seat=seat, card=command.card, centre_card=command.centre_card))
    decision.emit(PhaseBegan(phase=Step.HORROR.value))


def _recruit_draw(decision: Decision[State], command: RecruitDraw, seat: int) -> None:
    """Recruit Phase: or draw a card from the deck."""
    require(bool(decision.state.deck), "rules/deck_empty", "the deck is empty: switch a Story card instead")
    _draw(decision, seat)
    decision.emit(PhaseBegan(phase=Step.HORROR.value))


def _pass_recruit(decision: Decision[State], command: PassRecruit, seat: int) -> None:
    state = decision.state
    can_swap = any(c in STORY_CARDS for c in state.hands[seat])
    require(not can_swap and not state.deck, "rules/must_recruit", "you can switch a Story card or draw: you must recruit")
    decision.emit(RecruitPassed(seat=seat))
    decision.emit(PhaseBegan(phase=Step.HORROR.value))


def _way(command: PlayHorror | PlaySign) -> dict[str, Any]:
    return {"target": command.target, "chosen": command.chosen, "centre": command.centre}


def _play_horror(decision: Decision[State], command: PlayHorror, seat: int) -> None:
    """Horror Phase: you may play one Horror or the Cultist card from your hand to your play area."""
    state, card, way = decision.state, command.card, _way(command)
    require(not _turn(state).horror_played, "rules/one_horror_per_turn", "you have already played a Horror or the Cultist this turn")
    require(card in state.hands[seat], "rules/card_not_in_hand", "you do not hold that card")
    require(card in HORROR_CARDS or card == CULTIST, "rules/not_a_horror", "only a Horror card or the Cultist can be played now")
    if card == CULTIST:
        require(way == NO_CHOICE, "rules/cultist_has_no_effect", "the Cultist has no effect to aim")
        decision.emit(CultistPlayed(seat=seat, card=card))
        return
    check_way(state, seat, card, way)
    decision.emit(HorrorPlayed(seat=seat, card=card))
    carry_out(decision, seat, card, way)


def _play_sign(decision: Decision[State], command: PlaySign, seat: int) -> None:
    """Sign Cards: playable at any time during any turn, by any seat; then removed from the game."""
    state, card, way = decision.state, command.card, _way(command)
    require(isinstance(state.phase, Turn), "rules/signs_during_turns", "Signs are played during a turn, not before the first")
    require(card in state.hands[seat], "rules/card_not_in_hand", "you do not hold that card")
    require(card in SIGN_CARDS, "rules/not_a_sign", "that card is not a Sign")
    check_way(state, seat, card, way)
    decision.emit(SignPlayed(seat=seat, card=card))
    carry_out(decision, seat, card, way)


def _end_turn(decision: Decision[State], command: EndTurn, seat: int) -> None:
    """End of turn; once the deck is empty (or a 7th pair is down, with finish_round) the game ends with the round."""
    state, turn = decision.state, _turn(decision.state)
    following = (seat + 1) % state.players
    decision.emit(TurnEnded(seat=seat))
    if (turn.final_round or not state.deck) and following == state.first_player:
        _game_over(decision, EndReason.SEVENTH_PAIR if turn.final_round else EndReason.DECK_EXHAUSTED)
    else:
        decision.emit(TurnBegan(seat=following, turn_number=turn.number + 1))


PHASE_COMMANDS: dict[type[Command], tuple[Step, Handler]] = {
    DrawCard: (Step.DRAW, _draw_phase),
    CallStory: (Step.CALL, _call_story),
    PassCall: (Step.CALL, _pass_call),
    RecruitSwap: (Step.RECRUIT, _recruit_swap),
    RecruitDraw: (Step.RECRUIT, _recruit_draw),
    PassRecruit: (Step.RECRUIT, _pass_recruit),
    PlayHorror: (Step.HORROR, _play_horror),
    EndTurn: (Step.HORROR, _end_turn),
}


# -- the end ---------------------------------------------------------------------------------------------


def outcome(state: State) -> Outcome | None:
    """How To Win: the Great Old One in hand loses unless its holder's Cultist is in play (then it wins)."""
    if not isinstance(state.phase, Over):
        return None
    scores = tuple(score(a) for a in state.areas)
    holder = _holder(state)
    details: dict[str, Any] = {"end": state.phase.reason.value, "great_old_one": holder,
                               "pairs": [len(a.pairs) for a in state.areas]}
    winners = winners_among(state, frozenset(range(state.players)))
    if holder is not None and state.areas[holder].cultist:
        return Outcome(Reason.GREAT_OLD_ONE_WITH_CULTIST, winners, scores, details)
    return Outcome(Reason.GREAT_OLD_ONE_IN_HAND if holder is not None else Reason.SCORE, winners, scores, details)


def winners_among(state: State, standing: frozenset[int]) -> tuple[int, ...]:
    """How To Win among ``standing``: the holder of The Great Old One wins if its Cultist is in play, else loses;
    the others compare points, then pairs (so do the seats standing when a holder who would have won resigned)."""
    holder = _holder(state)
    if holder is not None and holder in standing and state.areas[holder].cultist:
        return (holder,)
    contenders = [s for s in sorted(standing) if s != holder]
    if not contenders:
        return ()
    ranks = {s: (score(state.areas[s]), len(state.areas[s].pairs)) for s in contenders}
    best = max(ranks.values())
    return tuple(s for s in contenders if ranks[s] == best)


def _holder(state: State) -> int | None:
    return next((s for s in range(state.players) if GREAT_OLD_ONE in state.hands[s]), None)
