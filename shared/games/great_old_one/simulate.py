"""The Great Old One's moves for the AI's playouts (``AiHooks.simulate``): ``decide``'s state, built directly.

A playout plays a command the game itself just listed, in a world the search drew, and reads only the state it
leaves. ``decide`` checks it, emits its facts (a card moved, the next phase) and ``evolve`` rebuilds the state and
then each seat's memory (``memory.py``) once for each. Here a command's changes are made to a draft of the fields
it touches and the state is built once; the memory follows the same steps with the same helpers (``forget`` what
left a hand after each fact that takes from one, ``learn`` what a seat saw go into one). The opening's end goes to
``decide``. ``tests/unit/test_ai_simulate.py`` checks that the state is exactly ``decide``'s.
"""

from __future__ import annotations

from typing import Any

from shared.kernel import Command, replace, rng

from shared.games.great_old_one.cards import (
    CULTIST, EFFECT_OF, PAIRS_TO_END, STORY_OF, Effect, pair_connections,
)
from shared.games.great_old_one.commands import (
    CallStory, DrawCard, EndTurn, PassCall, PassRecruit, PlayHorror, PlayPair, PlaySign, RecruitDraw, RecruitSwap,
)
from shared.games.great_old_one.effects import DRAWN_BY_DRAW_TWO
from shared.games.great_old_one.memory import forget, learn, others_saw
from shared.games.great_old_one.rules import decide
from shared.games.great_old_one.state import EndReason, GreatOldOneState, Over, Pair, Step, Turn

State = GreatOldOneState


class _Draft:
    """The fields a command changes, as it changes them; ``state()`` builds the record once."""

    __slots__ = ("base", "hands", "areas", "deck", "centre", "removed", "warded", "known", "phase", "entropy")

    def __init__(self, state: State, entropy: bytes):
        self.base, self.entropy = state, entropy
        self.hands, self.areas = list(state.hands), list(state.areas)
        self.deck, self.centre, self.removed = state.deck, state.centre, state.removed
        self.warded, self.known, self.phase = state.warded, state.known, state.phase

    def state(self) -> State:
        return replace(self.base, hands=tuple(self.hands), areas=tuple(self.areas), deck=self.deck, centre=self.centre,
                       removed=self.removed, warded=self.warded, known=self.known, phase=self.phase)

    # -- the folds of the facts, each as ``rules._fold`` and ``memory.remembering`` make it --

    def to_hand(self, seat: int, card: int) -> None:
        self.hands[seat] = tuple(sorted((*self.hands[seat], card)))

    def from_hand(self, seat: int, *cards: int) -> None:
        self.hands[seat] = tuple(c for c in self.hands[seat] if c not in cards)

    def forget(self) -> None:
        if self.known:
            self.known = forget(self.known, tuple(self.hands))

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
            self.phase = replace(phase, horror_played=True)
        area = self.areas[seat]
        self.areas[seat] = replace(area, cultist=True) if card == CULTIST else replace(area, horrors=(*area.horrors, card))
        self.forget()

    def horror_to_hand(self, owner: int, seat: int, card: int) -> None:
        area = self.areas[owner]
        self.areas[owner] = replace(area, horrors=tuple(h for h in area.horrors if h != card))
        self.to_hand(seat, card)
        self.known = learn(self.known, others_saw(self.base.players, seat, card))

    def step(self, step: Step) -> None:
        self.phase = replace(self.phase, step=step)

    def random_card(self, hand: tuple[int, ...]) -> int:
        """``effects.random_card``: the command's one draw from its entropy."""
        return hand[rng(self.entropy).randrange(len(hand))]

    def game_over(self, reason: EndReason) -> None:
        assert isinstance(self.phase, Turn)
        self.phase = Over(reason, self.phase)


def simulate(state: State, command: Command, seat: int, entropy: bytes) -> State:
    """The state ``decide(state, command, seat, entropy)`` leaves, for a legal ``command``."""
    phase = state.phase
    if not isinstance(phase, Turn) and not (isinstance(command, PlayPair) and command.take is None):
        return decide(state, command, seat, entropy).state  # the opening's end
    draft = _Draft(state, entropy)
    match command:
        case DrawCard():
            if draft.deck:
                draft.draw(seat)
            draft.step(Step.CALL)
        case CallStory(target=target, story=story):
            if target not in state.warded:
                hand = state.hands[target]
                held = [c for c in hand if STORY_OF[c] == story]
                card = held[0] if held else draft.random_card(hand)
                draft.move(card, target, seat, seen_by=target)
            draft.step(Step.RECRUIT)
        case PassCall():
            draft.step(Step.RECRUIT)
        case RecruitSwap(card=card, centre_card=centre_card):
            draft.swap(seat, card, centre_card)
            draft.step(Step.HORROR)
        case RecruitDraw():
            draft.draw(seat)
            draft.step(Step.HORROR)
        case PassRecruit():
            draft.step(Step.HORROR)
        case PlayHorror(card=card):
            draft.to_area(seat, card)
            if card != CULTIST:
                _carry_out(draft, seat, card, command)
        case PlaySign(card=card):
            draft.from_hand(seat, card)
            draft.removed = (*draft.removed, card)
            draft.forget()
            _carry_out(draft, seat, card, command)
        case PlayPair(cards=(a, b), take=take):
            _play_pair(draft, state, seat, a, b, take)
        case EndTurn():
            assert isinstance(phase, Turn)
            following = (seat + 1) % state.players
            if (phase.final_round or not state.deck) and following == state.first_player:
                draft.game_over(EndReason.SEVENTH_PAIR if phase.final_round else EndReason.DECK_EXHAUSTED)
            else:
                draft.phase = Turn(following, phase.number + 1, final_round=phase.final_round)
                draft.warded = state.warded - {following}
        case _:
            return decide(state, command, seat, entropy).state
    return draft.state()


def _play_pair(draft: _Draft, state: State, seat: int, a: int, b: int, take: int | None) -> None:
    info = pair_connections(a, b)
    assert info is not None  # a listed pair
    matched, connections = info
    draft.from_hand(seat, a, b)
    area = draft.areas[seat]
    draft.areas[seat] = replace(area, pairs=(*area.pairs, Pair((a, b), matched, tuple(connections))))
    draft.forget()
    if take is not None:
        owner = next(o for o in range(state.players) if take in state.areas[o].horrors)
        draft.horror_to_hand(owner, seat, take)
    phase = state.phase
    if len(draft.areas[seat].pairs) >= PAIRS_TO_END and isinstance(phase, Turn):
        if not state.finish_round:
            draft.game_over(EndReason.SEVENTH_PAIR)
        elif not phase.final_round:
            draft.phase = replace(draft.phase, final_round=True)


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

