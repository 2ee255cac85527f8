"""The overarching game (rulebook pages 1-13): Grand Cultist, rites, Coveted Artifacts, power-plays, artifacts."""

from __future__ import annotations

import dataclasses
import random

import pytest

from shared.games.rites_of_cthulhu import GAME
from shared.games.rites_of_cthulhu.cards import ARTIFACTS, CTHULHU, entity
from shared.games.rites_of_cthulhu.rites import RITES
from shared.games.rites_of_cthulhu.rules import rites_total, setup
from shared.games.rites_of_cthulhu.state import Choosing, Finished
from shared.kernel import ev
from tests.support.rites_positions import dealt_again, position
from tests.support.scenario import given, given_state, offered, play_moves, timeout_choice
from tests.support.resignation import resigned_and_played_out

E = entity
HANDS4 = {
    0: ["Nasht", "Zkauba the Wizard", "Klarkash-Ton", "Henry Anthony Wilcox", "Kamog"],
    1: ["Walter Gilman", "Lavinia Whateley", "Cthulhu", "George Gammell Angell", "Mother Hydra"],
    2: ["Pharaoh Khafra", "Pnakotic Fragments", "Zadok Allen", "Deep One", "Yeb"],
    3: ["Robert Harrison Blake", "Dagon", "Lobon", "Edward Pickman Derby", "Nug"],
}


def choosing(hands=HANDS4, players=4, gc=0, deck=None, **kw):
    state = given(GAME, *position(players, gc, hands, rite=None, **kw)).state
    if deck is not None:
        rest = tuple(a for a in state.artifact_deck if a not in deck)
        state = dataclasses.replace(state, artifact_deck=tuple(sorted(deck)), thrown_out=rest)
    return state


def begin(rite="cthulhu_rises", artifact=None, **kw):
    state = choosing(deck=None if artifact is None else [artifact], **kw)
    state, events = play_moves(GAME, state, (kw.get("gc", 0), {"type": "choose_rite", "rite": rite}))
    # the rest of the artifacts back in the deck, so excavations stay possible
    state = dataclasses.replace(state, artifact_deck=tuple(sorted(state.artifact_deck + state.thrown_out)), thrown_out=())
    return state, events


def card(name):
    return {"type": "play_card", "card": E(name)}


CHOOSE_CTHULHU_RISES = {"type": "choose_rite", "rite": "cthulhu_rises"}


def chosen(*artifact_facts):
    """The Grand Cultist chooses Cthulhu Rises: the Coveted Artifact excavated (and its power, if it acts at once)."""
    return [ev("rite_chosen", rite="cthulhu_rises"), *artifact_facts, ev("rite_begun", rite="cthulhu_rises")]


def excavated(artifact, seat=None):
    return ev("artifact_excavated", artifact=artifact, seat=seat)


def invoked(seat, artifact, second=False):
    return ev("artifact_invoked", seat=seat, artifact=artifact, second=second)


def drew(seat, *names):
    return ev("cards_drawn", seat=seat, cards=[E(n) for n in names], secret={"cards": [seat]})


def hands_of(hands):
    """Each hand's card ids, sorted, as the Glass from Leng opens them."""
    return [sorted(E(n) for n in hands[s]) for s in sorted(hands)]


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
    assert GAME.decider.to_act(state) == {0}
    assert {c["rite"] for c in offered(GAME, state, 0)} == set(RITES) >= {"cthulhu_rises", "tree_on_the_hill",
                                                                                  "mountains_of_madness"}
    given_state(GAME, state).when(1, {"type": "choose_rite", "rite": "cthulhu_rises"}).refused("rules/not_your_turn")
    given_state(GAME, state).when(0, {"type": "choose_rite", "rite": "the_shadow_out_of_time"}).refused("rules/rite_not_available")
    played = dataclasses.replace(state, played=("cthulhu_rises",))
    given_state(GAME, played).when(0, {"type": "choose_rite", "rite": "cthulhu_rises"}).refused("rules/rite_not_available")


def test_choosing_a_rite_excavates_the_coveted_artifact():
    """The Grand Cultist picks the rite; the top artifact (Game Setup: one per rite) is excavated as the Coveted
    Artifact, by nobody, before the rite begins."""
    chose = given_state(GAME, choosing(deck=[7])).when(0, CHOOSE_CTHULHU_RISES).then(*chosen(excavated(7)))
    assert chose.after.coveted == (7,)


def test_the_winner_takes_the_coveted_pile_and_the_grand_cultist_passes_left():
    hands = {0: ["Hastur", "Yeb"], 1: ["Asenath Waite", "Kamog"]}
    deal = position(2, 0, hands, ["Dagon"], rite="tree_on_the_hill", artifacts=[9, 4], fill_pile=False)
    # seat 1 draws the last card: seat 0 holds the fewest and wins; the seat passes left, the next rite is dealt
    won = given(GAME, *deal).played((0, {"type": "plant_tree", "card": E("Hastur")})).when(1, {"type": "draw_card"}).then(
        ev("drew_unable_to_play", seat=1), drew(1, "Dagon"), ev("rite_won", seat=0, reason="fewest_cards"),
        ev("grand_cultist_passed", seat=1), *dealt_again(2))
    assert won.after.captured[0] == (9, 4) and won.after.coveted == ()
    assert isinstance(won.after.stage, Choosing) and won.after.played == ("tree_on_the_hill",)


def test_the_game_ends_after_the_last_rite_and_the_most_points_win():
    hands = {0: ["Hastur", "Yeb"], 1: ["Asenath Waite", "Kamog"]}
    deal = position(2, 0, hands, ["Dagon"], rite="tree_on_the_hill", artifacts=[3], fill_pile=False, rites_total=1)
    ended = given(GAME, *deal).played((0, {"type": "plant_tree", "card": E("Hastur")})).when(1, {"type": "draw_card"}).then(
        ev("drew_unable_to_play", seat=1), drew(1, "Dagon"), ev("rite_won", seat=0, reason="fewest_cards"),
        ev("grand_cultist_passed", seat=1), ev("game_ended", scores=[4, 0]))  # the Star-Stone of Mnar is worth 4
    assert isinstance(ended.after.stage, Finished)
    outcome = GAME.decider.outcome(ended.after)
    assert outcome.winners == (0,) and outcome.scores == (4.0, 0.0)


def test_tied_final_scores_share_the_victory():
    state = choosing(players=2, hands={0: [], 1: []})
    state = dataclasses.replace(state, stage=Finished("all_rites_performed"), captured=((1,), (2,)),
                                artifact_deck=tuple(a for a in state.artifact_deck if a not in (1, 2)))
    assert GAME.decider.outcome(state).winners == (0, 1)


# --- power-plays --------------------------------------------------------------------------------------------


def test_power_plays_appear_for_any_seat_holding_the_cards_out_of_turn():
    state, _ = begin(artifact=7)
    assert {"type": "excavate_artifact", "cult": "green"} in offered(GAME, state, 2)
    assert not [c for c in offered(GAME, state, 3) if c["type"] == "become_grand_cultist"]


OUT_OF_TURN = {"become_grand_cultist", "excavate_artifact", "steal_artifact", "invoke_artifact"}
TIMER_SEEDS = range(40)


def test_power_plays_and_artifact_invocations_are_the_out_of_turn_plays():
    assert GAME.decider.out_of_turn == OUT_OF_TURN


def test_a_seat_holding_a_power_play_off_turn_is_not_waited_on_and_finds_it_in_its_own_legal_commands():
    state, _ = begin(artifact=7)  # the Lamp: any cultist may invoke it; seat 2 holds the green 0 and 1
    assert GAME.decider.to_act(state) == {0}
    legal = offered(GAME, state, 2)
    assert {"type": "excavate_artifact", "cult": "green"} in legal
    assert {c["type"] for c in legal} <= GAME.decider.out_of_turn
    assert timeout_choice(GAME, state, 2, random.Random(0)) is None  # no timer acts for a seat nobody waits on


def test_who_the_game_waits_on_does_not_show_who_holds_a_power_play():
    """Two tables that differ only in seat 2's hidden hand (with and without a power-play) wait on the same seats."""
    holding, _ = begin(artifact=2)
    without = dict(HANDS4)
    without[2] = ["Pharaoh Khafra", "Shoggoth", "Hastur", "Deep One", "Yeb"]
    not_holding, _ = begin(artifact=2, hands=without)
    assert [c["type"] for c in offered(GAME, holding, 2)] == ["excavate_artifact"]
    assert offered(GAME, not_holding, 2) == []
    assert GAME.decider.to_act(holding) == GAME.decider.to_act(not_holding) == {0}
    assert GAME.decider.view(holding, None)["to_act"] == GAME.decider.view(not_holding, None)["to_act"] == [0]


def test_the_timer_never_spends_an_out_of_turn_play_for_the_seat_it_plays_for():
    hands = dict(HANDS4)
    hands[0] = ["Nasht", "Zkauba the Wizard", "Klarkash-Ton", "Liber Ivonis", "Swami Chandraputra"]  # blue 0 and 1
    state, _ = begin(artifact=7, hands=hands)
    legal = offered(GAME, state, 0)
    assert {"excavate_artifact", "invoke_artifact", "play_card"} <= {c["type"] for c in legal}
    choices = [timeout_choice(GAME, state, 0, random.Random(seed)) for seed in TIMER_SEEDS]
    assert all(c in legal and c["type"] == "play_card" for c in choices)


def test_a_silent_grand_cultist_chooses_a_rite_at_random():
    state = choosing()
    choices = {timeout_choice(GAME, state, 0, random.Random(seed))["rite"] for seed in TIMER_SEEDS}
    assert len(choices) > 1 and choices <= set(RITES)


def test_a_silent_receiver_of_a_forced_card_gives_back_a_card_at_random():
    state, _ = begin(artifact=11)
    state, _ = play_moves(GAME, state, (0, {"type": "invoke_artifact", "artifact": 11, "card": E("Kamog"), "seat": 2, "target": None}))
    choices = [timeout_choice(GAME, state, 2, random.Random(seed)) for seed in TIMER_SEEDS]
    assert {c["type"] for c in choices} == {"return_card"} and len({c["card"] for c in choices}) > 1


def test_resample_never_hands_back_the_real_state_and_moves_the_hidden_hands():
    """Issue 21: the resample drew worlds until another seat kept its power-plays, and after 200 failures handed back
    the real state (a bot would then see every hidden card). It now builds a world directly: seat 2's excavation
    pair is hidden from seat 0, so seat 2's hand moves like any other."""
    state, _ = begin(artifact=2)
    hidden = [s for s in range(4) if s != 0]
    for seed in range(10):
        world = GAME.ai.resample(state, 0, random.Random(seed))
        assert world is not state and world != state
        assert world.table.hands[0] == state.table.hands[0]
        assert [world.table.hands[s] for s in hidden] != [state.table.hands[s] for s in hidden]
    assert any(not offered(GAME, GAME.ai.resample(state, 0, random.Random(seed)), 2) for seed in range(10))


def test_excavate_a_new_artifact_discards_the_pair_draws_two_and_adds_a_coveted_artifact():
    # the green 0 and 1 set aside, two cards drawn, the Bas-Relief excavated at once (its first turn: the poorest)
    state, _ = begin(artifact=7)
    excavation = given_state(GAME, state).when(2, {"type": "excavate_artifact", "cult": "green"}).then(
        ev("power_play_made", seat=2, power="excavate_artifact", cult="green"),
        ev("hand_cards_set_aside", seat=2, cards=[E("Pnakotic Fragments"), E("Zadok Allen")]),
        drew(2, "Robert Olmstead", "Barnabas Marsh"), excavated(6, seat=2), ev("opener_changed", seat=0))
    assert excavation.after.coveted == (7, 6)


def test_become_the_grand_cultist_fails_the_rite_and_deals_a_new_one():
    hands = dict(HANDS4)
    hands[3] = ["Robert Harrison Blake", "Dagon", "Lobon", "Edward Pickman Derby", "Pnakotic Fragments"]
    hands[2] = ["Pharaoh Khafra", "Nug", "Zadok Allen", "Deep One", "Yeb"]
    state, _ = begin(artifact=7, hands=hands)
    assert {"type": "become_grand_cultist", "cult": "green"} in offered(GAME, state, 3)
    # the power play (two cards of the cult set aside, none drawn), the rite failed, a new deal; the Grand Cultist's
    # seat does not pass: it is seat 3's
    seized = given_state(GAME, state).when(3, {"type": "become_grand_cultist", "cult": "green"}).then(
        ev("power_play_made", seat=3, power="become_grand_cultist", cult="green"),
        ev("hand_cards_set_aside", seat=3, cards=[E("Pnakotic Fragments"), E("Dagon")]),
        ev("rite_failed", reason="grand_cultist_seized", seat=3), *dealt_again(4))
    state = seized.after
    assert state.grand_cultist == 3 and isinstance(state.stage, Choosing)
    assert state.played == ("cthulhu_rises",) and 7 in state.thrown_out and state.captured == ((),) * 4


def test_become_the_grand_cultist_in_the_final_rite_ends_the_game():
    hands = dict(HANDS4)
    hands[3] = ["Robert Harrison Blake", "Dagon", "Lobon", "Edward Pickman Derby", "Pnakotic Fragments"]
    hands[2] = ["Pharaoh Khafra", "Nug", "Zadok Allen", "Deep One", "Yeb"]
    state, _ = begin(artifact=7, hands=hands, rites_total=1)
    # no winner, no points: the Lamp is thrown out, and the game ends
    ended = given_state(GAME, state).when(3, {"type": "become_grand_cultist", "cult": "green"}).then(
        ev("power_play_made", seat=3, power="become_grand_cultist", cult="green"),
        ev("hand_cards_set_aside", seat=3, cards=[E("Pnakotic Fragments"), E("Dagon")]),
        ev("rite_failed", reason="grand_cultist_seized", seat=3), ev("game_ended", scores=[0, 0, 0, 0]))
    assert isinstance(ended.after.stage, Finished) and 7 in ended.after.thrown_out


def test_steal_a_coveted_artifact_takes_it_and_excavates_a_replacement():
    # a green 0, 1 and 13 are needed: with Dagon (13) in seat 3's hand, seat 2's Pnakotic Fragments and Zadok Allen
    # are no steal
    hands = {**HANDS4, 1: ["Walter Gilman", "Lavinia Whateley", "Cthulhu", "George Gammell Angell", "Yeb"],
             2: ["Pharaoh Khafra", "Pnakotic Fragments", "Zadok Allen", "Deep One", "Mother Hydra"],
             3: ["Robert Harrison Blake", "Dagon", "Lobon", "Edward Pickman Derby", "Nug"]}
    state = given_state(GAME, choosing(hands=hands, deck=[7, 8])).played((0, CHOOSE_CTHULHU_RISES)).state
    assert not [c for c in offered(GAME, state, 2) if c["type"] == "steal_artifact"]
    # with Dagon in seat 2's hand: the three set aside, three drawn, the Plutonian Drug stolen, the Lamp excavated
    hands = {**hands, 1: hands[1][:4] + ["Mother Hydra"], 2: hands[2][:4] + ["Dagon"],
             3: ["Robert Harrison Blake", "Yeb", "Lobon", "Edward Pickman Derby", "Nug"]}
    covets_the_drug = given_state(GAME, choosing(hands=hands, deck=[7, 8])).when(0, CHOOSE_CTHULHU_RISES).then(
        *chosen(excavated(8)))
    stolen = covets_the_drug.when(2, {"type": "steal_artifact", "cult": "green", "artifact": 8}).then(
        ev("power_play_made", seat=2, power="steal_artifact", cult="green"),
        ev("hand_cards_set_aside", seat=2, cards=[E("Pnakotic Fragments"), E("Zadok Allen"), E("Dagon")]),
        drew(2, "Robert Olmstead", "Barnabas Marsh", "Gustaf Johansen"), ev("artifact_stolen", seat=2, artifact=8),
        excavated(7, seat=2))
    assert stolen.after.captured[2] == (8,) and stolen.after.coveted == (7,)


def test_excavation_is_refused_when_the_artifact_deck_is_empty():
    state, _ = begin(artifact=7)
    empty = dataclasses.replace(state, artifact_deck=(), thrown_out=state.thrown_out)
    assert not [c for c in offered(GAME, empty, 2) if c["type"] == "excavate_artifact"]
    given_state(GAME, empty).when(2, {"type": "excavate_artifact", "cult": "green"}).refused("rules/artifact_deck_empty")


def test_power_plays_are_not_made_while_the_rite_is_being_chosen():
    state = choosing()
    given_state(GAME, state).when(2, {"type": "excavate_artifact", "cult": "green"}).refused("rules/no_rite_in_progress")


# --- artifacts ---------------------------------------------------------------------------------------------


def test_artifact_data_has_thirteen_project_cards_with_a_symbol_and_a_timing():
    assert len(ARTIFACTS) == 13 and {a["source"] for a in ARTIFACTS} == {"project"}
    assert {a["symbol"] for a in ARTIFACTS} == {"all", "single"} and {a["timing"] for a in ARTIFACTS} == {"before", "during"}


def test_the_shining_trapezohedron_reverses_turn_order():
    given_state(GAME, choosing(deck=[0])).when(0, CHOOSE_CTHULHU_RISES).then(
        *chosen(excavated(0), ev("turn_order_reversed", direction=-1)))
    state, _ = begin(artifact=0)
    led = given_state(GAME, state).when(0, card("Nasht")).then(
        ev("card_played_to_gate", seat=0, card=E("Nasht"), opened=True), drew(0, "Robert Olmstead"))
    assert GAME.decider.to_act(led.after) >= {3}  # the seat on the Grand Cultist's right plays next
    assert offered(GAME, led.after, 3)[0]["type"] == "play_card"


def test_the_glass_from_leng_opens_every_hand():
    state, _ = begin(artifact=1)
    assert GAME.decider.view(state, 1)["table"]["hands"]["2"] == sorted(state.table.hands[2])


def test_the_glass_from_leng_shows_the_opened_hands_in_its_event():
    """A view changes only as the events say: the hands the Glass opens are in the event every seat receives, when it
    is revealed with the rite and when a power-play excavates it mid-rite."""
    # hands_opened has no secret part: every seat and spectator receives the hands
    given_state(GAME, choosing(deck=[1])).when(0, CHOOSE_CTHULHU_RISES).then(
        *chosen(excavated(1), ev("hands_opened", hands=hands_of(HANDS4))))
    state, _ = begin(artifact=7)
    state = dataclasses.replace(state, artifact_deck=(1,), thrown_out=tuple(a for a in range(13) if a not in (1, 7)))
    given_state(GAME, state).when(2, {"type": "excavate_artifact", "cult": "green"}).then(
        ev("power_play_made", seat=2, power="excavate_artifact", cult="green"),
        ev("hand_cards_set_aside", seat=2, cards=[E("Pnakotic Fragments"), E("Zadok Allen")]),
        drew(2, "Robert Olmstead", "Barnabas Marsh"), excavated(1, seat=2),
        ev("hands_opened", hands=hands_of({**HANDS4, 2: ["Robert Olmstead", "Barnabas Marsh", "Pharaoh Khafra",
                                                         "Deep One", "Yeb"]})))


def test_the_mirror_of_nitocris_shows_the_peeked_hand_in_the_invokers_view_only():
    state, _ = begin(artifact=12)
    peeked = sorted(state.table.hands[3])
    after, _ = play_moves(GAME, state, (1, {"type": "invoke_artifact", "artifact": 12, "card": None, "seat": 3, "target": None}))
    assert GAME.decider.view(after, 1)["table"]["peeked"] == [{"seat": 3, "cards": peeked}]
    assert GAME.decider.view(after, 2)["table"]["peeked"] == [] and GAME.decider.view(after, None)["table"]["peeked"] == []


def test_a_seats_view_shows_it_the_cards_it_set_aside_face_down_and_nobody_else():
    """Issue 27, item 7: the Lamp of Alhazred's card is set aside face down, "only that seat sees which": its own
    event shows it, so its view does too (and the Plutonian Drug's whole hand); other views show only a count."""
    state, _ = begin(artifact=7)
    after, _ = play_moves(GAME, state, (0, {"type": "invoke_artifact", "artifact": 7, "card": E("Kamog"), "seat": None,
                                "target": None}))
    assert GAME.decider.view(after, 0)["table"]["set_aside_face_down_seen"] == [E("Kamog")]
    assert GAME.decider.view(after, 1)["table"]["set_aside_face_down_seen"] == []
    assert GAME.decider.view(after, None)["table"]["set_aside_face_down_seen"] == []
    assert GAME.decider.view(after, 1)["table"]["set_aside_face_down"] == 1
    state, _ = begin(artifact=8)
    hand = sorted(state.table.hands[2])
    after, _ = play_moves(GAME, state, (2, {"type": "invoke_artifact", "artifact": 8, "card": None, "seat": None, "target": None}))
    assert GAME.decider.view(after, 2)["table"]["set_aside_face_down_seen"] == hand
    assert GAME.decider.view(after, 3)["table"]["set_aside_face_down_seen"] == []


def test_after_a_forced_trade_each_of_the_two_sees_where_the_card_it_gave_went():
    """Issue 27, item 7: once a forced card is answered, the giver knows her card is in the receiver's hand and the
    receiver knows hers is in the giver's (their own events say so): their views show it; nobody else's does."""
    state, _ = begin(artifact=SCROLL)
    state, _ = play_moves(GAME, state, (0, scroll("Kamog", 2)), (2, {"type": "return_card", "card": E("Yeb")}))
    assert GAME.decider.view(state, 0)["table"]["traded"] == [{"card": E("Kamog"), "seat": 2}]
    assert GAME.decider.view(state, 2)["table"]["traded"] == [{"card": E("Yeb"), "seat": 0}]
    assert GAME.decider.view(state, 1)["table"]["traded"] == [] and GAME.decider.view(state, None)["table"]["traded"] == []


def test_a_single_cultist_artifact_is_used_once_in_the_rite_it_is_revealed_in_by_whoever_invokes_it_first():
    """Ruling (issue 27, item 6): "The single cultist symbol means all cultists may invoke the artifact's power during
    the rite in which it is first invoked" (the rest is lost): any cultist may be the one who uses it, once in all;
    then nobody may until its owner's second invocation in a later rite."""
    state, _ = begin(artifact=12)  # The Mirror of Nitocris
    mirror = {"type": "invoke_artifact", "artifact": 12, "card": None, "seat": 0, "target": None}
    for seat in range(4):
        assert any(c["type"] == "invoke_artifact" and c["artifact"] == 12 for c in offered(GAME, state, seat))
    after, _ = play_moves(GAME, state, (2, mirror))
    for seat in range(4):
        assert not [c for c in offered(GAME, after, seat) if c["type"] == "invoke_artifact"]
    given_state(GAME, after).when(1, mirror).refused("rules/artifact_not_invocable")
    given_state(GAME, after).when(2, {**mirror, "seat": 3}).refused("rules/artifact_not_invocable")


def test_the_black_stone_makes_the_lowest_card_win():
    state, _ = begin(artifact=2)
    gate = [(0, card("Nasht")), (1, card("Walter Gilman")), (2, card("Pharaoh Khafra"))]
    given_state(GAME, state).played(*gate).when(3, card("Robert Harrison Blake")).then(
        ev("card_played_to_gate", seat=3, card=E("Robert Harrison Blake"), opened=False),
        ev("cards_drawn", seat=3, cards=[E("Francis Wayland Thurston")], secret={"cards": [3]}),
        ev("gate_closed", seat=3, cards=[E(c) for c in ("Nasht", "Walter Gilman", "Pharaoh Khafra", "Robert Harrison Blake")],
           cthulhu=None, overthrow=False))  # Blake, the lowest card, closes the gate


def test_the_star_stone_of_mnar_forbids_power_plays():
    state, _ = begin(artifact=3)
    assert not [c for c in offered(GAME, state, 2) if c["type"] == "excavate_artifact"]
    given_state(GAME, state).when(2, {"type": "excavate_artifact", "cult": "green"}).refused("rules/power_plays_forbidden")


def test_the_tiara_excavates_another_coveted_artifact():
    # the artifact is drawn at random: with this entropy the Tiara comes first, and its power excavates the Jade Amulet
    tiara_first = (1).to_bytes(32, "big")
    tiara = given_state(GAME, choosing(deck=[4, 9])).when(0, CHOOSE_CTHULHU_RISES, entropy=tiara_first).then(
        *chosen(excavated(4), excavated(9)))
    assert tiara.after.coveted == (4, 9)
    # with the other draw the Jade Amulet comes out alone: it excavates nothing
    given_state(GAME, choosing(deck=[4, 9])).when(0, CHOOSE_CTHULHU_RISES).then(*chosen(excavated(9)))


def test_the_silver_key_gives_the_first_turn_to_the_grand_cultists_left():
    keyed = given_state(GAME, choosing(deck=[5])).when(0, CHOOSE_CTHULHU_RISES).then(
        *chosen(excavated(5), ev("opener_changed", seat=1)))
    assert offered(GAME, keyed.after, 1)[0]["type"] == "play_card"
    keyed.when(0, card("Nasht")).refused("rules/not_your_turn")


def test_the_bas_relief_gives_the_first_turn_to_the_poorest_cultist():
    state = choosing(deck=[6])
    state = dataclasses.replace(state, captured=((3,), (8,), (), (10,)),
                                thrown_out=tuple(a for a in state.thrown_out if a not in (3, 8, 10)))
    # seat 2 has no artifact: the first turn is hers
    given_state(GAME, state).when(0, CHOOSE_CTHULHU_RISES).then(*chosen(excavated(6), ev("opener_changed", seat=2)))


def test_the_lamp_of_alhazred_redraws_one_card_once_per_rite():
    state, _ = begin(artifact=7)
    cmd = {"type": "invoke_artifact", "artifact": 7, "card": E("Kamog"), "seat": None, "target": None}
    assert cmd in offered(GAME, state, 0)
    lamp = given_state(GAME, state).when(0, cmd).then(
        invoked(0, 7), ev("hand_cards_set_aside_face_down", seat=0, cards=[E("Kamog")], secret={"cards": [0]}),
        drew(0, "Robert Olmstead"))
    again = {"type": "invoke_artifact", "artifact": 7, "card": E("Yeb"), "seat": None, "target": None}
    lamp.when(2, again).refused("rules/artifact_not_invocable")


def test_the_plutonian_drug_replaces_the_whole_hand():
    state, _ = begin(artifact=8)
    given_state(GAME, state).when(2, {"type": "invoke_artifact", "artifact": 8, "card": None, "seat": None,
                                      "target": None}).then(
        invoked(2, 8),
        ev("hand_cards_set_aside_face_down", seat=2, cards=[E(n) for n in HANDS4[2]], secret={"cards": [2]}),  # the whole hand
        drew(2, "Robert Olmstead", "Barnabas Marsh", "Gustaf Johansen", "Francis Wayland Thurston", "Bukrog"))


def test_the_jade_amulet_takes_an_artifact_from_another_cache():
    state = choosing(deck=[9])
    state = dataclasses.replace(state, captured=((), (3,), (), ()), thrown_out=tuple(a for a in state.thrown_out if a != 3))
    # seat 2 takes the Star-Stone of Mnar from seat 1's cache
    took = given_state(GAME, state).played((0, CHOOSE_CTHULHU_RISES)).when(
        2, {"type": "invoke_artifact", "artifact": 9, "card": None, "seat": 1, "target": 3}).then(
        invoked(2, 9), ev("artifact_taken", artifact=3, from_seat=1, seat=2))
    assert took.after.captured[2] == (3,) and took.after.captured[1] == ()


def test_the_crystallizer_replaces_another_coveted_artifact():
    state = choosing(deck=[10, 8, 1])
    state, _ = play_moves(GAME, state, (0, {"type": "choose_rite", "rite": "cthulhu_rises"}))
    state = dataclasses.replace(state, coveted=(10, 8), artifact_deck=(1,), revealed=(10, 8),
                                thrown_out=tuple(a for a in range(13) if a not in (10, 8, 1)))
    # the Plutonian Drug thrown out; the Glass from Leng excavated in its place, and its power acts at once
    replaced = given_state(GAME, state).when(
        3, {"type": "invoke_artifact", "artifact": 10, "card": None, "seat": None, "target": 8}).then(
        invoked(3, 10), ev("artifact_thrown_out", artifact=8), excavated(1, seat=3),
        ev("hands_opened", hands=hands_of(HANDS4)))
    assert set(replaced.after.coveted) == {10, 1}


def test_the_scroll_of_tyog_forces_a_trade_the_receiver_answers_unseen():
    state, _ = begin(artifact=11)
    # Kamog goes face down to seat 2: only seat 0 knows it
    forced = given_state(GAME, state).when(0, scroll("Kamog", 2)).then(
        invoked(0, SCROLL), ev("card_forced", giver=0, receiver=2, card=E("Kamog"), secret={"card": [0]}))
    assert 2 in GAME.decider.to_act(forced.after)
    assert [c["type"] for c in offered(GAME, forced.after, 2)].count("return_card") == 5
    forced.when(0, card("Nasht")).refused("rules/not_your_turn")
    forced.when(2, card("Nasht")).refused("rules/trade_pending")
    # unseen, seat 2 answers with Yeb; then each of the two knows both cards
    forced.when(2, {"type": "return_card", "card": E("Yeb")}).then(
        ev("card_returned", giver=0, receiver=2, card=E("Yeb"), received=E("Kamog"),
           secret={"card": [0, 2], "received": [0, 2]}))


SCROLL = 11


def scroll(card, seat):
    return {"type": "invoke_artifact", "artifact": SCROLL, "card": E(card), "seat": seat, "target": None}


@pytest.mark.parametrize("rite", ["tree_on_the_hill", "mountains_of_madness"])
def test_forcing_your_last_card_with_the_scroll_of_tyog_does_not_win_before_the_trade_is_answered(rite):
    """Rulebook: the receiver "trades it for any card from her hand": the trade is one action, so the end of the
    rite is checked once it is answered, and the forcing cultist holds the returned card."""
    hands = {0: ["Kamog"], 1: ["Hastur", "Yeb", "Nug"]}
    deal = position(2, 1, hands, ["Dagon", "Lobon"], rite=rite, artifacts=[SCROLL], fill_pile=False)
    forced = given(GAME, *deal).when(0, scroll("Kamog", 1)).then(  # no rite_won
        invoked(0, SCROLL), ev("card_forced", giver=0, receiver=1, card=E("Kamog"), secret={"card": [0]}))
    assert GAME.decider.to_act(forced.after) == {1} and GAME.decider.outcome(forced.after) is None
    answered = forced.when(1, {"type": "return_card", "card": E("Yeb")}).then(  # no rite_won either
        ev("card_returned", giver=0, receiver=1, card=E("Yeb"), received=E("Kamog"),
           secret={"card": [0, 1], "received": [0, 1]}))
    assert answered.after.table.hands[0] == (E("Yeb"),)


def test_a_gate_does_not_close_while_a_card_forced_with_the_scroll_of_tyog_is_unanswered():
    """Cthulhu Rises: a cultist who forces her only card while the gate waits on her gets a card back and plays it."""
    hands = {0: ["Nasht", "Kamog"], 1: ["Walter Gilman"]}
    deal = position(2, 0, hands, (), rite="cthulhu_rises", artifacts=[SCROLL], fill_pile=False)
    forced = given(GAME, *deal).played((0, card("Nasht"))).when(1, scroll("Walter Gilman", 0)).then(  # no gate_closed
        invoked(1, SCROLL), ev("card_forced", giver=1, receiver=0, card=E("Walter Gilman"), secret={"card": [1]}))
    assert GAME.decider.to_act(forced.after) == {0}
    answered = forced.when(0, {"type": "return_card", "card": E("Kamog")}).then(  # still no gate_closed
        ev("card_returned", giver=1, receiver=0, card=E("Kamog"), received=E("Walter Gilman"),
           secret={"card": [1, 0], "received": [1, 0]}))
    assert offered(GAME, answered.after, 1) == [card("Kamog")]
    answered.when(1, card("Kamog")).then(
        ev("card_played_to_gate", seat=1, card=E("Kamog"), opened=False),
        ev("gate_closed", seat=0, cards=[E("Nasht"), E("Kamog")], cthulhu=None, overthrow=False))


def test_cthulhu_stays_in_hand_through_the_first_gate_whatever_artifact_is_invoked():
    """Cthulhu Rises: "During the first gate, if a cultist has Cthulhu in her hand, she must keep him until the first
    gate closes": the Lamp may not set him aside, the Plutonian Drug may not set aside a hand holding him, the
    Scroll may not force him; after the first gate all three may."""
    natalie = 1  # holds Cthulhu
    lamp = {"type": "invoke_artifact", "artifact": 7, "card": CTHULHU, "seat": None, "target": None}
    drug = {"type": "invoke_artifact", "artifact": 8, "card": None, "seat": None, "target": None}
    for artifact, command in ((7, lamp), (8, drug), (SCROLL, scroll("Cthulhu", 2))):
        state, _ = begin(artifact=artifact)
        legal = offered(GAME, state, natalie)
        assert command not in legal and any(c["type"] == "invoke_artifact" for c in legal) == (artifact != 8)
        given_state(GAME, state).when(natalie, command).refused("rules/invalid_artifact_target")
        after, _ = play_moves(GAME, state, (0, card("Nasht")), (1, card("Walter Gilman")), (2, card("Pharaoh Khafra")),
                        (3, card("Robert Harrison Blake")), (0, {"type": "decline_trade"}))
        assert after.stage.rite.gate_number == 2 and command in offered(GAME, after, natalie)


def test_a_cultist_answering_a_forced_card_keeps_cthulhu_through_the_first_gate():
    state, _ = begin(artifact=SCROLL)
    state, _ = play_moves(GAME, state, (0, scroll("Kamog", 1)))
    assert {"type": "return_card", "card": CTHULHU} not in offered(GAME, state, 1)
    given_state(GAME, state).when(1, {"type": "return_card", "card": CTHULHU}).refused("rules/card_must_stay_in_hand")


def test_the_mirror_of_nitocris_shows_one_hand_to_the_invoker_only():
    state, _ = begin(artifact=12)
    given_state(GAME, state).when(1, {"type": "invoke_artifact", "artifact": 12, "card": None, "seat": 3,
                                      "target": None}).then(
        invoked(1, 12),
        ev("cards_known", seat=1, of_seat=3, cards=[E(n) for n in ("Lobon", "Dagon", "Robert Harrison Blake",
                                                                   "Edward Pickman Derby", "Nug")], secret={"cards": [1]}))


def test_the_owner_invokes_a_captured_artifact_a_second_time_in_a_later_rite_only_once():
    state = choosing(deck=[9])
    state = dataclasses.replace(state, captured=((7,), (), (), ()), thrown_out=tuple(a for a in state.thrown_out if a != 7))
    state, _ = play_moves(GAME, state, (0, CHOOSE_CTHULHU_RISES))
    cmd = {"type": "invoke_artifact", "artifact": 7, "card": E("Kamog"), "seat": None, "target": None}
    assert cmd in offered(GAME, state, 0)
    assert not [c for c in offered(GAME, state, 1) if c.get("artifact") == 7]
    second = given_state(GAME, state).when(0, cmd).then(
        invoked(0, 7, second=True), ev("hand_cards_set_aside_face_down", seat=0, cards=[E("Kamog")], secret={"cards": [0]}),
        drew(0, "Robert Olmstead"))
    assert 7 in second.after.captured[0]  # it still counts for its owner's score
    assert not [c for c in offered(GAME, second.after, 0) if c.get("artifact") == 7]


def test_a_before_artifact_is_invoked_again_only_before_the_rites_first_move():
    state = choosing(deck=[9])
    state = dataclasses.replace(state, captured=((), (0,), (), ()), thrown_out=tuple(a for a in state.thrown_out if a != 0))
    state, _ = play_moves(GAME, state, (0, CHOOSE_CTHULHU_RISES))
    cmd = {"type": "invoke_artifact", "artifact": 0, "card": None, "seat": None, "target": None}
    assert cmd in offered(GAME, state, 1)
    moved, _ = play_moves(GAME, state, (0, card("Nasht")))
    assert cmd not in offered(GAME, moved, 1)
    given_state(GAME, state).when(1, cmd).then(invoked(1, 0, second=True), ev("turn_order_reversed", direction=-1))


def test_every_ruling_names_tests_that_exist():
    """docs/rulings/rites-of-cthulhu.md names the test that pins each ruling: each must exist."""
    import pathlib
    import re

    root = pathlib.Path(__file__).resolve().parents[2]
    named = set(re.findall(r"`(test_[a-z0-9_]+)`", (root / "docs/rulings/rites-of-cthulhu.md").read_text()))
    sources = [*root.glob("tests/scenario/test_rites_*.py"), *root.glob("tests/property/test_rites_*.py"),
               root / "tests/trust/test_rites_non_interference.py"]
    defined = {name for path in sources for name in re.findall(r"def (test_[a-z0-9_]+)", path.read_text())}
    assert named and named <= defined, sorted(named - defined)


def test_a_resigned_winners_victory_goes_to_the_most_elder_sign_points_among_the_seats_still_standing():
    """Resignation (docs/rulings/rites-of-cthulhu.md): seat 0 resigns before the first move and the table's AI plays
    it through every rite (seed 1004), ending on 8, 1 and 4 Elder Sign points. Seat 0 has the most but resigned: the
    most among the seats still standing wins (Winning the Game), seat 2 with 4."""
    seating, table = resigned_and_played_out(GAME, 3, [0], seed=1004)
    final = GAME.decider.outcome(table.game)
    assert final.scores == (8, 1, 4) and final.winners == (0,)
    assert seating.outcome(table).winners == (2,)
