"""The Tree on the Hill's rules (rulebook "Tree on the Hill", p. 24): plant and grow trees of four cards forming a
run; a double play forces another play; the first to empty the hand wins.

Cults matter only for double plays (a card of the same cult and next in sequence to a card of the tree, or the
card that completes a tree).
"""

from __future__ import annotations

import functools
import random

from shared.kernel import Command, Decision, Fact, RuleViolation, replace, replace_at

from shared.games.rites_of_cthulhu.cards import RANKS, cult, rank
from shared.games.rites_of_cthulhu.rites.base import RiteResult, here
from shared.games.rites_of_cthulhu.rites.shedding import (
    DrewUnableToPlay,
    TurnPassed,
    decided_draw_or_end,
    end_or_at_random,
    shedding_commands,
    shedding_result,
    simulated_draw_or_end,
)
from shared.games.rites_of_cthulhu.rites.shedding import to_act as to_act  # the rite waits on the cultist on turn
from shared.games.rites_of_cthulhu.rites.table import next_seat, without
from shared.games.rites_of_cthulhu.rites.tree_on_the_hill.cards import TREE_SIZE
from shared.games.rites_of_cthulhu.rites.tree_on_the_hill.commands import GrowTree, PlantTree
from shared.games.rites_of_cthulhu.rites.tree_on_the_hill.events import CardPlayedToTree
from shared.games.rites_of_cthulhu.rites.tree_on_the_hill.state import TreeState
from shared.games.rites_of_cthulhu.state import RitesState, Tabletop


def fits(tree: tuple[int, ...], card: int) -> bool:
    """A card grows an incomplete tree if the tree stays a run without repeats (extended at either end)."""
    if len(tree) >= TREE_SIZE:
        return False
    ranks = {rank(c) for c in tree}
    if rank(card) in ranks:
        return False
    ranks.add(rank(card))
    return max(ranks) - min(ranks) == len(ranks) - 1


def is_double_play(tree: tuple[int, ...], card: int) -> bool:
    """Double play: the card completes the tree, or matches the cult of a tree card it is next in sequence to."""
    if len(tree) + 1 == TREE_SIZE:
        return True
    return any(cult(c) == cult(card) and abs(rank(c) - rank(card)) == 1 for c in tree)


def initial(table: Tabletop) -> TreeState:
    return TreeState()


def _incomplete(state: TreeState) -> list[int]:
    return [i for i, t in enumerate(state.trees) if len(t) < TREE_SIZE]


def _plays(table: Tabletop, state: TreeState, seat: int) -> list[Command]:
    hand = sorted(table.hands[seat])
    incomplete = _incomplete(state)
    # ``fits``, asked on every move of a playout: a tree is a run, so a card grows it one below or above; each card is
    # looked up among the ranks that grow some tree, worked out once
    grows: dict[int, list[int]] = {}  # rank -> the trees a card of that rank grows, in order
    for i in incomplete:
        ranks = [c % RANKS for c in state.trees[i]]
        grows.setdefault(min(ranks) - 1, []).append(i)
        grows.setdefault(max(ranks) + 1, []).append(i)
    out: list[Command] = [_grow(c, i) for c in hand for i in grows.get(c % RANKS, ())]
    # Planting: only when no tree is incomplete, or as the play that follows a double play.
    if state.again or not incomplete:
        out += [_plant(c) for c in hand]
    return out


@functools.cache
def _grow(card: int, tree: int) -> GrowTree:
    """One record per play: a command is a value, and building records is a third of listing them."""
    return GrowTree(card=card, tree=tree)


@functools.cache
def _plant(card: int) -> PlantTree:
    return PlantTree(card=card)


def legal_commands(table: Tabletop, state: TreeState, seat: int) -> list[Command]:
    return shedding_commands(table, state, seat, lambda: _plays(table, state, seat), may_end=state.drew)


def timeout_command(table: Tabletop, state: TreeState, seat: int, rng: random.Random) -> Command:
    return end_or_at_random(legal_commands(table, state, seat), rng)


def decide(d: Decision[RitesState], command: Command, seat: int) -> None:
    table, state = here(d)
    plays = _plays(table, state, seat)
    if decided_draw_or_end(d, command, seat, plays, state.drew, ("rules/already_drew", "You have already drawn this turn."),
                           "You must play a card (or draw if you cannot)."):
        return
    assert isinstance(command, (PlantTree, GrowTree))
    if command not in plays:
        raise _why(table, state, seat, command)
    card = command.card
    if isinstance(command, PlantTree):
        tree, double = len(state.trees), False
    else:
        tree = command.tree
        double = is_double_play(state.trees[tree], card)
    d.emit(CardPlayedToTree(seat=seat, card=card, tree=tree, planted=isinstance(command, PlantTree), double_play=double))
    if not double and len(table.hands[seat]) > 1:
        d.emit(TurnPassed(seat=next_seat(table, seat)))


def simulate(table: Tabletop, state: TreeState, command: Command, seat: int) -> tuple[Tabletop, TreeState, int] | None:
    """``decide`` for a playout (``Rite.simulate``): the folds of the same facts, without checking the listed move or
    building the facts."""
    turn = simulated_draw_or_end(_drew, _passed, table, state, command, seat)
    if turn is not None:
        return turn
    assert isinstance(command, (PlantTree, GrowTree))
    card, planted = command.card, isinstance(command, PlantTree)
    if isinstance(command, GrowTree):
        tree, double = command.tree, is_double_play(state.trees[command.tree], card)
    else:
        tree, double = len(state.trees), False
    after, grown = _played(table, state, seat, card, tree, planted, double)
    if double or len(table.hands[seat]) <= 1:
        return after, grown, 1
    return after, _passed(grown, next_seat(table, seat)), 2


def _why(table: Tabletop, state: TreeState, seat: int, command: PlantTree | GrowTree) -> RuleViolation:
    if command.card not in table.hands[seat]:
        return RuleViolation("rules/card_not_in_hand", "That card is not in your hand.")
    if isinstance(command, PlantTree):
        return RuleViolation("rules/must_play_on_incomplete_tree",
                             "You may not plant a new tree while a tree is incomplete.")
    if not 0 <= command.tree < len(state.trees):
        return RuleViolation("rules/no_such_tree", "There is no such tree.")
    return RuleViolation("rules/tree_must_be_a_run", "A tree is a run of four elder signs without repeats.")


def evolve(table: Tabletop, state: TreeState, fact: Fact) -> tuple[Tabletop, TreeState]:
    match fact:
        case CardPlayedToTree(seat=seat, card=card, tree=tree, planted=planted, double_play=double):
            return _played(table, state, seat, card, tree, planted, double)
        case DrewUnableToPlay(seat=seat):
            return table, _drew(state, seat)
        case TurnPassed(seat=seat):
            return table, _passed(state, seat)
    raise TypeError(f"The Tree on the Hill has no fact {fact!r}")


def _played(table: Tabletop, state: TreeState, seat: int, card: int, tree: int, planted: bool, double: bool
            ) -> tuple[Tabletop, TreeState]:
    """The fold of ``CardPlayedToTree`` (``simulate`` folds its move without building the fact)."""
    trees = state.trees + ((card,),) if planted else replace_at(state.trees, tree, state.trees[tree] + (card,))
    return without(table, seat, [card]), replace(state, trees=trees, turn=seat, again=double, drew=False)


def _drew(state: TreeState, seat: int) -> TreeState:
    """The fold of ``DrewUnableToPlay``."""
    return replace(state, turn=seat, drew=True)


def _passed(state: TreeState, seat: int) -> TreeState:
    """The fold of ``TurnPassed``."""
    return replace(state, turn=seat, again=False, drew=False)


def result(table: Tabletop, state: TreeState) -> RiteResult | None:
    return shedding_result(table)
