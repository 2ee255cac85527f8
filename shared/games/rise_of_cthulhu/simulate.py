"""Rise of Cthulhu's moves for the AI's playouts (``AiHooks.simulate``): ``decide``'s state, built directly.

A playout plays a command the game itself just listed, in a world the search drew, and reads only the state it
leaves. ``decide`` checks it, emits its facts and ``evolve`` rebuilds the state (23 fields) once or twice for each;
a turn's last action also digests the position twice (``finish`` to see whether it repeats, ``evolve`` to record
it). Here a turn's actions (a draw from the Cultist Deck or the Valley, a Cultist played on a Location or the
Valley, with the set abilities, the Dark Hunter's hunt and the turn passing: 96% of a playout's commands) build the
state once and digest the position once; so do an Old One waking from the deck and the draws owed after it (``finish``'s
loop, with the decision's one PRNG drawn as ``decide`` draws it). An Old One's power and the free plays (Monsters,
Artifacts) go to ``decide``.
``tests/unit/test_ai_simulate.py`` checks that the state is exactly ``decide``'s.
"""

from __future__ import annotations

import random
from typing import Any

from shared.kernel import Command, replace, replace_at, rng

from shared.games.rise_of_cthulhu import cards
from shared.games.rise_of_cthulhu.actions import in_run
from shared.games.rise_of_cthulhu.cards import LOCATIONS, OLD_ONE_SLOT
from shared.games.rise_of_cthulhu.commands import DrawCard, DrawOwedCards, PlayCultist, PlayToValley
from shared.games.rise_of_cthulhu.rules import add_card, decide, remove_card
from shared.games.rise_of_cthulhu.state import (
    OLD_ONES_TO_END, Awakening, RiseOfCthulhuState, Side, digest, facing, highest, is_over, other,
)

State = RiseOfCthulhuState


def simulate(state: State, command: Command, seat: int, entropy: bytes) -> State:
    """The state ``decide(state, command, seat, entropy)`` leaves, for a legal ``command``."""
    if state.pending is None:
        if state.owed[seat] == 0:
            changes = _action(state, command, seat)
            if changes is not None:
                return _pass_turn(state, changes)
            if command == _DRAW_DECK:  # an Old One on top wakes; decide's one PRNG picks which (and any after it)
                luck = rng(entropy)
                return _pass_turn(_draws_owed(_wake(state, seat, True, luck), seat, luck), {})
        elif isinstance(command, DrawOwedCards):
            return _pass_turn(_draws_owed(state, seat, rng(entropy)), {})
    return decide(state, command, seat, entropy).state


_DRAW_DECK = DrawCard(source="deck")  # (the command an Old One on top turns into a waking)


def _action(s: State, command: Command, seat: int) -> dict[str, Any] | None:
    """The fields a turn's action changes (never the Old Ones, the owed draws or who acts next), or ``None`` for a
    command that is not one of those ``simulate`` builds this way."""
    match command:
        case DrawCard(source="deck"):
            card = s.deck[0]
            if card == OLD_ONE_SLOT:
                return None  # an Old One wakes (``simulate``)
            return {"deck": s.deck[1:], "deck_drawn": s.deck_drawn or seat == s.current, "seen": frozenset(),
                    "hands": replace_at(s.hands, seat, add_card(s.hands[seat], card)),
                    "actions_taken": s.actions_taken + 1}
        case DrawCard():
            card = s.valley[-1]
            return {"valley": s.valley[:-1], "hands": replace_at(s.hands, seat, add_card(s.hands[seat], card)),
                    "known": replace_at(s.known, seat, add_card(s.known[seat], card)),
                    "actions_taken": s.actions_taken + 1}
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
            return changes
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
            return changes
    return None


def _taken(s: State, seat: int, card: str) -> dict[str, Any]:
    """``rules._take``'s changes: the card leaves the hand, and what the opponent knew of it."""
    known = s.known[seat]
    return {"hands": replace_at(s.hands, seat, remove_card(s.hands[seat], card)),
            "known": replace_at(s.known, seat, remove_card(known, card)) if card in known else s.known}


def _wake(s: State, seat: int, action: bool, luck: random.Random) -> State:
    """``actions.draw_from_deck`` with an Old One on top, folded (``OldOneAwakened``): a sleeping one drawn by the
    decision's PRNG wakes at the first free Location of its letters, and its influencer (if any) has its power to
    resolve; the drawer owes a draw in its place unless it is the last."""
    name = luck.choice(sorted(s.sleeping))
    where = next(loc for loc in cards.placement(name) if s.locations[LOCATIONS.index(loc)].old_one is None)
    index = LOCATIONS.index(where)
    loc = s.locations[index]
    influencer = facing(loc)
    owed = 0 if len(s.awake) + 1 >= OLD_ONES_TO_END else s.owed[seat] - (0 if action else 1) + 1
    return replace(s, deck=s.deck[1:], deck_drawn=s.deck_drawn or seat == s.current, seen=frozenset(),
                   locations=replace_at(s.locations, index, replace(loc, old_one=name)),
                   sleeping=remove_card(s.sleeping, name), awake=(*s.awake, name),
                   hunter=None if s.hunter == where else s.hunter,
                   actions_taken=s.actions_taken + 1 if action else s.actions_taken,
                   owed=replace_at(s.owed, seat, owed),
                   pending=None if influencer is None else Awakening(name, where, influencer, seat))


def _draws_owed(s: State, actor: int, luck: random.Random) -> State:
    """``actions.finish``'s draws: the actor draws what it owes from the deck (each the top card, or an Old One
    waking), until the game ends or an Old One's power waits."""
    while not (is_over(s) or s.pending is not None or s.owed[actor] == 0):
        card = s.deck[0]
        if card == OLD_ONE_SLOT:
            s = _wake(s, actor, False, luck)
            continue
        s = replace(s, deck=s.deck[1:], deck_drawn=s.deck_drawn or actor == s.current, seen=frozenset(),
                    hands=replace_at(s.hands, actor, add_card(s.hands[actor], card)),
                    owed=replace_at(s.owed, actor, s.owed[actor] - 1))
    return s


def _pass_turn(s: State, changes: dict[str, Any]) -> State:
    """``s`` with ``changes`` (an action's, or none), and ``actions.finish``'s end once nothing is owed: the turn
    passes once its actions are spent. Built in one go: the position the next turn begins in is digested from the
    changed fields and ``s``'s others."""
    taken = changes.get("actions_taken", s.actions_taken)
    if is_over(s) or s.pending is not None or any(s.owed) or taken < s.actions_allowed:
        return replace(s, **changes)
    turn = other(s.current)
    field = changes.get
    seen = field("seen", s.seen)
    now = digest(turn, field("hunter", s.hunter), field("valley", s.valley), field("discard", s.discard),
                 field("spent", s.spent),
                 field("locations", s.locations), field("known", s.known), field("hands", s.hands),
                 len(field("deck", s.deck)), len(field("monster_deck", s.monster_deck)),
                 len(field("artifact_deck", s.artifact_deck)), field("awake", s.awake))
    return replace(s, **changes | {"current": turn, "actions_taken": 0, "actions_allowed": 2, "deck_drawn": False,
                                   "seen": seen | {now}, "must_draw": now in seen})
