"""The search's structure: moves inside it are the game's own, its tree is the observer's information sets,
and it is a function of its inputs. Small budgets, no clock."""

from __future__ import annotations

import random

import pytest

from shared.ai import SeatKnowledge, search
from shared.ai.ismcts import Node
from shared.ai.step import step
from shared.games import GAMES
from shared.kernel import entropy_for, fold
from shared.wire.commands import parse_command
from tests.support.properties import random_playout
from tests.support.toy import GAME as TOY


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_a_move_inside_the_search_reaches_the_state_folding_its_events_reaches(game_id):
    """``decide`` hands back the state it folded as it emitted, which ``step`` takes as it is: it must be exactly
    the fold of the events."""
    game = GAMES[game_id]
    play = random_playout(game, max(game.catalogue.min_players, 2), 31, keep_states=True)
    rand = random.Random(1)
    for (seat, command), state in list(zip(play.commands, play.states))[::4]:
        events, after = step(game.decider, state, parse_command(game, command), seat, random.Random(rand.random()))
        assert after == fold(game, events, state)


def _walk(node: Node):
    yield node
    for child in node.after.values():
        yield from _walk(child)


def test_the_tree_does_not_split_on_what_another_seat_drew_face_down():
    """Toy: a seat's draw shows others only that it drew. Keyed by the real events, the observer's tree would
    grow a child per card drawn; keyed by what the observer sees, it grows one."""
    state = fold(TOY, TOY.decider.setup(2, {}, entropy_for(b"toy", 0)))
    result = search(SeatKnowledge.of(TOY, state, 0), 300, random.Random(4))
    draws = [[k for k in node.after if k[0] == 1 and k[1][0][0] == "card_drawn"] for node in _walk(result.tree)]
    assert max(len(d) for d in draws) == 1 and sum(len(d) for d in draws) >= 1


def test_the_same_knowledge_and_stream_give_the_same_search_and_another_stream_may_not():
    state = fold(TOY, TOY.decider.setup(3, {}, entropy_for(b"toy", 1)))
    knowledge = SeatKnowledge.of(TOY, state, 0)
    runs = [search(knowledge, 60, random.Random(seed)) for seed in (8, 8, 9)]
    assert runs[0].root == runs[1].root and runs[0].best == runs[1].best
    assert runs[0].root != runs[2].root
    assert sum(v for v, _ in runs[0].root.values()) == runs[0].iterations == 60


@pytest.mark.parametrize("game_id", sorted(g for g in GAMES if GAMES[g].ai.rollout_policy is not None))
def test_a_games_rollout_policy_plays_one_of_the_legal_commands(game_id):
    game = GAMES[game_id]
    play = random_playout(game, max(game.catalogue.min_players, 2), 17, keep_states=True)
    rand = random.Random(2)
    for state in play.states[::3]:
        for seat in range(state.players):
            legal = game.decider.legal_commands(state, seat)
            if legal:
                assert game.ai.rollout_policy(state, seat, legal, random.Random(rand.random())) in legal


def test_a_playout_stops_where_the_game_judges_the_position_and_scores_that_judgement():
    """Toy with a ``playout_value`` that judges any position two draws on from the world the playout began in:
    the playout returns that judgement, and stops there (a position it never reaches cannot be judged)."""
    import dataclasses

    from shared.ai.rollout import Rollout

    judged = []

    def value(start, state):
        if len(state.deck) <= len(start.deck) - 2:
            judged.append(state)
            return [0.25, 0.75]
        return None

    game = dataclasses.replace(TOY, ai=dataclasses.replace(TOY.ai, playout_value=value))
    state = fold(TOY, TOY.decider.setup(2, {}, entropy_for(b"toy", 5)))
    assert Rollout(game, random.Random(3), None, None).play(state) == pytest.approx([0.25, 0.75], abs=0.01)  # discounted
    assert len(judged) == 1 and TOY.decider.outcome(judged[0]) is None
    result = search(SeatKnowledge.of(game, state, 0), 40, random.Random(6))
    assert result.iterations == 40 and all(0.25 <= mean <= 0.75 for _, mean in result.root.values())


def judgements(game, start, states, due) -> list:
    """(state, judgement) for each of ``states`` at which ``due(start, state)`` says a playout begun at ``start``
    may be judged; everywhere else the game must not judge it (``playout_value`` is None)."""
    found = []
    for state in states:
        value = game.ai.playout_value(start, state)
        if due(start, state):
            found.append((state, value))
        else:
            assert value is None
    return found


def test_rites_of_cthulhu_judges_a_playout_once_a_rite_has_ended_by_the_lead_in_points():
    from shared.games.rites_of_cthulhu.artifacts import points
    from shared.games.rites_of_cthulhu.state import Choosing

    game = GAMES["rites-of-cthulhu"]
    play = random_playout(game, 2, 23, keep_states=True)
    judged = judgements(game, play.states[0], play.states,
                        lambda start, s: isinstance(s.stage, Choosing) and len(s.played) != len(start.played))
    for state, value in judged:
        scores = [points(state, s) for s in range(2)]
        assert all(0.0 <= v <= 1.0 for v in value) and value[0] + value[1] == pytest.approx(1.0)
        assert (value[0] > value[1]) == (scores[0] > scores[1]) and (value[0] == value[1]) == (scores[0] == scores[1])
    assert judged


def test_arkham_ritual_judges_a_playout_once_a_round_has_ended_by_the_sanity_left():
    game = GAMES["arkham-ritual"]
    play = random_playout(game, 3, 29, keep_states=True)
    later_round = judgements(game, play.states[1], play.states[1:], lambda start, s: s.round is not None
                             and s.round.number != start.round.number and game.decider.outcome(s) is None)
    judged = [(state, value) for state, value in later_round if value is not None]  # else between two turns' draws
    for state, value in judged:
        assert all(0.0 <= v <= 1.0 for v in value)
        order = sorted(range(3), key=lambda s: state.sanity[s])
        assert [value[s] for s in order] == sorted(value)  # more Sanity, never a worse judgement
    assert judged


def test_the_great_old_one_judges_a_two_player_playout_some_turns_on_and_holding_the_great_old_one_late_is_bad():
    from shared.games.great_old_one import policy
    from shared.games.great_old_one.cards import GREAT_OLD_ONE
    from shared.games.great_old_one.state import Step, Turn, last_turn

    game = GAMES["great-old-one"]
    play = random_playout(game, 2, 48, keep_states=True)
    judged = judgements(game, play.states[0], play.states,
                        lambda start, s: isinstance(s.phase, Turn) and s.phase.step is Step.DRAW
                        and s.phase.number >= (getattr(last_turn(start), "number", 0)) + policy.HORIZON)
    for state, value in judged:
        assert len(value) == 2 and all(0.0 <= v <= 1.0 for v in value) and sum(value) == pytest.approx(1.0)
        assert len(policy.features(state, 0)) == len(policy.FEATURES)
    assert judged
    three = random_playout(game, 3, 41, keep_states=True)
    assert all(game.ai.playout_value(three.states[0], s) is None for s in three.states)
    # late in the game (the deck cut to ten cards), no Cultist in play: the seat holding the Great Old One is judged
    # worse off than when it swaps that card for one of its rival's
    from shared.kernel import replace

    late = next(s for s in reversed(play.states) if isinstance(s.phase, Turn) and s.phase.step is Step.DRAW
                and not any(a.cultist for a in s.areas)
                and any(GREAT_OLD_ONE in h for h in s.hands) and all(s.hands))
    holder = next(seat for seat in range(2) if GREAT_OLD_ONE in late.hands[seat])
    other = late.hands[1 - holder][0]
    hands = list(late.hands)
    hands[holder] = tuple(sorted(other if c == GREAT_OLD_ONE else c for c in hands[holder]))
    hands[1 - holder] = tuple(sorted(GREAT_OLD_ONE if c == other else c for c in hands[1 - holder]))
    late = replace(late, deck=late.deck[:10])
    swapped = replace(late, hands=tuple(hands))
    assert policy.win_chance(late, holder) < policy.win_chance(swapped, holder)


def test_rise_of_cthulhu_judges_a_playout_at_a_turns_start_some_cards_on_and_a_location_facing_a_seat_is_better():
    from shared.games.rise_of_cthulhu import policy
    from shared.games.rise_of_cthulhu.state import Location, Side
    from shared.kernel import replace, replace_at

    game = GAMES["rise-of-cthulhu"]
    play = random_playout(game, 2, 52, keep_states=True)
    start = play.states[0]
    judged = judgements(game, start, play.states, lambda start, s: s.actions_taken == 0 and s.pending is None
                        and not any(s.owed) and policy.moved(s) - policy.moved(start) >= policy.HORIZON)
    for _, value in judged:
        assert len(value) == 2 and all(0.0 < v < 1.0 for v in value) and sum(value) == pytest.approx(1.0)
    assert judged and all(s.actions_taken != 0 or policy.moved(s) - policy.moved(start) < policy.HORIZON
                          for s in play.states[:3])  # the first positions are too near the start to judge
    # a Location taken from the rival is worth more once an Old One has frozen it there than while it is open
    state = judged[len(judged) // 2][0]
    empty = replace(state, locations=tuple(Location(loc.name) for loc in state.locations), awake=(),
                    hands=(("blue-1", "blue-2"), ("red-1", "red-2")))
    held = replace(empty, locations=replace_at(empty.locations, 0, Location("arkham", (Side(("red-9",)), Side()))))
    frozen = replace(held, locations=replace_at(held.locations, 0, replace(held.locations[0], old_one="hastur")))
    assert policy.win_chance(empty, 0) == pytest.approx(policy.win_chance(empty, 1))
    assert policy.win_chance(held, 0) > 0.5 > policy.win_chance(held, 1)
    assert policy.win_chance(frozen, 0) > policy.win_chance(held, 0)


def test_rise_of_cthulhus_playouts_turn_a_location_when_a_cultist_can():
    """The rollout policy (outside its random share) plays the Cultist that turns a Location toward its seat."""
    from shared.games.rise_of_cthulhu import policy
    from shared.games.rise_of_cthulhu.commands import DrawCard, PlayCultist
    from shared.games.rise_of_cthulhu.state import Location, Side
    from shared.kernel import replace

    game = GAMES["rise-of-cthulhu"]
    state = random_playout(game, 2, 52, keep_states=True).states[0]
    locations = (Location("arkham", (Side(("red-2",)), Side(("blue-5",)))),) + tuple(
        Location(loc.name) for loc in state.locations[1:])
    state = replace(state, locations=locations, hunter=None, hands=(("green-4", "red-9"), state.hands[1]), current=0)
    legal = game.decider.legal_commands(state, 0)
    assert DrawCard(source="deck") in legal
    picks = {policy.rollout_policy(state, 0, legal, random.Random(i)) for i in range(40)}
    turning = PlayCultist(card="green-4", location="arkham", recall_hunter=False)
    chosen = [policy.rollout_policy(state, 0, legal, random.Random(i)) for i in range(200)]
    assert turning in picks and chosen.count(turning) > len(chosen) // 2
    assert all(c in legal for c in chosen)


def test_the_great_old_ones_worlds_keep_the_cards_a_seat_saw_go_into_another_hand():
    """Issue 46: the worlds re-dealt every other hand, so a seat forgot the card it gave with a Yellow Sign, had
    taken or called from it. Now, while such a card stays in that hand, every world the seat draws has it there; and
    once it leaves (played, passed on) the seat's worlds are free to put it anywhere again."""
    game = GAMES["great-old-one"]
    checked = 0
    for seed in range(40):
        play = random_playout(game, 3, 500 + seed, keep_states=True)
        for state in play.states:
            for observer, holder, card in state.known:
                assert card in state.hands[holder]  # true of the real state, always
                for draw in range(6):
                    world = game.ai.resample(state, observer, random.Random(draw))
                    assert card in world.hands[holder]
                    assert all(k[0] == observer for k in world.known)
                checked += 1
        if checked >= 30:
            break
    assert checked >= 30


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_a_move_on_the_bare_path_reaches_the_state_decide_reaches_and_the_search_decides_the_same(game_id, monkeypatch):
    """Issue 46: playouts decide inside ``simulating()``, which builds no events (they read only states). Every move
    of a random game leaves the same state as ``decide`` with the same entropy, and a search with its playouts on
    the bare path is the search with them on the full one: the same statistics, the same choice."""
    from shared.ai import rollout
    from shared.kernel.decision import simulating

    game = GAMES[game_id]
    players = max(game.catalogue.min_players, 2)
    play = random_playout(game, players, 37, keep_states=True)
    for i, ((seat, command), state) in enumerate(zip(play.commands, play.states)):
        entropy = entropy_for(b"bare", i)
        full = game.decider.decide(state, parse_command(game, command), seat, entropy)
        with simulating():
            bare = game.decider.decide(state, parse_command(game, command), seat, entropy)
        assert bare.state == full.state and not bare.events and full.events
    for state in play.states[len(play.states) // 3 :: max(1, len(play.states) // 4)][:3]:
        if game.decider.outcome(state) is not None:
            continue
        knowledge = SeatKnowledge.of(game, state, sorted(game.decider.to_act(state))[0])
        monkeypatch.setattr(rollout, "BARE", True)
        fast = search(knowledge, 30, random.Random(3))
        monkeypatch.setattr(rollout, "BARE", False)
        slow = search(knowledge, 30, random.Random(3))
        assert (fast.best, fast.root) == (slow.best, slow.root)


def test_told_how_the_others_play_the_search_draws_their_moves_from_that_and_searches_only_its_own_seat():
    """``opponents`` (the strength table's ceiling, never a table's seat): each of the other seats' moves in the
    tree is the model's choice among that seat's legal commands in the world at hand; only the observer's edges
    are searched. Without it, the tree holds the other seat's edges too."""
    state = fold(TOY, TOY.decider.setup(2, {}, entropy_for(b"toy", 0)))
    asked = []

    def model(world, seat, legal, rng):
        assert legal == TOY.decider.legal_commands(world, seat)
        asked.append(seat)
        return legal[-1]

    told = search(SeatKnowledge.of(TOY, state, 0), 200, random.Random(5), opponents=model)
    untold = search(SeatKnowledge.of(TOY, state, 0), 200, random.Random(5))
    actors = [{actor for actor, _ in node.edges} for node in _walk(told.tree)]
    assert asked and set(asked) == {1} and set().union(*actors) == {0}
    assert 1 in set().union(*({actor for actor, _ in node.edges} for node in _walk(untold.tree)))
