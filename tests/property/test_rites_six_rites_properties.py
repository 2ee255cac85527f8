"""Rites of Cthulhu with all six rites over seeded random playouts: the kernel's properties, plus the second three
rites' own (The Dunwich Horror, Out of the Aeons, The Hound).

The kernel's one-move non-interference check of other seats' moves runs on each rite's ``resample_unrevealable``
(which keeps in place what another seat's next move may show: wall cards, graves, sealed bids, the pile's top). The
full ``resample`` (walls, graves not peeked, other seats' sealed cards, the sub-deck order) is checked here on
views, legal commands and who the rite waits on, position by position.
"""

from __future__ import annotations

import dataclasses
import random
from collections import Counter

import pytest

from shared.games.rites_of_cthulhu import GAME
from shared.games.rites_of_cthulhu.rites import RITES
from shared.games.rites_of_cthulhu.rites.dunwich_horror.state import Claims
from shared.games.rites_of_cthulhu.rites.table import table_view
from shared.games.rites_of_cthulhu.state import Performing
from shared.kernel import RuleViolation, fold, redact
from tests.support.properties import canonical, check_game_properties, random_playout

SECOND_THREE = ("dunwich_horror", "out_of_the_aeons", "the_hound")
ALL_SIX = {"play_all_rites": True}


def test_all_six_rites_are_registered_and_available():
    assert set(RITES) == {"cthulhu_rises", "tree_on_the_hill", "mountains_of_madness", *SECOND_THREE}
    state = fold(GAME, GAME.decider.setup(4, GAME.resolve_options(ALL_SIX), bytes(32)))
    assert sorted(c.rite for c in GAME.decider.legal_commands(state, state.grand_cultist)) == sorted(RITES)
    assert state.rites_total == 6


@pytest.mark.parametrize("players", [2, 4, 6])
@pytest.mark.parametrize("seed", range(6))
def test_random_games_with_all_six_rites_keep_every_kernel_property(players, seed):
    play = check_game_properties(GAME, players, 4241 + 97 * seed + players, ALL_SIX, every=5)
    assert len(play.state.played) == 6


def my_rite_positions(players, seed):
    """Every position of a random six-rite game where one of the second three rites is being played."""
    play = random_playout(GAME, players, seed, ALL_SIX, keep_states=True)
    out = []
    for state in play.states:
        stage = state.stage
        if isinstance(stage, Performing) and stage.begun and stage.rite_id in SECOND_THREE:
            out.append(state)
    return play, out


def test_random_games_play_each_of_the_second_three_rites_to_its_end():
    played = Counter()
    for seed in range(6):
        play = random_playout(GAME, 2 + seed % 5, 900 + seed, ALL_SIX)
        played.update(play.state.played)
        assert GAME.decider.outcome(play.state) is not None and len(play.commands) < 1500
    assert all(played[r] == 6 for r in SECOND_THREE)


@pytest.mark.parametrize("players", [2, 3, 5, 6])
def test_the_full_resample_of_walls_graves_bids_and_sub_deck_changes_no_seats_view_of_the_rite_or_moves(players):
    rand = random.Random(players)
    checked = Counter()
    for seed in range(3):
        _, states = my_rite_positions(players, 7100 + seed)
        for state in states[::2]:
            rite = RITES[state.stage.rite_id]
            for seat in range(players):
                # The rite's own contract.
                table, rite_state = rite.resample(state.table, state.stage.rite, seat, rand)
                other = dataclasses.replace(state, table=table, stage=dataclasses.replace(state.stage, rite=rite_state))
                GAME.decider.invariant(other)
                before, after = (state.table, state.stage.rite), (table, rite_state)
                assert canonical(rite.view(*before, seat)) == canonical(rite.view(*after, seat))
                assert canonical(table_view(state.table, seat)) == canonical(table_view(table, seat))
                assert rite.legal_commands(*before, seat) == rite.legal_commands(*after, seat)
                assert rite.to_act(*before) == rite.to_act(*after)
                checked[rite.id] += 1
    assert all(checked[r] for r in SECOND_THREE), checked


def test_the_full_resample_really_moves_hidden_rite_cards():
    """A rite's full ``resample`` is not the identity on face-down walls and graves (else the check above proves little)."""
    moved = Counter()
    rand = random.Random(5)
    for seed in range(4):
        _, states = my_rite_positions(4, 7300 + seed)
        for state in states:
            rite = RITES[state.stage.rite_id]
            _, other = rite.resample(state.table, state.stage.rite, 0, rand)
            if rite.id == "dunwich_horror" and other.walls != state.stage.rite.walls:
                moved[rite.id] += 1
            if rite.id == "the_hound" and [g.card for g in other.graves] != [g.card for g in state.stage.rite.graves]:
                moved[rite.id] += 1
            if rite.id == "out_of_the_aeons" and other.sub_deck != state.stage.rite.sub_deck:
                moved[rite.id] += 1
    assert all(moved[r] for r in SECOND_THREE), moved


def test_in_every_knock_race_the_first_valid_claim_wins_and_every_later_knock_is_refused():
    races = 0
    for players in (3, 4, 6):
        for seed in range(4):
            _, states = my_rite_positions(players, 7700 + seed)
            for state in states:
                phase = state.stage.rite.phase if state.stage.rite_id == "dunwich_horror" else None
                if not isinstance(phase, Claims):
                    continue
                knocks = {s: [c for c in GAME.decider.legal_commands(state, s) if c.type == "knock"] for s in range(players)}
                claimants = [s for s, k in knocks.items() if k]
                if len(claimants) < 2:
                    continue
                races += 1
                first, *later = claimants
                events, after = GAME.checked_decide(state, knocks[first][0], first, bytes(32))
                claimed = next(e for e in events if e.type == "wall_claimed")
                assert claimed.data["seat"] == first and claimed.data["order"][-1] == first
                assert claimed.data["arrival"] == len(phase.passed) + 1
                for seat in later:
                    with pytest.raises(RuleViolation) as refused:
                        GAME.checked_decide(after, knocks[seat][0], seat, bytes(32))
                    assert refused.value.code in ("rules/not_your_turn", "rules/no_knock_window", "rules/not_in_this_rite",
                                                  "rules/no_rite_in_progress")
    assert races > 0


def test_sealed_choices_and_peeks_reach_only_their_seat_in_the_redacted_log():
    for players in (3, 5):
        play, _ = my_rite_positions(players, 7900 + players)
        for event in play.events:
            if event.type in ("bid_sealed", "henchman_sealed", "grave_peeked", "dummy_returned"):
                seat, audience = event.data["seat"], event.secret.get("card")
                for viewer in (None, *range(players)):
                    seen = redact(event, viewer)
                    if audience is not None and viewer not in audience:
                        assert "card" not in seen
                    assert viewer == seat or "choice" not in seen
            if event.type in ("farmhouse_walls_built", "graveyard_laid", "aeons_cards_regathered", "twins_set_aside"):
                for viewer in (None, *range(players)):
                    assert set(redact(event, viewer)) <= {"count", "hand_size", "remainder_count", "twins", "handed_over"}


def test_only_the_full_information_view_shows_face_down_walls_and_the_sub_deck_order():
    from shared.kernel import EVERYONE

    seen = Counter()
    _, states = my_rite_positions(4, 8100)
    for state in states:
        rite = state.stage.rite_id
        full, seat = GAME.decider.view(state, EVERYONE)["rite"], GAME.decider.view(state, 0)["rite"]
        if rite == "dunwich_horror" and any(w["status"] == "face_down" for w in full["walls"]):
            assert all("card" in w for w in full["walls"] if w["status"] == "face_down")
            assert not any("card" in w for w in seat["walls"] if w["status"] == "face_down")
            seen[rite] += 1
        if rite == "out_of_the_aeons":
            assert len(full["sub_deck_order"]) == full["sub_deck"] and "sub_deck_order" not in seat
            seen[rite] += 1
    assert seen["dunwich_horror"] and seen["out_of_the_aeons"]
