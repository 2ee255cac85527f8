"""Rise of Cthulhu's moves for the AI's playouts (``AiHooks.simulate``): ``decide``'s state, built directly.

A playout plays a command the game itself just listed, in a world the search drew, and reads only the state it
leaves. ``decide`` checks it, emits its facts and ``evolve`` rebuilds the state (23 fields) once or twice for each;
a turn's last action also digests the position twice (``finish`` to see whether it repeats, ``evolve`` to record
it). Here a turn's actions (a draw from the Cultist Deck or the Valley, a Cultist played on a Location or the
Valley, with the set abilities, the Dark Hunter's hunt and the turn passing: 96% of a playout's commands) build the
state once and digest the position once. An Old One waking, its power, owed draws and free plays go to ``decide``.
``tests/unit/test_ai_simulate.py`` checks that the state is exactly ``decide``'s.
"""

from __future__ import annotations

from typing import Any

from shared.kernel import Command, replace, replace_at

from shared.games.rise_of_cthulhu import cards
from shared.games.rise_of_cthulhu.actions import in_run
from shared.games.rise_of_cthulhu.cards import LOCATIONS, OLD_ONE_SLOT
from shared.games.rise_of_cthulhu.commands import DrawCard, PlayCultist, PlayToValley
from shared.games.rise_of_cthulhu.rules import add_card, decide, remove_card
from shared.games.rise_of_cthulhu.state import RiseOfCthulhuState, Side, highest, is_over, other, position

State = RiseOfCthulhuState


def simulate(state: State, command: Command, seat: int, entropy: bytes) -> State:
    """The state ``decide(state, command, seat, entropy)`` leaves, for a legal ``command``."""
    if state.pending is None and state.owed[seat] == 0:
        after = _action(state, command, seat)
        if after is not None:
            return _finish(after)
    return decide(state, command, seat, entropy).state


def _action(s: State, command: Command, seat: int) -> State | None:
    match command:
        case DrawCard(source="deck"):
            card = s.deck[0]
            if card == OLD_ONE_SLOT:
                return None  # an Old One wakes (decide)
            return replace(s, deck=s.deck[1:], deck_drawn=s.deck_drawn or seat == s.current, seen=frozenset(),
                           hands=replace_at(s.hands, seat, add_card(s.hands[seat], card)),
                           actions_taken=s.actions_taken + 1)
        case DrawCard():
            card = s.valley[-1]
            return replace(s, valley=s.valley[:-1], hands=replace_at(s.hands, seat, add_card(s.hands[seat], card)),
                           known=replace_at(s.known, seat, add_card(s.known[seat], card)),
                           actions_taken=s.actions_taken + 1)
        case PlayCultist(card=card, location=where, recall_hunter=recall):
            changes = _taken(s, seat, card)
            index = LOCATIONS.index(where)
            loc = s.locations[index]
            side = loc.sides[seat]
            side = Side((*side.cultists, card), side.monsters)
            changes["locations"] = replace_at(s.locations, index, replace(loc, sides=replace_at(loc.sides, seat, side)))
            changes["actions_taken"] = s.actions_taken + 1
            if recall:
                changes["hunter"] = None
            hand = changes["hands"][seat]
            number = cards.number(card)
            if sum(1 for c in side.cultists if cards.number(c) == number) >= 3 and s.monster_deck:
                hand = add_card(hand, s.monster_deck[0])
                changes["monster_deck"] = s.monster_deck[1:]
            if in_run(side, card) and s.artifact_deck:
                hand = add_card(hand, s.artifact_deck[0])
                changes["artifact_deck"] = s.artifact_deck[1:]
                changes["artifacts_acquired"] = replace_at(s.artifacts_acquired, seat, s.artifacts_acquired[seat] + 1)
            changes["hands"] = replace_at(changes["hands"], seat, hand)
            return replace(s, **changes)
        case PlayToValley(card=card, hunter_to=to):
            changes = _taken(s, seat, card)
            changes |= {"valley": (*s.valley, card), "actions_taken": s.actions_taken + 1, "hunter": to}
            index = LOCATIONS.index(to)
            loc = s.locations[index]
            tops = [highest(side) for side in loc.sides]
            values = [cards.number(c) for c in tops if c is not None]
            if values:
                best, discard, sides = max(values), s.discard, loc.sides
                for victim, top in enumerate(tops):
                    if top is not None and cards.number(top) == best:
                        side = sides[victim]
                        sides = replace_at(sides, victim, Side(remove_card(side.cultists, top), side.monsters))
                        discard = (*discard, top)
                changes["discard"] = discard
                changes["locations"] = replace_at(s.locations, index, replace(loc, sides=sides))
            return replace(s, **changes)
    return None


def _taken(s: State, seat: int, card: str) -> dict[str, Any]:
    """``rules._take``'s changes: the card leaves the hand, and what the opponent knew of it."""
    known = s.known[seat]
    return {"hands": replace_at(s.hands, seat, remove_card(s.hands[seat], card)),
            "known": replace_at(s.known, seat, remove_card(known, card)) if card in known else s.known}


def _finish(s: State) -> State:
    """``actions.finish`` after an action that owes nothing: the turn passes once its actions are spent."""
    if is_over(s) or s.pending is not None or any(s.owed) or s.actions_taken < s.actions_allowed:
        return s
    turn = other(s.current)
    digest = position(s, turn)
    return replace(s, current=turn, actions_taken=0, actions_allowed=2, deck_drawn=False, seen=s.seen | {digest},
                   must_draw=digest in s.seen)
