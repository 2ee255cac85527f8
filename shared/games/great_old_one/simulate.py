"""The Great Old One's moves for the AI's playouts (``AiHooks.simulate``): ``decide``'s state, built directly.

A playout plays a command the game itself just listed, in a world the search drew, and reads only the state it
leaves. ``decide`` checks it, emits its facts (a card moved, the next phase) and ``evolve`` rebuilds the state and
then each seat's memory (``memory.py``) once for each. Here each command type has its move (``_MOVES``): a draw,
a pass and the turn's end build the state at once; the others make their changes to a draft of the fields they
touch and build the state once, the memory following the same steps with the same helpers (``forget`` what left a
hand after each fact that takes from one, ``learn`` what a seat saw go into one). The opening's end goes to
``decide``. ``tests/unit/test_ai_simulate.py`` checks that the state is exactly ``decide``'s.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import fields
from typing import Any

from shared.kernel import Command, rng

from shared.games.great_old_one.cards import (
    CULTIST, EFFECT_OF, PAIRS_TO_END, STORY_OF, Effect, pair_connections,
)
from shared.games.great_old_one.commands import (
    CallStory, DrawCard, EndTurn, PassCall, PassRecruit, PlayHorror, PlayPair, PlaySign, RecruitDraw, RecruitSwap,
)
from shared.games.great_old_one.effects import DRAWN_BY_DRAW_TWO
from shared.games.great_old_one.memory import forget, learn, others_saw
from shared.games.great_old_one.rules import decide
from shared.games.great_old_one.state import Area, EndReason, GreatOldOneState, Opening, Over, Pair, Step, Turn

State = GreatOldOneState

# The records a move builds, their slots set directly, as ``kernel.replace`` builds a frozen slotted record: a positional
# call, with no dict of changes to read each field from (every move builds a state, and most a Turn or an Area).
_new = object.__new__
(_s_players, _s_first, _s_phase, _s_deck, _s_hands, _s_areas, _s_centre, _s_removed, _s_warded, _s_finish,
 _s_known) = (getattr(State, f.name).__set__ for f in fields(State))
_t_seat, _t_number, _t_step, _t_horror, _t_final = (getattr(Turn, f.name).__set__ for f in fields(Turn))
_a_pairs, _a_horrors, _a_cultist = (getattr(Area, f.name).__set__ for f in fields(Area))


def _state(players: int, first_player: int, phase: Any, deck: tuple[int, ...], hands: tuple[tuple[int, ...], ...],
           areas: tuple[Area, ...], centre: tuple[int, ...], removed: tuple[int, ...], warded: frozenset[int],
           finish_round: bool, known: tuple[tuple[int, int, int], ...]) -> State:
    made = _new(State)
    _s_players(made, players)
    _s_first(made, first_player)
    _s_phase(made, phase)
    _s_deck(made, deck)
    _s_hands(made, hands)
    _s_areas(made, areas)
    _s_centre(made, centre)
    _s_removed(made, removed)
    _s_warded(made, warded)
    _s_finish(made, finish_round)
    _s_known(made, known)
    return made


def _turn(seat: int, number: int, step: Step, horror_played: bool, final_round: bool) -> Turn:
    made = _new(Turn)
    _t_seat(made, seat)
    _t_number(made, number)
    _t_step(made, step)
    _t_horror(made, horror_played)
    _t_final(made, final_round)
    return made


def _area(pairs: tuple[Pair, ...], horrors: tuple[int, ...], cultist: bool) -> Area:
    made = _new(Area)
    _a_pairs(made, pairs)
    _a_horrors(made, horrors)
    _a_cultist(made, cultist)
    return made


assert [f.name for f in fields(State)] == list(_state.__code__.co_varnames[:11])
assert [f.name for f in fields(Turn)] == list(_turn.__code__.co_varnames[:5])
assert [f.name for f in fields(Area)] == list(_area.__code__.co_varnames[:3])


def _stepped(phase: Turn, step: Step) -> Turn:
    return _turn(phase.seat, phase.number, step, phase.horror_played, phase.final_round)


def _drawn(hands: tuple[tuple[int, ...], ...], seat: int, card: int) -> tuple[tuple[int, ...], ...]:
    """``hands`` with ``card`` in ``seat``'s (kept sorted)."""
    out = list(hands)
    out[seat] = tuple(sorted((*hands[seat], card)))
    return tuple(out)


class _Draft:
    """The fields a command changes, as it changes them; ``state()`` builds the record once."""

    __slots__ = ("base", "hands", "areas", "deck", "centre", "removed", "warded", "known", "phase", "entropy")

    def __init__(self, state: State, entropy: bytes):
        self.base, self.entropy = state, entropy
        self.hands, self.areas = list(state.hands), list(state.areas)
        self.deck, self.centre, self.removed = state.deck, state.centre, state.removed
        self.warded, self.known, self.phase = state.warded, state.known, state.phase

    def state(self) -> State:
        base = self.base
        return _state(base.players, base.first_player, self.phase, self.deck, tuple(self.hands), tuple(self.areas),
                      self.centre, self.removed, self.warded, base.finish_round, self.known)

    # -- the folds of the facts, each as ``rules._fold`` and ``memory.remembering`` make it --

    def to_hand(self, seat: int, card: int) -> None:
        self.hands[seat] = tuple(sorted((*self.hands[seat], card)))

    def from_hand(self, seat: int, *cards: int) -> None:
        self.hands[seat] = tuple(c for c in self.hands[seat] if c not in cards)

    def forget(self) -> None:
        if self.known:
            self.known = forget(self.known, self.hands)

    def draw(self, seat: int) -> None:
        card, self.deck = self.deck[0], self.deck[1:]
        self.to_hand(seat, card)

    def move(self, card: int, source: int, target: int, seen_by: int) -> None:
        """A card handed from ``source`` to ``target`` (a Call, a take, a gift), seen go there by ``seen_by``."""
        self.from_hand(source, card)
        self.to_hand(target, card)
        self.forget()
        self.known = learn(self.known, [(seen_by, target, card)])

    def swap(self, seat: int, card: int, centre_card: int) -> None:
        self.from_hand(seat, card)
        self.to_hand(seat, centre_card)
        centre = self.centre
        i = centre.index(centre_card)
        self.centre = (*centre[:i], card, *centre[i + 1 :])
        self.forget()
        self.known = learn(self.known, others_saw(self.base.players, seat, centre_card))

    def to_area(self, seat: int, card: int) -> None:
        """A Horror or the Cultist goes down from the hand (one a turn)."""
        self.from_hand(seat, card)
        phase = self.phase
        if isinstance(phase, Turn):
            self.phase = _turn(phase.seat, phase.number, phase.step, True, phase.final_round)
        area = self.areas[seat]
        self.areas[seat] = (_area(area.pairs, area.horrors, True) if card == CULTIST
                            else _area(area.pairs, (*area.horrors, card), area.cultist))
        self.forget()

    def horror_to_hand(self, owner: int, seat: int, card: int) -> None:
        area = self.areas[owner]
        self.areas[owner] = _area(area.pairs, tuple(h for h in area.horrors if h != card), area.cultist)
        self.to_hand(seat, card)
        self.known = learn(self.known, others_saw(self.base.players, seat, card))

    def random_card(self, hand: tuple[int, ...]) -> int:
        """``effects.random_card``: the command's one draw from its entropy."""
        return hand[rng(self.entropy).randrange(len(hand))]

    def game_over(self, reason: EndReason) -> None:
        assert isinstance(self.phase, Turn)
        self.phase = Over(reason, self.phase)


Move = Callable[[State, Any, Any, int, bytes], State]  # (state, its phase, command, seat, entropy) -> the state after


def simulate(state: State, command: Command, seat: int, entropy: bytes) -> State:
    """The state ``decide(state, command, seat, entropy)`` leaves, for a legal ``command``."""
    phase = state.phase
    move = _MOVES.get(type(command))
    if move is None or not isinstance(phase, Turn) and not (isinstance(command, PlayPair) and command.take is None):
        return decide(state, command, seat, entropy).state  # the opening's end
    return move(state, phase, command, seat, entropy)


# -- the commands that change the phase and at most the deck and one hand: built at once --


def _draw_card(state: State, phase: Turn, command: DrawCard, seat: int, entropy: bytes) -> State:
    deck, hands = state.deck, state.hands
    if deck:
        hands, deck = _drawn(hands, seat, deck[0]), deck[1:]
    return _state(state.players, state.first_player, _stepped(phase, Step.CALL), deck, hands, state.areas,
                  state.centre, state.removed, state.warded, state.finish_round, state.known)


def _recruit_draw(state: State, phase: Turn, command: RecruitDraw, seat: int, entropy: bytes) -> State:
    deck = state.deck
    return _state(state.players, state.first_player, _stepped(phase, Step.HORROR), deck[1:],
                  _drawn(state.hands, seat, deck[0]), state.areas, state.centre, state.removed, state.warded,
                  state.finish_round, state.known)


def _to_step(step: Step) -> Move:
    """A pass: on to ``step``."""
    def passed(state: State, phase: Turn, command: Any, seat: int, entropy: bytes) -> State:
        return _state(state.players, state.first_player, _stepped(phase, step), state.deck, state.hands, state.areas,
                      state.centre, state.removed, state.warded, state.finish_round, state.known)
    return passed


def _end_turn(state: State, phase: Turn, command: EndTurn, seat: int, entropy: bytes) -> State:
    players, first, warded = state.players, state.first_player, state.warded
    following = (seat + 1) % players
    if (phase.final_round or not state.deck) and following == first:
        after: Turn | Over = Over(EndReason.SEVENTH_PAIR if phase.final_round else EndReason.DECK_EXHAUSTED, phase)
    else:
        after = _turn(following, phase.number + 1, Step.DRAW, False, phase.final_round)
        warded = warded - {following}
    return _state(players, first, after, state.deck, state.hands, state.areas, state.centre, state.removed, warded,
                  state.finish_round, state.known)


# -- the others, on a draft --


def _call_story(state: State, phase: Turn, command: CallStory, seat: int, entropy: bytes) -> State:
    draft, target = _Draft(state, entropy), command.target
    if target not in state.warded:
        hand, story = state.hands[target], command.story
        held = [c for c in hand if STORY_OF[c] == story]
        card = held[0] if held else draft.random_card(hand)
        draft.move(card, target, seat, seen_by=target)
    draft.phase = _stepped(phase, Step.RECRUIT)
    return draft.state()


def _recruit_swap(state: State, phase: Turn, command: RecruitSwap, seat: int, entropy: bytes) -> State:
    draft = _Draft(state, entropy)
    draft.swap(seat, command.card, command.centre_card)
    draft.phase = _stepped(phase, Step.HORROR)
    return draft.state()


def _play_horror(state: State, phase: Turn, command: PlayHorror, seat: int, entropy: bytes) -> State:
    draft, card = _Draft(state, entropy), command.card
    draft.to_area(seat, card)
    if card != CULTIST:
        _carry_out(draft, seat, card, command)
    return draft.state()


def _play_sign(state: State, phase: Turn, command: PlaySign, seat: int, entropy: bytes) -> State:
    draft, card = _Draft(state, entropy), command.card
    draft.from_hand(seat, card)
    draft.removed = (*draft.removed, card)
    draft.forget()
    _carry_out(draft, seat, card, command)
    return draft.state()


def _play_pair(state: State, phase: Turn | Opening, command: PlayPair, seat: int, entropy: bytes) -> State:
    draft, (a, b), take = _Draft(state, entropy), command.cards, command.take
    info = pair_connections(a, b)
    assert info is not None  # a listed pair
    matched, connections = info
    draft.from_hand(seat, a, b)
    area = draft.areas[seat]
    draft.areas[seat] = _area((*area.pairs, Pair((a, b), matched, tuple(connections))), area.horrors, area.cultist)
    draft.forget()
    if take is not None:
        owner = next(o for o in range(state.players) if take in state.areas[o].horrors)
        draft.horror_to_hand(owner, seat, take)
    if len(draft.areas[seat].pairs) >= PAIRS_TO_END and isinstance(phase, Turn):
        if not state.finish_round:
            draft.game_over(EndReason.SEVENTH_PAIR)
        elif not phase.final_round:
            draft.phase = _turn(phase.seat, phase.number, phase.step, phase.horror_played, True)
    return draft.state()


def _carry_out(draft: _Draft, seat: int, played: int, way: Any) -> None:
    """``effects.carry_out`` on the draft (the card is already down or removed)."""
    effect, target, chosen = EFFECT_OF[played], way.target, way.chosen
    if effect is Effect.DRAW_TWO:
        for _ in draft.deck[:DRAWN_BY_DRAW_TWO]:
            draft.draw(seat)
    elif effect is Effect.WARD:
        draft.warded = draft.warded | {seat}
    elif effect is Effect.TAKE_RANDOM and target is not None:
        draft.move(draft.random_card(draft.hands[target]), target, seat, seen_by=target)
    elif effect is Effect.GIVE_CHOSEN and target is not None:
        draft.move(chosen, seat, target, seen_by=seat)
    elif effect is Effect.SWAP_CENTRE and chosen is not None:
        draft.swap(seat, chosen, way.centre)
    elif effect is Effect.RETURN_HORROR and chosen is not None:
        owner = next(s for s in range(draft.base.players) if chosen in draft.areas[s].horrors)
        draft.horror_to_hand(owner, owner, chosen)


_MOVES: dict[type, Move] = {
    DrawCard: _draw_card, CallStory: _call_story, PassCall: _to_step(Step.RECRUIT), RecruitSwap: _recruit_swap,
    RecruitDraw: _recruit_draw, PassRecruit: _to_step(Step.HORROR), PlayHorror: _play_horror, PlaySign: _play_sign,
    PlayPair: _play_pair, EndTurn: _end_turn,
}
