"""Cthulhu Rises (rulebook pages 14-23): gates, trump, summoning, capture, forced trades, overthrow, the win."""

from __future__ import annotations

import random
from collections import Counter

from shared.games.rites_of_cthulhu import GAME
from shared.games.rites_of_cthulhu.cards import CTHULHU, entity
from shared.games.rites_of_cthulhu.state import Choosing, Claiming, Performing
from shared.kernel import ev
from tests.support.rites_positions import position
from tests.support.scenario import ENTROPY, decide, given, given_state, offered, play_moves, timeout_choice

E = entity
CHUCK, NATALIE, MARK, LINDI = range(4)


def card(name):
    return {"type": "play_card", "card": E(name)}


def rite(state):
    return state.stage.rite


EXAMPLE_HANDS = {
    CHUCK: ["Nasht", "Zkauba the Wizard", "Klarkash-Ton", "Henry Anthony Wilcox", "Dagon"],
    NATALIE: ["Walter Gilman", "Lavinia Whateley", "Cthulhu", "George Gammell Angell", "Mother Hydra"],
    MARK: ["Pharaoh Khafra", "Pnakotic Fragments", "Francis Wayland Thurston", "Deep One", "Yeb"],
    LINDI: ["Robert Harrison Blake", "Zadok Allen", "Lobon", "Edward Pickman Derby", "Nug"],
}
EXAMPLE_PILE = ["Kamog", "Shoggoth", "Keziah Mason", "Ephraim Waite", "Nightgaunt", "Kaman-Thah", "Hastur",
                "Wilbur Whateley", "T'yog, High Priest of Shub-Niggurath", "Nephren-Ka", "Pharaoh Nitocris",
                "Abdul Reis el Drogman", "Old Whateley"]


def example(hands=EXAMPLE_HANDS, artifacts=()):
    return given(GAME, *position(4, CHUCK, hands, EXAMPLE_PILE, rite="cthulhu_rises", artifacts=artifacts)).state


def gates_one_and_two(state):
    return play_moves(
        GAME, state,
        (CHUCK, card("Nasht")), (NATALIE, card("Walter Gilman")), (MARK, card("Pharaoh Khafra")),
        (LINDI, card("Robert Harrison Blake")),
        (CHUCK, {"type": "decline_trade"}),
        (CHUCK, card("Zkauba the Wizard")), (NATALIE, card("Lavinia Whateley")),
        (MARK, card("Pnakotic Fragments")), (LINDI, card("Zadok Allen")),
        (LINDI, {"type": "force_card", "card": E("Wilbur Whateley"), "seat": CHUCK}),
        (CHUCK, {"type": "return_card", "card": E("Klarkash-Ton")}),
    )


def test_play_example_gates_one_and_two_as_printed():
    state = example()
    # Lindi plays the fourth card of the first gate and draws back; Nasht, the highest card of the dominant cult
    # (yellow), closes it for Chuck.
    fourth = given(GAME, *position(4, CHUCK, EXAMPLE_HANDS, EXAMPLE_PILE, rite="cthulhu_rises")).played(
        (CHUCK, card("Nasht")), (NATALIE, card("Walter Gilman")), (MARK, card("Pharaoh Khafra"))
    ).when(LINDI, card("Robert Harrison Blake"))
    fourth.then(ev("card_played_to_gate", seat=LINDI, card=E("Robert Harrison Blake"), opened=False),
                ev("cards_drawn", seat=LINDI, cards=[E("Ephraim Waite")], secret={"cards": [LINDI]}),
                ev("gate_closed", seat=CHUCK, cards=[E(c) for c in ("Nasht", "Walter Gilman", "Pharaoh Khafra",
                                                                    "Robert Harrison Blake")],
                   cthulhu=None, overthrow=False))
    assert rite(fourth.after).eligible == {CHUCK}
    state, events = gates_one_and_two(state)
    closed = [e for e in events if e.type == "gate_closed"]
    assert closed[1].data["seat"] == LINDI  # Zadok Allen, the highest card of the Grand Cult
    # Mark's green card was a spell cast by a cultist not eligible: nothing happened, Natalie keeps Cthulhu.
    assert not [e for e in events if e.type.startswith("cthulhu") or e.type == "summoning_failed"]
    assert CTHULHU in state.table.hands[NATALIE]
    assert E("Wilbur Whateley") in state.table.hands[CHUCK] and E("Klarkash-Ton") in state.table.hands[LINDI]
    assert rite(state).eligible == {CHUCK}
    assert rite(state).taken[LINDI] and len(rite(state).taken[CHUCK]) == 4


def test_play_example_gate_three_goes_to_lobon_not_wilcox_as_the_example_says():
    state, _ = gates_one_and_two(example())
    # Lindi leads Lobon, a green card, opening the gate: Natalie, eligible, summons Cthulhu from her hand.
    lead = given_state(GAME, state).when(LINDI, card("Lobon"))
    lead.then(ev("card_played_to_gate", seat=LINDI, card=E("Lobon"), opened=True),
              ev("cards_drawn", seat=LINDI, cards=[E("T'yog, High Priest of Shub-Niggurath")], secret={"cards": [LINDI]}),
              ev("cthulhu_summoned", seat=NATALIE, source="hand"))
    after_lead = lead.after
    assert rite(after_lead).center and CTHULHU not in after_lead.table.hands[NATALIE]
    assert len(after_lead.table.hands[NATALIE]) == 4  # she refills after her next play (ruling)
    # Erratum: the example gives this gate to Chuck's Wilcox (7); Lindi's Lobon (8) is the highest green card, and
    # she captures Cthulhu with it.
    last = given_state(GAME, after_lead).played((CHUCK, card("Henry Anthony Wilcox")), (NATALIE, card("George Gammell Angell")))
    closed = last.when(MARK, card("Francis Wayland Thurston"))
    closed.then(ev("card_played_to_gate", seat=MARK, card=E("Francis Wayland Thurston"), opened=False),
                ev("cards_drawn", seat=MARK, cards=[E("Old Whateley")], secret={"cards": [MARK]}),
                ev("gate_closed", seat=LINDI, cards=[E(c) for c in ("Lobon", "Henry Anthony Wilcox", "George Gammell Angell",
                                                                    "Francis Wayland Thurston")],
                   cthulhu="captured", overthrow=False))
    state = closed.after
    assert len(state.table.hands[NATALIE]) == 5
    assert rite(state).captor == LINDI


def test_play_example_gate_four_overthrow_is_chucks_not_marks():
    # The example's own position before gate 4 (Chuck captured Cthulhu in gate 3): Chuck plays a card that
    # really is the highest there (Bukrog instead of Wilcox), then the printed gate 4 follows.
    hands = dict(EXAMPLE_HANDS)
    hands[CHUCK] = ["Nasht", "Zkauba the Wizard", "Klarkash-Ton", "Bukrog", "Dagon"]
    state, _ = gates_one_and_two(example(hands, artifacts=[7]))
    state, _ = play_moves(GAME, state, (LINDI, card("Lobon")), (CHUCK, card("Bukrog")), (NATALIE, card("George Gammell Angell")),
                    (MARK, card("Francis Wayland Thurston")))
    assert rite(state).captor == CHUCK
    state, _ = play_moves(GAME, state, (CHUCK, {"type": "decline_trade"}))
    state, events = play_moves(GAME, state, (CHUCK, card("Dagon")))
    assert [e.data for e in events if e.type == "cthulhu_summoned"] == [{"seat": CHUCK, "source": "captured"}]
    state, events = play_moves(GAME, state, (NATALIE, card("Mother Hydra")), (MARK, card("Deep One")),
                         (LINDI, card("Edward Pickman Derby")))
    closed = [e for e in events if e.type == "gate_closed"][0]
    assert closed.data["seat"] == CHUCK and closed.data["overthrow"]
    assert state.stage == Claiming(CHUCK, "cthulhu_rises")  # erratum: the example names Mark


def test_the_overthrow_winner_may_trade_a_coveted_artifact_for_any_artifact_of_the_deck():
    hands = dict(EXAMPLE_HANDS)
    hands[CHUCK] = ["Nasht", "Zkauba the Wizard", "Klarkash-Ton", "Bukrog", "Dagon"]
    state, _ = gates_one_and_two(example(hands, artifacts=[7]))
    state, _ = play_moves(GAME, state, (LINDI, card("Lobon")), (CHUCK, card("Bukrog")), (NATALIE, card("George Gammell Angell")),
                    (MARK, card("Francis Wayland Thurston")), (CHUCK, {"type": "decline_trade"}),
                    (CHUCK, card("Dagon")), (NATALIE, card("Mother Hydra")), (MARK, card("Deep One")),
                    (LINDI, card("Edward Pickman Derby")))
    legal = offered(GAME, state, CHUCK)
    assert {"type": "take_artifacts"} in legal and {"type": "trade_artifact", "give": 7, "take": 3} in legal
    given_state(GAME, state).when(CHUCK, {"type": "trade_artifact", "give": 7, "take": 7}).refused(
        "rules/invalid_artifact_trade")
    after = given_state(GAME, state).when(CHUCK, {"type": "trade_artifact", "give": 7, "take": 3}).after
    assert after.captured[CHUCK] == (3,) and 7 in after.artifact_deck
    assert after.grand_cultist == NATALIE and isinstance(after.stage, Choosing)


def test_a_cultist_must_follow_the_dominant_cult():
    state, _ = play_moves(GAME, example(), (CHUCK, card("Nasht")))
    given_state(GAME, state).when(NATALIE, card("Lavinia Whateley")).refused("rules/must_follow_dominant_cult")


def test_rule_example_1_shoggoth_is_the_highest_card_of_the_lead_color():
    hands = {0: ["Kamog", "Nasht", "Hastur", "Yeb", "Bukrog"],
             1: ["Yog-Sothoth", "Dhole", "Nightgaunt", "Umr At-Tawil", "Kaman-Thah"],
             2: ["Randolph Carter", "Lavinia Whateley", "Old Whateley", "Walter Gilman", "Pharaoh Khafra"],
             3: ["Shoggoth", "Nephren-Ka", "Enoch Bowen", "Abdul Reis el Drogman", "Pharaoh Nitocris"]}
    state = given(GAME, *position(4, 0, hands, rite="cthulhu_rises")).state
    state, events = play_moves(GAME, state, (0, card("Kamog")), (1, card("Yog-Sothoth")), (2, card("Randolph Carter")),
                         (3, card("Shoggoth")))
    assert [e.data["seat"] for e in events if e.type == "gate_closed"] == [3]


def test_rule_example_2_any_grand_cult_card_trumps_the_dominant_cult():
    hands = {0: ["Yog-Sothoth", "Nasht", "Kamog", "Yeb", "Hastur"],
             1: ["Randolph Carter", "Nug", "Keziah Mason", "Nightgaunt", "Kaman-Thah"],
             2: ["Asenath Waite", "Walter Gilman", "Shoggoth", "Nephren-Ka", "Pharaoh Khafra"],
             3: ["Robert Olmstead", "Deep One", "Ephraim Waite", "Brown Jenkin", "Enoch Bowen"]}
    state = given(GAME, *position(4, 0, hands, rite="cthulhu_rises")).state
    state, events = play_moves(GAME, state, (0, card("Yog-Sothoth")), (1, card("Randolph Carter")), (2, card("Asenath Waite")),
                         (3, card("Robert Olmstead")))
    assert [e.data["seat"] for e in events if e.type == "gate_closed"] == [3]


def test_the_grand_cultist_may_not_open_the_first_gate_with_the_grand_cult():
    given_state(GAME, example()).when(CHUCK, card("Dagon")).refused("rules/no_green_lead_in_first_gate")


def test_cthulhu_stays_in_hand_during_the_first_gate():
    hands = dict(EXAMPLE_HANDS)
    hands[CHUCK] = ["Nasht", "Zkauba the Wizard", "Klarkash-Ton", "Henry Anthony Wilcox", "Dagon"]
    hands[NATALIE] = ["Lavinia Whateley", "Cthulhu", "George Gammell Angell", "Mother Hydra", "Umr At-Tawil"]
    state, _ = play_moves(GAME, example(hands), (CHUCK, card("Nasht")))
    given_state(GAME, state).when(NATALIE, card("Cthulhu")).refused("rules/no_summoning_in_first_gate")
    assert card("Cthulhu") not in offered(GAME, state, NATALIE)


def test_a_summoning_spell_with_cthulhu_still_in_the_pile_fails():
    # The example's deal with Natalie's Cthulhu left in the pile: Chuck's green spell in gate 2 fails.
    hands = {CHUCK: ["Nasht", "Zkauba the Wizard", "Klarkash-Ton", "Henry Anthony Wilcox", "Dagon"],
             NATALIE: ["Walter Gilman", "Lavinia Whateley", "Umr At-Tawil", "George Gammell Angell", "Mother Hydra"],
             MARK: EXAMPLE_HANDS[MARK], LINDI: EXAMPLE_HANDS[LINDI]}
    state = example(hands)
    state, _ = play_moves(GAME, state, (CHUCK, card("Nasht")), (NATALIE, card("Walter Gilman")), (MARK, card("Pharaoh Khafra")),
                    (LINDI, card("Robert Harrison Blake")), (CHUCK, {"type": "decline_trade"}))
    state, events = play_moves(GAME, state, (CHUCK, card("Henry Anthony Wilcox")))
    assert [e.type for e in events if e.type in ("summoning_failed", "cthulhu_summoned")] == ["summoning_failed"]


def test_a_winner_not_eligible_to_summon_leaves_cthulhu_at_the_center():
    hands = {0: ["Nasht", "Kamog", "Yeb", "Hastur", "Nug"], 1: ["Cthulhu", "Lobon", "Dhole", "Keziah Mason", "Walter Gilman"],
             2: ["Kaman-Thah", "Deep One", "Nightgaunt", "Shoggoth", "Ephraim Waite"]}
    state = given(GAME, *position(3, 0, hands, rite="cthulhu_rises", begin=[])).state
    state, _ = play_moves(GAME, state, (0, card("Nasht")), (1, card("Walter Gilman")), (2, card("Nightgaunt")),
                    (0, {"type": "decline_trade"}))
    # Gate 2: seat 0 leads gray; seat 1 has gray, so she follows; seat 2 plays gray too; all off-trump.
    state, _ = play_moves(GAME, state, (0, card("Kamog")), (1, card("Keziah Mason")), (2, card("Shoggoth")))
    state, _ = play_moves(GAME, state, (2, {"type": "decline_trade"}))
    # Gate 3: seat 2 leads yellow; seat 0 has none and plays gray; seat 1 has no yellow and plays Cthulhu.
    state, events = play_moves(GAME, state, (2, card("Kaman-Thah")), (0, card("Yeb")), (1, card("Cthulhu")))
    closed = [e for e in events if e.type == "gate_closed"][0]
    assert closed.data["seat"] == 1 and closed.data["cthulhu"] == "center"
    assert rite(state).center and CTHULHU not in rite(state).taken[1]


def test_capture_and_close_in_the_same_gate_is_not_an_overthrow():
    state, _ = gates_one_and_two(example())
    state, events = play_moves(GAME, state, (LINDI, card("Lobon")), (CHUCK, card("Henry Anthony Wilcox")),
                         (NATALIE, card("George Gammell Angell")), (MARK, card("Francis Wayland Thurston")))
    closed = [e for e in events if e.type == "gate_closed"][0]
    assert closed.data["cthulhu"] == "captured" and not closed.data["overthrow"]
    assert isinstance(state.stage, Performing)


def test_the_deal_sets_aside_cards_so_the_deck_divides_evenly():
    for players, aside in ((3, 2), (5, 1), (6, 2), (4, 0), (2, 0)):
        state = given(GAME, *position(players, 0, {}, rite=None)).state
        state = decide(GAME, state, {"type": "choose_rite", "rite": "cthulhu_rises"}, 0, ENTROPY).state
        assert len(state.table.face_down) == aside
        assert (56 - aside) % players == 0


def test_holding_cthulhu_when_the_last_gate_closes_wins_the_rite():
    hands = {0: ["Nasht"], 1: ["Walter Gilman"]}
    events = position(2, 0, hands, [], rite="cthulhu_rises", artifacts=[7], fill_pile=False)
    state = given(GAME, *events).state
    state = type(state)(**{**{f: getattr(state, f) for f in state.__dataclass_fields__},
                           "stage": Performing("cthulhu_rises", rite(state).__class__(
                               taken=((), ()), captor=1, captured_at=2, gate_number=3, leader=0, eligible=frozenset({0, 1})), True)})
    # fill_pile=False: the set-aside pile holds the rest of the deck
    after, events = play_moves(GAME, state, (0, card("Nasht")), (1, card("Walter Gilman")))
    won = [e for e in events if e.type == "rite_won"]
    assert won and won[0].data == {"seat": 1, "reason": "holds_cthulhu"} and after.captured[1] == (7,)


def test_a_silent_closer_forces_no_card_and_a_silent_cultist_plays_a_legal_card_at_random():
    """Rulings: forcing a card is the closer's option ("may force"): the timer declines it; a card must be played,
    so the timer plays one of the legal ones at random."""
    state = example()
    plays = {str(timeout_choice(GAME, state, CHUCK, random.Random(seed))) for seed in range(30)}
    assert len(plays) > 1 and all("play_card" in p for p in plays)
    state, _ = play_moves(GAME, state, (CHUCK, card("Nasht")), (NATALIE, card("Walter Gilman")), (MARK, card("Pharaoh Khafra")),
                    (LINDI, card("Robert Harrison Blake")))
    assert rite(state).forcing == CHUCK and len(offered(GAME, state, CHUCK)) > 1
    assert [timeout_choice(GAME, state, CHUCK, random.Random(seed)) for seed in range(20)] == [{"type": "decline_trade"}] * 20


def test_cthulhu_as_the_only_green_card_does_not_oblige_a_cultist_to_follow_green_in_the_first_gate():
    """Issue 27, freeze 1: "follow the dominant cult if you can, else play any card"; Cthulhu stays in hand
    through gate 1, so a cultist whose only green card is Cthulhu cannot follow a green lead and plays any
    other card. The rite used to offer those cards and then refuse each of them: the game waited for ever."""
    hands = {CHUCK: ["Dagon", "Mother Hydra", "Bukrog", "Deep One", "Lobon"],  # nothing but green: may lead it
             NATALIE: ["Cthulhu", "Nasht", "Kamog", "Shoggoth", "Yeb"],  # Cthulhu is her only green card
             MARK: ["Pharaoh Khafra", "Pnakotic Fragments", "Walter Gilman", "Dhole", "Hastur"],
             LINDI: ["Robert Harrison Blake", "Zadok Allen", "Nug", "Edward Pickman Derby", "Nightgaunt"]}
    state = given(GAME, *position(4, CHUCK, hands, rite="cthulhu_rises")).state
    state, _ = play_moves(GAME, state, (CHUCK, card("Dagon")))
    legal = offered(GAME, state, NATALIE)
    assert legal and card("Cthulhu") not in legal
    for command in legal:
        decide(GAME, state, command, NATALIE, ENTROPY)
    after, _ = play_moves(GAME, state, (NATALIE, card("Nasht")))
    assert (NATALIE, E("Nasht")) in rite(after).gate


def where_cthulhu_lies(state, seat, worlds, seed):
    """Over ``worlds`` worlds ``seat`` cannot tell from ``state`` (one fixed random stream): how often Cthulhu lies
    in each other hand (by seat), the pile ("pile") and the cards set aside unseen ("aside")."""
    rand, places = random.Random(seed), Counter()
    for _ in range(worlds):
        table = GAME.ai.resample(state, seat, rand).table
        holder = next((s for s, hand in enumerate(table.hands) if CTHULHU in hand), None)
        places[holder if holder is not None else "pile" if CTHULHU in table.pile else "aside"] += 1
    return places


def within(count, worlds, p, sigmas=5):
    """``count`` of ``worlds`` is within ``sigmas`` standard deviations of a share ``p`` (the random stream is fixed,
    so the test is deterministic; the bound says the frequencies follow the intended shares, not luck)."""
    return abs(count / worlds - p) <= sigmas * (p * (1 - p) / worlds) ** 0.5


def test_an_ai_seat_draws_cthulhus_place_from_every_hand_it_cannot_rule_out_in_proportion():
    """Issue 27, item 5: an AI may know only what its seat knows. Before any spell nothing shows where Cthulhu is:
    each other hand holds him in proportion to its unseen cards, the pile in proportion to its own (he used to stay in
    his real holder's hand in every world)."""
    state = example()  # Natalie (seat 1) holds Cthulhu; 4 players, nothing set aside
    worlds = 4000
    places = where_cthulhu_lies(state, CHUCK, worlds, seed=27)
    unseen = 3 * 5 + len(state.table.pile)
    for seat in (NATALIE, MARK, LINDI):
        assert within(places[seat], worlds, 5 / unseen), places
    assert within(places["pile"], worlds, len(state.table.pile) / unseen), places
    assert places[CHUCK] == 0 and places["aside"] == 0
    # Natalie knows where he is: her worlds keep him in her hand.
    assert where_cthulhu_lies(state, NATALIE, 50, seed=1) == {NATALIE: 50}


def test_after_a_failed_summoning_a_hand_may_hold_cthulhu_only_through_cards_drawn_since():
    """A failed spell shows everyone that no hand held Cthulhu (he was in the pile or set aside): at once no world
    puts him in a hand; once a cultist has drawn a card since, her hand holds him in proportion to that one card."""
    hands = {CHUCK: ["Nasht", "Zkauba the Wizard", "Klarkash-Ton", "Henry Anthony Wilcox", "Dagon"],
             NATALIE: ["Walter Gilman", "Lavinia Whateley", "Umr At-Tawil", "George Gammell Angell", "Mother Hydra"],
             MARK: EXAMPLE_HANDS[MARK], LINDI: EXAMPLE_HANDS[LINDI]}
    state, _ = play_moves(GAME, example(hands), (CHUCK, card("Nasht")), (NATALIE, card("Walter Gilman")),
                    (MARK, card("Pharaoh Khafra")), (LINDI, card("Robert Harrison Blake")),
                    (CHUCK, {"type": "decline_trade"}))
    state, events = play_moves(GAME, state, (CHUCK, card("Henry Anthony Wilcox")))
    assert "summoning_failed" in [e.type for e in events]
    worlds = 2000
    assert where_cthulhu_lies(state, LINDI, worlds, seed=5) == {"pile": worlds}
    state, _ = play_moves(GAME, state, (NATALIE, card("George Gammell Angell")))  # she draws one card since the spell
    places = where_cthulhu_lies(state, LINDI, worlds, seed=6)
    pile = len(state.table.pile)
    assert places[MARK] == places[CHUCK] == 0
    assert within(places[NATALIE], worlds, 1 / (pile + 1)) and places[NATALIE] > 0, places
    assert places["pile"] == worlds - places[NATALIE]


def test_a_cultist_no_longer_knows_where_her_traded_card_is_once_it_leaves_that_hand_unseen():
    """Lindi forced Wilbur Whateley on Chuck and knows he holds it; when Chuck then slides a card face down to Mark
    (the Scroll of T'yog), Lindi cannot tell which card went: her worlds must not all keep Wilbur where he really is
    (they did: the knowledge outlived the unseen move)."""
    state, _ = gates_one_and_two(example(artifacts=[11]))
    assert E("Wilbur Whateley") in state.table.hands[CHUCK]
    state, _ = play_moves(GAME, state, (CHUCK, {"type": "invoke_artifact", "artifact": 11, "card": E("Wilbur Whateley"),
                                    "seat": MARK, "target": None}))
    rand, places = random.Random(3), Counter()
    for _ in range(300):
        table = GAME.ai.resample(state, LINDI, rand).table
        places["trade" if table.trade.card == E("Wilbur Whateley") else "elsewhere"] += 1
    assert places["trade"] < 300 and places["elsewhere"] > 0, places
    # Chuck knows what he forced; Mark, who never knew, still sees nothing.
    assert GAME.decider.view(state, CHUCK)["table"]["trade"]["card"] == E("Wilbur Whateley")
