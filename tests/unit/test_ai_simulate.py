"""A game's ``simulate`` (the AI's playout moves, ``AiHooks.simulate``) leaves exactly the state ``decide`` leaves.

Issue 46: playouts move by ``simulate``, which builds the state directly (no events, no checks of a command the game
itself listed). Over positions of random games at every table size, and over worlds the seat to act could be in
(the playouts run in those), every legal command of every seat gives ``decide``'s state with the same entropy.
"""

from __future__ import annotations

import random

import pytest

from shared.ai import SeatKnowledge, rollout, search
from shared.games import GAMES
from shared.games.rise_of_cthulhu.cards import OLD_ONE_SLOT
from shared.kernel import entropy_for, replace
from shared.kernel.decision import simulating
from tests.support.properties import random_playout

SIMULATED = sorted(g for g in GAMES if GAMES[g].ai.simulate is not None)


def _options(game, i):
    """The game's options for its ``i``-th random game: each choice in turn, the switches in every combination (the
    first game has every default)."""
    out, switch = {}, 0
    for name, option in game.catalogue.options.items():
        if option.type == "choice":
            out[name] = option.choices[i % len(option.choices)]
        elif option.type == "bool":
            out[name] = bool((i >> switch) & 1)
            switch += 1
    return out


def _positions(game, seeds):
    """Every position of random games at each table size, with the game's options in turn (``_options``), and a
    world of each drawn for a seat to act."""
    low, high = game.catalogue.min_players, game.catalogue.max_players
    sizes = sorted({max(low, 2), high, (low + high) // 2})
    for seed in seeds:
        for j, players in enumerate(sizes):
            rand = random.Random(seed)
            options = _options(game, seed * len(sizes) + j)
            play = random_playout(game, players, 700 + 31 * seed + players, options=options, keep_states=True)
            for state in play.states:
                if game.decider.outcome(state) is not None:
                    continue
                yield state
                waited = sorted(game.decider.to_act(state)) or [0]
                yield game.ai.resample(state, rand.choice(waited), rand)


def test_every_game_but_the_toy_has_a_simulation():
    assert set(SIMULATED) == set(GAMES) - {"toy"}


@pytest.mark.parametrize("game_id", SIMULATED)
def test_a_simulated_move_leaves_the_state_decide_leaves(game_id):
    game = GAMES[game_id]
    rules, simulate = game.decider, game.ai.simulate
    checked: dict[str, int] = {}
    for i, state in enumerate(_positions(game, range(2))):
        for seat in range(state.players):
            for command in rules.legal_commands(state, seat):
                entropy = entropy_for(b"simulate", i)
                expected = rules.decide(state, command, seat, entropy).state
                with simulating():
                    assert simulate(state, command, seat, entropy) == expected, (i, seat, command)
                assert simulate(state, command, seat, entropy) == expected, (i, seat, command)
                checked[command.type] = checked.get(command.type, 0) + 1
    assert len(checked) >= 4 and sum(checked.values()) >= 500, checked


def test_rise_of_cthulhu_simulates_old_ones_waking_one_after_another():
    """Every Old One slot left moved to the top of the deck: a draw wakes one, and the draw owed for it (straight away,
    or after its power) wakes the next, down to the last; random games seldom reach these wakes. Each command of the
    random play that follows, every legal one of the seat to act, gives ``decide``'s state."""
    game = GAMES["rise-of-cthulhu"]
    rules, simulate = game.decider, game.ai.simulate
    checked = 0
    for i, state in enumerate(_positions(game, range(1))):
        if i % 7 or state.pending is not None or any(state.owed):
            continue
        slots = [c for c in state.deck if c == OLD_ONE_SLOT]
        state = replace(state, deck=(*slots, *[c for c in state.deck if c != OLD_ONE_SLOT]))
        rand = random.Random(i)
        for step in range(6):
            waited = sorted(rules.to_act(state))
            if not waited:
                break
            seat = waited[0]
            entropy = entropy_for(b"wakes", i * 10 + step)
            for command in rules.legal_commands(state, seat):
                with simulating():
                    assert simulate(state, command, seat, entropy) == rules.decide(state, command, seat, entropy).state
                checked += 1
            state = rules.decide(state, rand.choice(rules.legal_commands(state, seat)), seat, entropy).state
    assert checked >= 300, checked


@pytest.mark.parametrize("game_id", SIMULATED)
def test_a_search_with_simulated_playouts_is_the_search_with_decided_ones(game_id, monkeypatch):
    """The same moves, the same entropy drawn for each: the same statistics and the same choice."""
    game = GAMES[game_id]
    play = random_playout(game, max(game.catalogue.min_players, 2), 41, keep_states=True)
    for state in play.states[len(play.states) // 4 :: max(1, len(play.states) // 3)][:2]:
        if game.decider.outcome(state) is not None:
            continue
        knowledge = SeatKnowledge.of(game, state, sorted(game.decider.to_act(state))[0])
        monkeypatch.setattr(rollout, "BARE", True)
        fast = search(knowledge, 30, random.Random(5))
        monkeypatch.setattr(rollout, "BARE", False)
        slow = search(knowledge, 30, random.Random(5))
        assert (fast.best, fast.root) == (slow.best, slow.root)


def _rites_positions(rite_id):
    """Rites of Cthulhu's positions (``_positions``) in ``rite_id`` under way, no forced card waiting."""
    game = GAMES["rites-of-cthulhu"]
    for state in _positions(game, range(2)):
        stage = state.stage
        if getattr(stage, "rite_id", None) == rite_id and stage.begun and state.table.trade is None:
            yield state


def _agrees(state, seat, salt):
    """Every legal command of ``seat`` gives ``decide``'s state when simulated; how many there were."""
    rules, simulate = GAMES["rites-of-cthulhu"].decider, GAMES["rites-of-cthulhu"].ai.simulate
    legal = rules.legal_commands(state, seat)
    for command in legal:
        entropy = entropy_for(b"rare", salt)
        with simulating():
            assert simulate(state, command, seat, entropy) == rules.decide(state, command, seat, entropy).state, command
    return legal


def test_rites_of_cthulhu_simulates_a_dunwich_turn_ended_without_a_pair():
    """A cultist on turn with one card (two knocks won off turn, in play) can only end her turn; random games seldom
    get there. Her other cards moved to the bottom of the pile, each of her commands gives ``decide``'s state."""
    from shared.games.rites_of_cthulhu.rites.dunwich_horror.state import Turn
    from shared.games.rites_of_cthulhu.rites.table import with_hand
    ended = 0
    for i, state in enumerate(_rites_positions("dunwich_horror")):
        if not isinstance(state.stage.rite.phase, Turn):
            continue
        seat = next(iter(GAMES["rites-of-cthulhu"].decider.to_act(state)))
        hand = state.table.hands[seat]
        table = replace(with_hand(state.table, seat, hand[:1]), pile=state.table.pile + hand[1:])
        legal = _agrees(replace(state, table=table), seat, i)
        ended += any(c.type == "end_turn" for c in legal)
    assert ended >= 20, ended


def test_the_great_old_one_simulates_a_pass_in_the_call_and_the_recruit_phases():
    """No opponent holding a card (the Call passed) and no Story in hand with the deck drawn (the Recruit passed):
    random games seldom get there. The other hands, or the seat's Stories and the deck, moved to an opponent's hand,
    every legal command of the seat on turn gives ``decide``'s state."""
    from shared.games.great_old_one.cards import STORY_CARDS
    from shared.games.great_old_one.state import Step, Turn
    game = GAMES["great-old-one"]
    rules, simulate = game.decider, game.ai.simulate
    passed: dict[str, int] = {}
    for i, state in enumerate(_positions(game, range(1))):
        turn = state.phase
        if not isinstance(turn, Turn) or turn.step not in (Step.CALL, Step.RECRUIT):
            continue
        seat, hands = turn.seat, list(state.hands)
        other = (seat + 1) % state.players
        if turn.step is Step.CALL:
            deck = state.deck + tuple(c for s in range(state.players) if s != seat for c in hands[s])
            hands = [h if s == seat else () for s, h in enumerate(hands)]
        else:
            stories = tuple(c for c in hands[seat] if c in STORY_CARDS)
            hands[other] = tuple(sorted(hands[other] + stories + state.deck))
            hands[seat] = tuple(c for c in hands[seat] if c not in STORY_CARDS)
            deck = ()
        doctored = replace(state, hands=tuple(hands), deck=deck)
        for command in rules.legal_commands(doctored, seat):
            entropy = entropy_for(b"pass", i)
            with simulating():
                assert simulate(doctored, command, seat, entropy) == rules.decide(doctored, command, seat, entropy).state
            passed[command.type] = passed.get(command.type, 0) + 1
    assert passed.get("pass_call", 0) >= 20 and passed.get("pass_recruit", 0) >= 20, passed
