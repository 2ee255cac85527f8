"""Single-observer information-set MCTS (Cowling, Powley & Whitehouse 2012), from one seat's knowledge.

Each iteration draws a world with the seat's ``resample`` (root determinization), walks the tree of the
seat's information sets in that world, adds one edge, plays the rest out with the rollout policy and credits
every seat its result. A node is an information set of the observer: the path to it is what the observer
did and what it *observed* others do (their events as redacted for it), so a hidden move of another seat
(a sealed bid, a card dealt face down) never splits the observer's tree, and the observer's later choices
cannot depend on it. At a node, the edges are the commands of the seat that acts there, with their visits,
summed rewards of that seat, and availability counts (how often the edge was legal in the world at hand),
which UCB uses in place of the parent's visits (ISMCTS's subset-armed bandit).

Who acts follows the kernel: the seats ``to_act`` lists, the observer first when it is one of them (so its
simultaneous choice is never made knowing another's); a seat's out-of-turn plays are among its legal
commands when it acts. Off the tree, the rollout policy also lets a seat the game does not wait on play out of
turn now and then. Game knowledge enters only through the game's optional ``rollout_policy`` and
``playout_value`` (where a playout from the drawn world may stop, judged by the game).
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from shared.ai.knowledge import SeatKnowledge
from shared.ai.rollout import Rollout
from shared.ai.step import step
from shared.kernel.commands import Command
from shared.kernel.events import redact
from shared.kernel.game import Game

EXPLORATION = 0.7  # UCB's constant for rewards in [0, 1]
CERTAIN_WORLDS = 8  # worlds a command must win in, every one, to be played at once as a certain win

def key(data: dict[str, Any]) -> str:
    """A redacted event's identity in the tree: its fields in name order (``repr`` is deterministic for the
    JSON-like values events hold, and three times cheaper than ``json.dumps``). A command is its own identity: a
    frozen record."""
    return repr(sorted(data.items()))


class Edge:
    __slots__ = ("visits", "reward", "avail")

    def __init__(self) -> None:
        self.visits, self.reward, self.avail = 0, 0.0, 0


class Node:
    """An information set of the observer: the edges of the seat acting there, and the nodes after them
    (by what the observer sees of the move)."""

    __slots__ = ("edges", "after")

    def __init__(self) -> None:
        self.edges: dict[tuple[int, Command], Edge] = {}
        self.after: dict[Any, Node] = {}


@dataclass
class Search:
    """A finished search: the move it plays, and what it did (for the strength table and the tests)."""

    best: Command | None
    iterations: int = 0
    stopped_by_clock: bool = False
    root: dict[Command, tuple[int, float]] = field(default_factory=dict)  # command -> (visits, mean reward)
    tree: Node | None = field(default=None, repr=False, compare=False)


Model = Callable[[Any, int, list[Command], random.Random], Command]  # (world, seat, legal, rng) -> its command


def search(knowledge: SeatKnowledge, playouts: int, rng: random.Random,
           clock: Callable[[], float] | None = None, deadline: float | None = None,
           opponents: Model | None = None) -> Search:
    """Run up to ``playouts`` iterations (fewer if ``clock()`` passes ``deadline``) and pick the root command
    visited most. A function of ``knowledge`` and ``rng`` alone when no clock is given. ``opponents``, for the
    strength table only, tells the search how the other seats play: in the tree their moves are drawn from it in
    the world at hand instead of searched (what knowing one's opponents exactly would be worth)."""
    game, seat = knowledge.game, knowledge.seat
    legal = list(knowledge.legal)
    if not legal:
        return Search(None)
    root, rollout = Node(), Rollout(game, rng, clock, deadline)
    done, stopped = 0, False
    while done < playouts:
        if deadline is not None and clock is not None and clock() >= deadline:
            stopped = True
            break
        if not _iterate(game, seat, knowledge, legal, root, rng, rollout, opponents):
            stopped = True  # the clock ran out inside the playout: that iteration counts for nothing
            break
        done += 1
    offered = set(legal)
    stats = {c: e for (actor, c), e in root.edges.items() if actor == seat and c in offered}
    if not stats:
        return Search(rng.choice(legal), done, stopped, tree=root)
    best = max(stats, key=lambda c: (stats[c].visits, stats[c].reward))  # ties: the higher reward, then the first tried
    return Search(best, done, stopped,
                  {k: (e.visits, e.reward / e.visits if e.visits else 0.0) for k, e in stats.items()}, root)


def certain_win(knowledge: SeatKnowledge, rng: random.Random, worlds: int = CERTAIN_WORLDS) -> Command | None:
    """A legal command that ends the game with the seat among the winners in each of ``worlds`` worlds drawn from
    its knowledge (the first in the game's order), else ``None``. The search's values cannot tell "won now" from
    "won in all its playouts later", and a sampled tree may never try the winning command at all: a certain win is
    checked before any search (issue 46). Cheap: most commands end nothing in the first world and are dropped."""
    game, seat = knowledge.game, knowledge.seat
    rules = game.decider
    drawn = [knowledge.resample(rng) for _ in range(worlds)]
    for command in knowledge.legal:
        if all(_wins(rules, world, command, seat, rng) for world in drawn):
            return command
    return None


def _wins(rules: Any, world: Any, command: Command, seat: int, rng: random.Random) -> bool:
    final = rules.outcome(step(rules, world, command, seat, rng).state)
    return final is not None and seat in final.winners


def _iterate(game: Game, seat: int, knowledge: SeatKnowledge, root_legal: list[Command], root: Node,
             rng: random.Random, rollout: Rollout, opponents: Model | None = None) -> bool:
    """One iteration; False when the clock stopped it before it could be scored."""
    state = world = knowledge.resample(rng)
    rules = game.decider
    node: Node | None = root
    path: list[tuple[Edge, int]] = []
    while node is not None and rules.outcome(state) is None:
        waited = rules.to_act(state)
        if not waited and node is not root:
            break
        actor = seat if seat in waited or node is root else rng.choice(sorted(waited))
        legal = root_legal if node is root else rules.legal_commands(state, actor)
        if not legal:
            break
        if opponents is not None and actor != seat:
            events, state = step(rules, state, opponents(state, actor, legal, rng), actor, rng)
            node = node.after.setdefault(_seen(seat, actor, events), Node())
            continue
        keys = [(actor, c) for c in legal]
        fresh = [i for i, k in enumerate(keys) if k not in node.edges]
        for k in keys:
            if k in node.edges:
                node.edges[k].avail += 1
        if fresh:
            pick = rng.choice(fresh)
            edge = node.edges[keys[pick]] = Edge()
            edge.avail = 1
            node = None  # expanded: the rest is the rollout
        else:
            pick = max(range(len(keys)), key=lambda i: _ucb(node.edges[keys[i]]))  # type: ignore[union-attr]
            edge = node.edges[keys[pick]]
        path.append((edge, actor))
        before = node
        events, state = step(rules, state, legal[pick], actor, rng)
        if before is not None:
            seen = ("own", keys[pick][1]) if actor == seat else _seen(seat, actor, events)
            node = before.after.setdefault(seen, Node())
    rewards = rollout.play(state, world, depth=len(path))
    if rewards is None:
        return False
    for edge, actor in path:
        edge.visits += 1
        edge.reward += rewards[actor]
    return True


def _seen(seat: int, actor: int, events: Any) -> tuple[int, tuple[tuple[str, str], ...]]:
    """What ``seat`` observes of another seat's move: its events as redacted for it."""
    return actor, tuple((e.type, key(redact(e, seat))) for e in events)


def _ucb(edge: Edge) -> float:
    return edge.reward / edge.visits + EXPLORATION * math.sqrt(math.log(edge.avail) / edge.visits)
