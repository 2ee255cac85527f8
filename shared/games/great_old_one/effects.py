"""Horror and Sign effects (project card text: the rulebook's effect panels are blank): every way to carry one out,
the events it makes, and why a way is refused (rulings 15 and 16)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from shared.kernel import Decision, RuleViolation
from shared.kernel.errors import require

from shared.games.great_old_one.cards import EFFECT_OF, STORY_CARDS, Effect
from shared.games.great_old_one.events import CardDrawn, CardGiven, CardTaken, HorrorReturned, StorySwapped, WardRaised
from shared.games.great_old_one.state import GreatOldOneState

NO_CHOICE = {"target": None, "chosen": None, "centre": None}
DRAWN_BY_DRAW_TWO = 2


def opponents(state: GreatOldOneState, seat: int) -> list[int]:
    return [s for s in range(state.players) if s != seat]


def effect_options(state: GreatOldOneState, seat: int, played: int) -> list[dict[str, Any]]:
    """Every way ``seat`` may carry out the effect of card ``played`` (still in its hand); one empty way when the
    effect has no possible target."""
    return [{"target": t, "chosen": c, "centre": x} for t, c, x in ways(state, seat, played)]


Way = tuple[int | None, int | None, int | None]
_NO_WAY: tuple[Way, ...] = ((None, None, None),)


def ways(state: GreatOldOneState, seat: int, played: int) -> Sequence[Way]:
    """``effect_options`` as ``(target, chosen, centre)``, in the same order (what ``legal_commands`` builds from)."""
    effect = EFFECT_OF[played]
    if effect is Effect.DRAW_TWO or effect is Effect.WARD:
        return _NO_WAY
    players = state.players
    if effect is Effect.TAKE_RANDOM:
        hands, warded = state.hands, state.warded
        found: list[Way] = [(t, None, None) for t in range(players) if t != seat and hands[t] and t not in warded]
    elif effect is Effect.GIVE_CHOSEN:
        others = [t for t in range(players) if t != seat]
        found = [(t, c, None) for c in state.hands[seat] if c != played for t in others]
    elif effect is Effect.SWAP_CENTRE:
        centre = state.centre
        found = [(None, c, x) for c in state.hands[seat] if c != played and c in STORY_CARDS for x in centre]
    else:
        areas = state.areas
        found = [(None, h, None) for t in range(players) if t != seat for h in areas[t].horrors]
    return found or _NO_WAY


def check_way(state: GreatOldOneState, seat: int, played: int, way: dict[str, Any]) -> None:
    """Refuse an effect aimed where it cannot go, with the most specific reason the seat may be told."""
    if way in effect_options(state, seat, played):
        return
    effect, target, chosen = EFFECT_OF[played], way["target"], way["chosen"]
    if effect in (Effect.DRAW_TWO, Effect.WARD):
        raise RuleViolation("rules/effect_takes_no_target", "this effect takes no target")
    if effect in (Effect.TAKE_RANDOM, Effect.GIVE_CHOSEN) and target is not None:
        require(0 <= target < state.players and target != seat, "rules/target_an_opponent", "choose an opponent")
        if effect is Effect.TAKE_RANDOM:
            require(target not in state.warded, "rules/hand_warded", "that opponent's hand is warded")
            require(bool(state.hands[target]), "rules/opponent_hand_empty", "that opponent holds no cards")
    if effect is Effect.GIVE_CHOSEN and chosen is not None:
        require(chosen in state.hands[seat] and chosen != played, "rules/card_not_in_hand", "you do not hold that card")
    if effect is Effect.SWAP_CENTRE and chosen is not None:
        check_swap(state, seat, chosen, way["centre"])
    if effect is Effect.RETURN_HORROR and chosen is not None:
        require(
            any(chosen in state.areas[t].horrors for t in opponents(state, seat)),
            "rules/no_such_horror_in_play", "that Horror card is not in an opponent's play area",
        )
    raise RuleViolation("rules/effect_must_be_carried_out", "carry out the card's effect as written, with every choice it needs")


def check_swap(state: GreatOldOneState, seat: int, card: int, centre: Any) -> None:
    require(card in state.hands[seat], "rules/card_not_in_hand", "you do not hold that card")
    require(card in STORY_CARDS, "rules/swap_story_only", "only a Story card can be switched with the centre")
    require(centre in state.centre, "rules/not_in_centre", "that card is not in the centre")


def random_card(decision: Decision[GreatOldOneState], hand: tuple[int, ...]) -> int:
    """A card at random from a (sorted) hand, drawn from the command's entropy."""
    return hand[decision.rng.randrange(len(hand))]


def carry_out(decision: Decision[GreatOldOneState], seat: int, played: int, way: dict[str, Any]) -> None:
    """Emit the events of ``played``'s effect, aimed as ``way`` (already checked); with no target it does nothing."""
    state, effect = decision.state, EFFECT_OF[played]
    target, chosen = way["target"], way["chosen"]
    if effect is Effect.DRAW_TWO:
        for card in state.deck[:DRAWN_BY_DRAW_TWO]:
            decision.emit(CardDrawn(seat=seat, card=card), secret={"card": [seat]})
    elif effect is Effect.WARD:
        decision.emit(WardRaised(seat=seat))
    elif effect is Effect.TAKE_RANDOM and target is not None:
        taken = random_card(decision, state.hands[target])
        decision.emit(CardTaken(seat=seat, from_seat=target, card=taken), secret={"card": [seat, target]})
    elif effect is Effect.GIVE_CHOSEN and target is not None:
        decision.emit(CardGiven(seat=seat, to_seat=target, card=chosen), secret={"card": [seat, target]})
    elif effect is Effect.SWAP_CENTRE and chosen is not None:
        decision.emit(StorySwapped(seat=seat, card=chosen, centre_card=way["centre"]))
    elif effect is Effect.RETURN_HORROR and chosen is not None:
        owner = next(s for s in range(state.players) if chosen in state.areas[s].horrors)
        decision.emit(HorrorReturned(seat=owner, from_seat=owner, card=chosen))
