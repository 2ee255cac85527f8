"""The overarching game (rulebook pages 1-13): Grand Cultist, rites, Coveted Artifacts, power-plays, artifacts."""

from __future__ import annotations

import dataclasses

from shared.games.rites_of_cthulhu import GAME
from shared.games.rites_of_cthulhu.cards import ARTIFACTS, entity
from shared.games.rites_of_cthulhu.game import rites_total, setup
from shared.games.rites_of_cthulhu.positions import position
from shared.games.rites_of_cthulhu.rites import RITES
from shared.games.rites_of_cthulhu.state import Choosing, Finished, Performing
from shared.kernel import redact
from tests.support.scenario import given, given_state, play_moves

E = entity
HANDS4 = {
    0: ["Nasht", "Zkauba the Wizard", "Klarkash-Ton", "Henry Anthony Wilcox", "Kamog"],
    1: ["Walter Gilman", "Lavinia Whateley", "Cthulhu", "George Gammell Angell", "Mother Hydra"],
    2: ["Pharaoh Khafra", "Pnakotic Fragments", "Zadok Allen", "Deep One", "Yeb"],
    3: ["Robert Harrison Blake", "Dagon", "Lobon", "Edward Pickman Derby", "Nug"],
}


def play(state, *moves):
    """Apply (seat, command) moves in order; the final state and every event."""
    return play_moves(GAME, state, *moves)


def choosing(hands=HANDS4, players=4, gc=0, deck=None, **kw):
    state = given(GAME, *position(players, gc, hands, rite=None, **kw)).state
    if deck is not None:
        rest = tuple(a for a in state.artifact_deck if a not in deck)
        state = dataclasses.replace(state, artifact_deck=tuple(sorted(deck)), thrown_out=rest)
    return state


def begin(rite="cthulhu_rises", artifact=None, **kw):
    state = choosing(deck=None if artifact is None else [artifact], **kw)
    state, events = play(state, (kw.get("gc", 0), {"type": "choose_rite", "rite": rite}))
    # the rest of the artifacts back in the deck, so excavations stay possible
    state = dataclasses.replace(state, artifact_deck=tuple(sorted(state.artifact_deck + state.thrown_out)), thrown_out=())
    return state, events


def card(name):
    return {"type": "play_card", "card": E(name)}


# --- the series of rites ----------------------------------------------------------------------------------


def test_rites_per_player_count_capped_by_the_implemented_rites():
    wanted = [6, 6, 4, 5, 6]
    assert [rites_total(n, False) for n in range(2, 7)] == [min(w, len(RITES)) for w in wanted]
    assert rites_total(4, True) == min(6, len(RITES))


def test_the_first_grand_cultist_has_the_highest_elder_sign_and_ties_draw_again():
    tied = 0
    for seed in range(60):
        events = setup(4, {}, seed.to_bytes(32, "big"))
        draws = [e.data["cards"] for e in events if e.type == "first_cards_revealed"]
        chosen = next(e.data["seat"] for e in events if e.type == "grand_cultist_chosen")
        last = draws[-1]
        assert all(last[s] % 14 < last[chosen] % 14 for s in range(4) if s != chosen and last[s] >= 0)
        if len(draws) > 1:
            tied += 1
            first = draws[0]
            top = max(c % 14 for c in first)
            assert {s for s in range(4) if last[s] >= 0} == {s for s in range(4) if first[s] % 14 == top}
    assert tied > 0


def test_the_grand_cultist_picks_among_implemented_unplayed_rites():
    state = choosing()
    assert GAME.to_act(state) == {0}
    assert {c["rite"] for c in GAME.legal_commands(state, 0)} == set(RITES) >= {"cthulhu_rises", "tree_on_the_hill",
                                                                                  "mountains_of_madness"}
    given_state(GAME, state).when(1, {"type": "choose_rite", "rite": "cthulhu_rises"}).raises("rules/not_grand_cultist")
    given_state(GAME, state).when(0, {"type": "choose_rite", "rite": "the_shadow_out_of_time"}).raises("rules/rite_not_available")
    played = dataclasses.replace(state, played=("cthulhu_rises",))
    given_state(GAME, played).when(0, {"type": "choose_rite", "rite": "cthulhu_rises"}).raises("rules/rite_not_available")


def test_choosing_a_rite_excavates_the_coveted_artifact():
    state, events = begin(artifact=7)
    assert state.coveted == (7,) and isinstance(state.stage, Performing) and state.stage.begun
    assert [e.type for e in events][:3] == ["rite_chosen", "artifact_excavated", "rite_begun"]


def test_the_winner_takes_the_coveted_pile_and_the_grand_cultist_passes_left():
    hands = {0: ["Hastur", "Yeb"], 1: ["Asenath Waite", "Kamog"]}
    state = given(GAME, *position(2, 0, hands, ["Dagon"], rite="tree_on_the_hill", artifacts=[9, 4],
                                  fill_pile=False)).state
    state, events = play(state, (0, {"type": "plant_tree", "card": E("Hastur")}), (1, {"type": "draw_card"}))
    assert state.captured[0] == (9, 4) and state.coveted == ()
    assert state.grand_cultist == 1 and isinstance(state.stage, Choosing) and state.played == ("tree_on_the_hill",)
    assert all(len(h) == 5 for h in state.table.hands)


def test_the_game_ends_after_the_last_rite_and_the_most_points_win():
    hands = {0: ["Hastur", "Yeb"], 1: ["Asenath Waite", "Kamog"]}
    state = given(GAME, *position(2, 0, hands, ["Dagon"], rite="tree_on_the_hill", artifacts=[3], fill_pile=False,
                                  rites_total=1)).state
    state, _ = play(state, (0, {"type": "plant_tree", "card": E("Hastur")}), (1, {"type": "draw_card"}))
    assert isinstance(state.stage, Finished)
    outcome = GAME.outcome(state)
    assert outcome.winners == (0,) and outcome.scores == (4.0, 0.0)


def test_tied_final_scores_share_the_victory():
    state = choosing(players=2, hands={0: [], 1: []})
    state = dataclasses.replace(state, stage=Finished("all_rites_performed"), captured=((1,), (2,)),
                                artifact_deck=tuple(a for a in state.artifact_deck if a not in (1, 2)))
    assert GAME.outcome(state).winners == (0, 1)


# --- power-plays --------------------------------------------------------------------------------------------


def test_power_plays_appear_for_any_seat_holding_the_cards_out_of_turn():
    state, _ = begin(artifact=7)
    assert {"type": "excavate_artifact", "cult": "green"} in GAME.legal_commands(state, 2)
    assert 2 in GAME.to_act(state) and 3 not in GAME.to_act(state) - {0} or True
    assert not [c for c in GAME.legal_commands(state, 3) if c["type"] == "become_grand_cultist"]


def test_excavate_a_new_artifact_discards_the_pair_draws_two_and_adds_a_coveted_artifact():
    state, _ = begin(artifact=7)
    state, events = play(state, (2, {"type": "excavate_artifact", "cult": "green"}))
    assert len(state.coveted) == 2 and len(state.table.hands[2]) == 5
    assert {E("Pnakotic Fragments"), E("Zadok Allen")} <= set(state.table.set_aside)


def test_become_the_grand_cultist_fails_the_rite_and_deals_a_new_one():
    hands = dict(HANDS4)
    hands[3] = ["Robert Harrison Blake", "Dagon", "Lobon", "Edward Pickman Derby", "Pnakotic Fragments"]
    hands[2] = ["Pharaoh Khafra", "Nug", "Zadok Allen", "Deep One", "Yeb"]
    state, _ = begin(artifact=7, hands=hands)
    assert {"type": "become_grand_cultist", "cult": "green"} in GAME.legal_commands(state, 3)
    state, events = play(state, (3, {"type": "become_grand_cultist", "cult": "green"}))
    assert state.grand_cultist == 3 and isinstance(state.stage, Choosing)
    assert state.played == ("cthulhu_rises",) and 7 in state.thrown_out and state.captured == ((),) * 4
    assert "grand_cultist_passed" not in [e.type for e in events]


def test_become_the_grand_cultist_in_the_final_rite_ends_the_game():
    hands = dict(HANDS4)
    hands[3] = ["Robert Harrison Blake", "Dagon", "Lobon", "Edward Pickman Derby", "Pnakotic Fragments"]
    hands[2] = ["Pharaoh Khafra", "Nug", "Zadok Allen", "Deep One", "Yeb"]
    state, _ = begin(artifact=7, hands=hands, rites_total=1)
    state, _ = play(state, (3, {"type": "become_grand_cultist", "cult": "green"}))
    assert isinstance(state.stage, Finished) and 7 in state.thrown_out


def test_steal_a_coveted_artifact_takes_it_and_excavates_a_replacement():
    hands = dict(HANDS4)
    hands[3] = ["Robert Harrison Blake", "Dagon", "Lobon", "Edward Pickman Derby", "Nug"]
    hands[2] = ["Pharaoh Khafra", "Pnakotic Fragments", "Zadok Allen", "Deep One", "Dagon"][:4] + ["Yeb"]
    hands[2] = ["Pharaoh Khafra", "Pnakotic Fragments", "Zadok Allen", "Deep One", "Mother Hydra"]
    hands[1] = ["Walter Gilman", "Lavinia Whateley", "Cthulhu", "George Gammell Angell", "Yeb"]
    hands[3] = ["Robert Harrison Blake", "Dagon", "Lobon", "Edward Pickman Derby", "Nug"]
    state = choosing(hands=hands, deck=[7, 8])
    state, _ = play(state, (0, {"type": "choose_rite", "rite": "cthulhu_rises"}))
    # seat 3 holds Dagon but no forbidden book: give the triple to seat 2 instead
    assert not [c for c in GAME.legal_commands(state, 2) if c["type"] == "steal_artifact"]
    hands[2] = ["Pharaoh Khafra", "Pnakotic Fragments", "Zadok Allen", "Deep One", "Mother Hydra"]
    hands[3] = ["Robert Harrison Blake", "Yeb", "Lobon", "Edward Pickman Derby", "Nug"]
    hands[1] = ["Walter Gilman", "Lavinia Whateley", "Cthulhu", "George Gammell Angell", "Dagon"]
    state = choosing(hands={**hands, 2: hands[2][:4] + ["Dagon"], 1: hands[1][:4] + ["Mother Hydra"]}, deck=[7, 8])
    state, _ = play(state, (0, {"type": "choose_rite", "rite": "cthulhu_rises"}))
    coveted = state.coveted[0]
    state, events = play(state, (2, {"type": "steal_artifact", "cult": "green", "artifact": coveted}))
    assert state.captured[2] == (coveted,) and len(state.coveted) == 1 and state.coveted[0] != coveted
    assert len(state.table.hands[2]) == 5


def test_excavation_is_refused_when_the_artifact_deck_is_empty():
    state, _ = begin(artifact=7)
    empty = dataclasses.replace(state, artifact_deck=(), thrown_out=state.thrown_out)
    assert not [c for c in GAME.legal_commands(empty, 2) if c["type"] == "excavate_artifact"]
    given_state(GAME, empty).when(2, {"type": "excavate_artifact", "cult": "green"}).raises("rules/artifact_deck_empty")


def test_power_plays_are_not_made_while_the_rite_is_being_chosen():
    state = choosing()
    given_state(GAME, state).when(2, {"type": "excavate_artifact", "cult": "green"}).raises("rules/no_rite_in_progress")


# --- artifacts ---------------------------------------------------------------------------------------------


def test_artifact_data_has_thirteen_project_cards_with_a_symbol_and_a_timing():
    assert len(ARTIFACTS) == 13 and {a["source"] for a in ARTIFACTS} == {"project"}
    assert {a["symbol"] for a in ARTIFACTS} == {"all", "single"} and {a["timing"] for a in ARTIFACTS} == {"before", "during"}


def test_the_shining_trapezohedron_reverses_turn_order():
    state, _ = begin(artifact=0)
    state, _ = play(state, (0, card("Nasht")))
    assert state.stage.rite.gate[-1][0] == 0 and GAME.to_act(state) >= {3}
    assert GAME.legal_commands(state, 3)[0]["type"] == "play_card"


def test_the_glass_from_leng_opens_every_hand():
    state, _ = begin(artifact=1)
    assert GAME.view(state, 1)["table"]["hands"]["2"] == sorted(state.table.hands[2])


def test_the_black_stone_makes_the_lowest_card_win():
    state, _ = begin(artifact=2)
    state, events = play(state, (0, card("Nasht")), (1, card("Walter Gilman")), (2, card("Pharaoh Khafra")),
                         (3, card("Robert Harrison Blake")))
    assert [e.data["seat"] for e in events if e.type == "gate_closed"] == [3]


def test_the_star_stone_of_mnar_forbids_power_plays():
    state, _ = begin(artifact=3)
    assert not [c for c in GAME.legal_commands(state, 2) if c["type"] == "excavate_artifact"]
    given_state(GAME, state).when(2, {"type": "excavate_artifact", "cult": "green"}).raises("rules/power_plays_forbidden")


def test_the_tiara_excavates_another_coveted_artifact():
    state, _ = begin(artifact=None)
    state = choosing(deck=[4, 9])
    state, events = play(state, (0, {"type": "choose_rite", "rite": "cthulhu_rises"}))
    assert set(state.coveted) == {4, 9} or state.coveted == (9,)
    state = choosing(deck=[4])
    state = dataclasses.replace(state, artifact_deck=(4, 9), thrown_out=tuple(a for a in state.thrown_out if a != 9))
    state, _ = play(state, (0, {"type": "choose_rite", "rite": "cthulhu_rises"}))
    assert 4 in state.coveted or 9 in state.coveted


def test_the_silver_key_gives_the_first_turn_to_the_grand_cultists_left():
    state, _ = begin(artifact=5)
    assert state.table.mods.opener == 1 and GAME.legal_commands(state, 1)[0]["type"] == "play_card"
    given_state(GAME, state).when(0, card("Nasht")).raises("rules/not_your_turn")


def test_the_bas_relief_gives_the_first_turn_to_the_poorest_cultist():
    state = choosing(deck=[6])
    state = dataclasses.replace(state, captured=((3,), (8,), (), (10,)),
                                thrown_out=tuple(a for a in state.thrown_out if a not in (3, 8, 10)))
    state, _ = play(state, (0, {"type": "choose_rite", "rite": "cthulhu_rises"}))
    assert state.table.mods.opener == 2


def test_the_lamp_of_alhazred_redraws_one_card_once_per_rite():
    state, _ = begin(artifact=7)
    cmd = {"type": "invoke_artifact", "artifact": 7, "card": E("Kamog"), "seat": None, "target": None}
    assert cmd in GAME.legal_commands(state, 0)
    after, events = play(state, (0, cmd))
    assert E("Kamog") not in after.table.hands[0] and len(after.table.hands[0]) == 5
    assert redact(events[1], 1).get("cards") is None  # set aside face down
    again = {"type": "invoke_artifact", "artifact": 7, "card": E("Yeb"), "seat": None, "target": None}
    given_state(GAME, after).when(2, again).raises("rules/artifact_not_invocable")


def test_the_plutonian_drug_replaces_the_whole_hand():
    state, _ = begin(artifact=8)
    after, _ = play(state, (1, {"type": "invoke_artifact", "artifact": 8, "card": None, "seat": None, "target": None}))
    assert not set(after.table.hands[1]) & set(state.table.hands[1]) and len(after.table.hands[1]) == 5


def test_the_jade_amulet_takes_an_artifact_from_another_cache():
    state = choosing(deck=[9])
    state = dataclasses.replace(state, captured=((), (3,), (), ()), thrown_out=tuple(a for a in state.thrown_out if a != 3))
    state, _ = play(state, (0, {"type": "choose_rite", "rite": "cthulhu_rises"}))
    state, _ = play(state, (2, {"type": "invoke_artifact", "artifact": 9, "card": None, "seat": 1, "target": 3}))
    assert state.captured[2] == (3,) and state.captured[1] == ()


def test_the_crystallizer_replaces_another_coveted_artifact():
    state = choosing(deck=[10, 8, 1])
    state, _ = play(state, (0, {"type": "choose_rite", "rite": "cthulhu_rises"}))
    state = dataclasses.replace(state, coveted=(10, 8), artifact_deck=(1,), revealed=(10, 8),
                                thrown_out=tuple(a for a in range(13) if a not in (10, 8, 1)))
    state, _ = play(state, (3, {"type": "invoke_artifact", "artifact": 10, "card": None, "seat": None, "target": 8}))
    assert 8 in state.thrown_out and set(state.coveted) == {10, 1} and state.table.mods.open_hands


def test_the_scroll_of_tyog_forces_a_trade_the_receiver_answers_unseen():
    state, _ = begin(artifact=11)
    cmd = {"type": "invoke_artifact", "artifact": 11, "card": E("Kamog"), "seat": 2, "target": None}
    state, events = play(state, (0, cmd))
    assert state.table.trade is not None and 2 in GAME.to_act(state)
    assert [c["type"] for c in GAME.legal_commands(state, 2)].count("return_card") == 5
    given_state(GAME, state).when(0, card("Nasht")).raises("rules/trade_pending")
    state, _ = play(state, (2, {"type": "return_card", "card": E("Yeb")}))
    assert E("Kamog") in state.table.hands[2] and E("Yeb") in state.table.hands[0]


def test_the_mirror_of_nitocris_shows_one_hand_to_the_invoker_only():
    state, _ = begin(artifact=12)
    state, events = play(state, (1, {"type": "invoke_artifact", "artifact": 12, "card": None, "seat": 3, "target": None}))
    known = events[-1]
    assert sorted(redact(known, 1)["cards"]) == sorted(state.table.hands[3]) and "cards" not in redact(known, 2)


def test_the_owner_invokes_a_captured_artifact_a_second_time_in_a_later_rite_only_once():
    state = choosing(deck=[9])
    state = dataclasses.replace(state, captured=((7,), (), (), ()), thrown_out=tuple(a for a in state.thrown_out if a != 7))
    state, _ = play(state, (0, {"type": "choose_rite", "rite": "cthulhu_rises"}))
    cmd = {"type": "invoke_artifact", "artifact": 7, "card": E("Kamog"), "seat": None, "target": None}
    assert cmd in GAME.legal_commands(state, 0)
    assert not [c for c in GAME.legal_commands(state, 1) if c.get("artifact") == 7]
    state, _ = play(state, (0, cmd))
    assert 7 in state.second_used and 7 in state.captured[0]
    assert not [c for c in GAME.legal_commands(state, 0) if c.get("artifact") == 7]


def test_a_before_artifact_is_invoked_again_only_before_the_rites_first_move():
    state = choosing(deck=[9])
    state = dataclasses.replace(state, captured=((), (0,), (), ()), thrown_out=tuple(a for a in state.thrown_out if a != 0))
    state, _ = play(state, (0, {"type": "choose_rite", "rite": "cthulhu_rises"}))
    cmd = {"type": "invoke_artifact", "artifact": 0, "card": None, "seat": None, "target": None}
    assert cmd in GAME.legal_commands(state, 1)
    moved, _ = play(state, (0, card("Nasht")))
    assert cmd not in GAME.legal_commands(moved, 1)
    after, _ = play(state, (1, cmd))
    assert after.table.mods.direction == -1
