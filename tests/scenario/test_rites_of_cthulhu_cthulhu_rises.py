"""Cthulhu Rises (rulebook pages 14-23): gates, trump, summoning, capture, forced trades, overthrow, the win."""

from __future__ import annotations

import random
from collections import Counter

from shared.games.rites_of_cthulhu import GAME
from shared.games.rites_of_cthulhu.cards import CTHULHU, entity
from shared.games.rites_of_cthulhu.state import Performing
from shared.kernel import ev
from tests.support.rites_positions import dealt_again, position
from tests.support.scenario import ENTROPY, decide, given, given_state, offered, timeout_choice

E = entity
CHUCK, NATALIE, MARK, LINDI = range(4)


def card(name):
    return {"type": "play_card", "card": E(name)}


def rite(state):
    return state.stage.rite


def to_gate(seat, name, *draws, opened=False):
    """``seat`` plays ``name`` on the gate (``opened``: the first card, so she may summon from now on) and draws back
    to five (``draws``, seen by her only; none once the pile is empty)."""
    played = ev("card_played_to_gate", seat=seat, card=E(name), opened=opened)
    return [played, ev("cards_drawn", seat=seat, cards=[E(d) for d in draws], secret={"cards": [seat]})] if draws else [played]


def gate_closed(seat, names, cthulhu=None, overthrow=False):
    """``seat`` played the winning card and takes the gate; ``cthulhu``: None, "captured" or left at the "center"."""
    return ev("gate_closed", seat=seat, cards=[E(n) for n in names], cthulhu=cthulhu, overthrow=overthrow)


DECLINE = {"type": "decline_trade"}


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
    return given(GAME, *position(4, CHUCK, hands, EXAMPLE_PILE, rite="cthulhu_rises", artifacts=artifacts))


FIRST_TWO_GATES = (
    (CHUCK, card("Nasht")), (NATALIE, card("Walter Gilman")), (MARK, card("Pharaoh Khafra")),
    (LINDI, card("Robert Harrison Blake")), (CHUCK, DECLINE),
    (CHUCK, card("Zkauba the Wizard")), (NATALIE, card("Lavinia Whateley")),
    (MARK, card("Pnakotic Fragments")), (LINDI, card("Zadok Allen")),
    (LINDI, {"type": "force_card", "card": E("Wilbur Whateley"), "seat": CHUCK}),
    (CHUCK, {"type": "return_card", "card": E("Klarkash-Ton")}),
)


def gates_one_and_two(example):
    """The play example's first two gates, as printed."""
    return example.played(*FIRST_TWO_GATES)


def test_play_example_gates_one_and_two_as_printed():
    # Chuck, the Grand Cultist, opens the first gate with Nasht (yellow 10): yellow is the dominant cult; each
    # cultist follows it and draws back to five
    move = example().when(CHUCK, card("Nasht")).then(*to_gate(CHUCK, "Nasht", "Kamog", opened=True))
    move = move.when(NATALIE, card("Walter Gilman")).then(*to_gate(NATALIE, "Walter Gilman", "Shoggoth"))
    move = move.when(MARK, card("Pharaoh Khafra")).then(*to_gate(MARK, "Pharaoh Khafra", "Keziah Mason"))
    # Lindi plays the fourth card; Nasht, the highest card of the dominant cult, closes the gate for Chuck, who may
    # force a card trade, and declines
    move = move.when(LINDI, card("Robert Harrison Blake")).then(
        *to_gate(LINDI, "Robert Harrison Blake", "Ephraim Waite"),
        gate_closed(CHUCK, ["Nasht", "Walter Gilman", "Pharaoh Khafra", "Robert Harrison Blake"]))
    assert rite(move.after).eligible == {CHUCK}
    move = move.when(CHUCK, DECLINE).then(ev("forced_trade_declined", seat=CHUCK))
    # Gate 2: Chuck leads Zkauba the Wizard (blue 5); Natalie follows with Lavinia Whateley (blue 8)
    move = move.when(CHUCK, card("Zkauba the Wizard")).then(*to_gate(CHUCK, "Zkauba the Wizard", "Nightgaunt", opened=True))
    move = move.when(NATALIE, card("Lavinia Whateley")).then(*to_gate(NATALIE, "Lavinia Whateley", "Kaman-Thah"))
    # Mark has no blue card: his Pnakotic Fragments (green 0) casts a spell, but he has opened no gate, so it fails
    # and nothing happens (no cthulhu_summoned, no summoning_failed): Natalie keeps Cthulhu. Lindi's Zadok Allen
    # (green 1) likewise; it is the highest card of the Grand Cult, and she takes the gate.
    move = move.when(MARK, card("Pnakotic Fragments")).then(*to_gate(MARK, "Pnakotic Fragments", "Hastur"))
    move = move.when(LINDI, card("Zadok Allen")).then(
        *to_gate(LINDI, "Zadok Allen", "Wilbur Whateley"),
        gate_closed(LINDI, ["Zkauba the Wizard", "Lavinia Whateley", "Pnakotic Fragments", "Zadok Allen"]))
    # She forces Wilbur Whateley on Chuck face down; without looking, he gives her Klarkash-Ton, and each of the two
    # then knows both cards
    move = move.when(LINDI, {"type": "force_card", "card": E("Wilbur Whateley"), "seat": CHUCK}).then(
        ev("forced_trade_offered", seat=LINDI, receiver=CHUCK),
        ev("card_forced", giver=LINDI, receiver=CHUCK, card=E("Wilbur Whateley"), secret={"card": [LINDI]}))
    move = move.when(CHUCK, {"type": "return_card", "card": E("Klarkash-Ton")}).then(
        ev("card_returned", giver=LINDI, receiver=CHUCK, card=E("Klarkash-Ton"), received=E("Wilbur Whateley"),
           secret={"card": [LINDI, CHUCK], "received": [LINDI, CHUCK]}))
    assert rite(move.after).eligible == {CHUCK}


def test_play_example_gate_three_goes_to_lobon_not_wilcox_as_the_example_says():
    # Lindi leads Lobon, a green card, opening the gate: she is eligible, and Natalie summons Cthulhu from her hand
    # (she refills after her next play: ruling).
    move = gates_one_and_two(example()).when(LINDI, card("Lobon")).then(
        *to_gate(LINDI, "Lobon", "T'yog, High Priest of Shub-Niggurath", opened=True),
        ev("cthulhu_summoned", seat=NATALIE, source="hand"))
    move = move.when(CHUCK, card("Henry Anthony Wilcox")).then(*to_gate(CHUCK, "Henry Anthony Wilcox", "Nephren-Ka"))
    move = move.when(NATALIE, card("George Gammell Angell")).then(
        *to_gate(NATALIE, "George Gammell Angell", "Pharaoh Nitocris", "Abdul Reis el Drogman"))
    # Erratum: the example gives this gate to Chuck's Wilcox (7); Lindi's Lobon (8) is the highest green card, and
    # she captures Cthulhu with it.
    move = move.when(MARK, card("Francis Wayland Thurston")).then(
        *to_gate(MARK, "Francis Wayland Thurston", "Old Whateley"),
        gate_closed(LINDI, ["Lobon", "Henry Anthony Wilcox", "George Gammell Angell", "Francis Wayland Thurston"],
                    cthulhu="captured"))
    assert rite(move.after).captor == LINDI


BUKROG_HANDS = {**EXAMPLE_HANDS, CHUCK: ["Nasht", "Zkauba the Wizard", "Klarkash-Ton", "Bukrog", "Dagon"]}


def chucks_capture():
    """The example's own position before gate 4 (Chuck captured Cthulhu in gate 3): Chuck plays a card that really is
    the highest there (Bukrog instead of Wilcox), with the Lamp of Alhazred as the Coveted Artifact."""
    return gates_one_and_two(example(BUKROG_HANDS, artifacts=[7])).played(
        (LINDI, card("Lobon")), (CHUCK, card("Bukrog")), (NATALIE, card("George Gammell Angell")),
        (MARK, card("Francis Wayland Thurston")), (CHUCK, DECLINE))


GATE_FOUR = ((CHUCK, card("Dagon")), (NATALIE, card("Mother Hydra")), (MARK, card("Deep One")),
             (LINDI, card("Edward Pickman Derby")))


def test_play_example_gate_four_overthrow_is_chucks_not_marks():
    assert rite(chucks_capture().state).captor == CHUCK
    # Chuck opens gate 4 with Dagon: his spell summons the Cthulhu he captured back to the gate
    move = chucks_capture().when(CHUCK, card("Dagon")).then(
        *to_gate(CHUCK, "Dagon", "Robert Olmstead", opened=True), ev("cthulhu_summoned", seat=CHUCK, source="captured"))
    move = move.when(NATALIE, card("Mother Hydra")).then(*to_gate(NATALIE, "Mother Hydra", "Barnabas Marsh"))
    move = move.when(MARK, card("Deep One")).then(*to_gate(MARK, "Deep One", "Gustaf Johansen"))
    # Dagon (13) closes the gate: Chuck opened a gate, captured Cthulhu, then closed a later gate, an overthrow; he
    # claims the Coveted Artifact (erratum: the example names Mark)
    move.when(LINDI, card("Edward Pickman Derby")).then(
        *to_gate(LINDI, "Edward Pickman Derby", "Henry Anthony Wilcox"),
        gate_closed(CHUCK, ["Dagon", "Mother Hydra", "Deep One", "Edward Pickman Derby"], cthulhu="captured",
                    overthrow=True),
        ev("overthrow_claimed", seat=CHUCK))


def test_the_overthrow_winner_may_trade_a_coveted_artifact_for_any_artifact_of_the_deck():
    claiming = chucks_capture().played(*GATE_FOUR)
    legal = offered(GAME, claiming.state, CHUCK)
    assert {"type": "take_artifacts"} in legal and {"type": "trade_artifact", "give": 7, "take": 3} in legal
    claiming.when(CHUCK, {"type": "trade_artifact", "give": 7, "take": 7}).refused("rules/invalid_artifact_trade")
    traded = claiming.when(CHUCK, {"type": "trade_artifact", "give": 7, "take": 3}).then(
        ev("artifact_traded", seat=CHUCK, gave=7, took=3), ev("rite_won", seat=CHUCK, reason="overthrow"),
        ev("grand_cultist_passed", seat=NATALIE), *dealt_again(4))
    assert traded.after.captured[CHUCK] == (3,) and 7 in traded.after.artifact_deck


def test_a_cultist_must_follow_the_dominant_cult():
    example().played((CHUCK, card("Nasht"))).when(NATALIE, card("Lavinia Whateley")).refused(
        "rules/must_follow_dominant_cult")


def test_rule_example_1_shoggoth_is_the_highest_card_of_the_lead_color():
    hands = {0: ["Kamog", "Nasht", "Hastur", "Yeb", "Bukrog"],
             1: ["Yog-Sothoth", "Dhole", "Nightgaunt", "Umr At-Tawil", "Kaman-Thah"],
             2: ["Randolph Carter", "Lavinia Whateley", "Old Whateley", "Walter Gilman", "Pharaoh Khafra"],
             3: ["Shoggoth", "Nephren-Ka", "Enoch Bowen", "Abdul Reis el Drogman", "Pharaoh Nitocris"]}
    # a gray lead (Kamog); blue Yog-Sothoth (13) is off the lead cult: gray Shoggoth (8) is the highest
    given(GAME, *position(4, 0, hands, rite="cthulhu_rises")).played(
        (0, card("Kamog")), (1, card("Yog-Sothoth")), (2, card("Randolph Carter"))).when(3, card("Shoggoth")).then(
        *to_gate(3, "Shoggoth", "Barnabas Marsh"), gate_closed(3, ["Kamog", "Yog-Sothoth", "Randolph Carter", "Shoggoth"]))


def test_rule_example_2_any_grand_cult_card_trumps_the_dominant_cult():
    hands = {0: ["Yog-Sothoth", "Nasht", "Kamog", "Yeb", "Hastur"],
             1: ["Randolph Carter", "Nug", "Keziah Mason", "Nightgaunt", "Kaman-Thah"],
             2: ["Asenath Waite", "Walter Gilman", "Shoggoth", "Nephren-Ka", "Pharaoh Khafra"],
             3: ["Robert Olmstead", "Deep One", "Ephraim Waite", "Brown Jenkin", "Enoch Bowen"]}
    # a blue lead (Yog-Sothoth, 13); Robert Olmstead (green 2), of the Grand Cult, takes the gate
    given(GAME, *position(4, 0, hands, rite="cthulhu_rises")).played(
        (0, card("Yog-Sothoth")), (1, card("Randolph Carter")), (2, card("Asenath Waite"))).when(
        3, card("Robert Olmstead")).then(
        *to_gate(3, "Robert Olmstead", "Gustaf Johansen"),
        gate_closed(3, ["Yog-Sothoth", "Randolph Carter", "Asenath Waite", "Robert Olmstead"]))


def test_the_grand_cultist_may_not_open_the_first_gate_with_the_grand_cult():
    example().when(CHUCK, card("Dagon")).refused("rules/no_green_lead_in_first_gate")


def test_cthulhu_stays_in_hand_during_the_first_gate():
    hands = dict(EXAMPLE_HANDS)
    hands[CHUCK] = ["Nasht", "Zkauba the Wizard", "Klarkash-Ton", "Henry Anthony Wilcox", "Dagon"]
    hands[NATALIE] = ["Lavinia Whateley", "Cthulhu", "George Gammell Angell", "Mother Hydra", "Umr At-Tawil"]
    led = example(hands).played((CHUCK, card("Nasht")))
    led.when(NATALIE, card("Cthulhu")).refused("rules/no_summoning_in_first_gate")
    assert card("Cthulhu") not in offered(GAME, led.state, NATALIE)


NO_CTHULHU_HANDS = {CHUCK: ["Nasht", "Zkauba the Wizard", "Klarkash-Ton", "Henry Anthony Wilcox", "Dagon"],
                    NATALIE: ["Walter Gilman", "Lavinia Whateley", "Umr At-Tawil", "George Gammell Angell", "Mother Hydra"],
                    MARK: EXAMPLE_HANDS[MARK], LINDI: EXAMPLE_HANDS[LINDI]}
"""The example's deal with Natalie's Cthulhu left in the pile."""


def first_gate_without_cthulhu():
    return example(NO_CTHULHU_HANDS).played(
        (CHUCK, card("Nasht")), (NATALIE, card("Walter Gilman")), (MARK, card("Pharaoh Khafra")),
        (LINDI, card("Robert Harrison Blake")), (CHUCK, DECLINE))


def test_a_summoning_spell_with_cthulhu_still_in_the_pile_fails():
    # Chuck, eligible, leads green in gate 2: a spell, and no hand holds Cthulhu
    first_gate_without_cthulhu().when(CHUCK, card("Henry Anthony Wilcox")).then(
        *to_gate(CHUCK, "Henry Anthony Wilcox", "Nightgaunt", opened=True), ev("summoning_failed"))


def test_a_winner_not_eligible_to_summon_leaves_cthulhu_at_the_center():
    hands = {0: ["Nasht", "Kamog", "Yeb", "Hastur", "Nug"], 1: ["Cthulhu", "Lobon", "Dhole", "Keziah Mason", "Walter Gilman"],
             2: ["Kaman-Thah", "Deep One", "Nightgaunt", "Shoggoth", "Ephraim Waite"]}
    two_gates = given(GAME, *position(3, 0, hands, rite="cthulhu_rises", begin=[])).played(
        (0, card("Nasht")), (1, card("Walter Gilman")), (2, card("Nightgaunt")), (0, DECLINE),
        # Gate 2: seat 0 leads gray; seat 1 has gray, so she follows; seat 2 plays gray too; all off-trump.
        (0, card("Kamog")), (1, card("Keziah Mason")), (2, card("Shoggoth")), (2, DECLINE))
    # Gate 3: seat 2 leads yellow; seat 0 has none and plays gray; seat 1, who has opened no gate, has no yellow and
    # plays Cthulhu, the highest card: she takes the gate but not him
    closed = two_gates.played((2, card("Kaman-Thah")), (0, card("Yeb"))).when(1, card("Cthulhu")).then(
        *to_gate(1, "Cthulhu", "Bukrog"), gate_closed(1, ["Kaman-Thah", "Yeb", "Cthulhu"], cthulhu="center"))
    assert rite(closed.after).center and CTHULHU not in rite(closed.after).taken[1]


def test_capture_and_close_in_the_same_gate_is_not_an_overthrow():
    # Lindi opened gate 3 and captures Cthulhu as she closes it: no overthrow, the rite goes on
    gates_one_and_two(example()).played(
        (LINDI, card("Lobon")), (CHUCK, card("Henry Anthony Wilcox")), (NATALIE, card("George Gammell Angell"))).when(
        MARK, card("Francis Wayland Thurston")).then(
        *to_gate(MARK, "Francis Wayland Thurston", "Old Whateley"),
        gate_closed(LINDI, ["Lobon", "Henry Anthony Wilcox", "George Gammell Angell", "Francis Wayland Thurston"],
                    cthulhu="captured"))


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
    # fill_pile=False: the set-aside pile holds the rest of the deck, so nobody draws; seat 1 captured Cthulhu in an
    # earlier gate and holds him when seat 0 closes the last one
    won = given_state(GAME, state).played((0, card("Nasht"))).when(1, card("Walter Gilman")).then(
        *to_gate(1, "Walter Gilman"), gate_closed(0, ["Nasht", "Walter Gilman"]),
        ev("rite_won", seat=1, reason="holds_cthulhu"), ev("grand_cultist_passed", seat=1), *dealt_again(2))
    assert won.after.captured[1] == (7,)


def test_a_silent_closer_forces_no_card_and_a_silent_cultist_plays_a_legal_card_at_random():
    """Rulings: forcing a card is the closer's option ("may force"): the timer declines it; a card must be played,
    so the timer plays one of the legal ones at random."""
    state = example().state
    plays = {str(timeout_choice(GAME, state, CHUCK, random.Random(seed))) for seed in range(30)}
    assert len(plays) > 1 and all("play_card" in p for p in plays)
    state = example().played(*FIRST_TWO_GATES[:4]).state
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
    led = given(GAME, *position(4, CHUCK, hands, rite="cthulhu_rises")).played((CHUCK, card("Dagon")))
    legal = offered(GAME, led.state, NATALIE)
    assert legal and card("Cthulhu") not in legal
    for command in legal:
        decide(GAME, led.state, command, NATALIE, ENTROPY)
    led.when(NATALIE, card("Nasht")).then(*to_gate(NATALIE, "Nasht", "Barnabas Marsh"))


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
    state = example().state  # Natalie (seat 1) holds Cthulhu; 4 players, nothing set aside
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
    spell = first_gate_without_cthulhu().when(CHUCK, card("Henry Anthony Wilcox")).then(
        *to_gate(CHUCK, "Henry Anthony Wilcox", "Nightgaunt", opened=True), ev("summoning_failed"))
    worlds = 2000
    assert where_cthulhu_lies(spell.after, LINDI, worlds, seed=5) == {"pile": worlds}
    state = spell.played((NATALIE, card("George Gammell Angell"))).state  # she draws one card since the spell
    places = where_cthulhu_lies(state, LINDI, worlds, seed=6)
    pile = len(state.table.pile)
    assert places[MARK] == places[CHUCK] == 0
    assert within(places[NATALIE], worlds, 1 / (pile + 1)) and places[NATALIE] > 0, places
    assert places["pile"] == worlds - places[NATALIE]


def test_a_cultist_no_longer_knows_where_her_traded_card_is_once_it_leaves_that_hand_unseen():
    """Lindi forced Wilbur Whateley on Chuck and knows he holds it; when Chuck then slides a card face down to Mark
    (the Scroll of T'yog), Lindi cannot tell which card went: her worlds must not all keep Wilbur where he really is
    (they did: the knowledge outlived the unseen move)."""
    slid = gates_one_and_two(example(artifacts=[11])).when(
        CHUCK, {"type": "invoke_artifact", "artifact": 11, "card": E("Wilbur Whateley"), "seat": MARK, "target": None}).then(
        ev("artifact_invoked", seat=CHUCK, artifact=11, second=False),
        ev("card_forced", giver=CHUCK, receiver=MARK, card=E("Wilbur Whateley"), secret={"card": [CHUCK]}))
    state = slid.after
    rand, places = random.Random(3), Counter()
    for _ in range(300):
        table = GAME.ai.resample(state, LINDI, rand).table
        places["trade" if table.trade.card == E("Wilbur Whateley") else "elsewhere"] += 1
    assert places["trade"] < 300 and places["elsewhere"] > 0, places
    # Chuck knows what he forced; Mark, who never knew, still sees nothing.
    assert GAME.decider.view(state, CHUCK)["table"]["trade"]["card"] == E("Wilbur Whateley")
