"""The overarching game of Rites of Cthulhu: the series of rites, the Grand Cultist, artifacts and scoring.

Rulebook pages 1-13 ("Game Setup", "Performing Rites", "Power-Plays", "The Artifacts Deck", "Winning the Game").
Each rite is a pluggable ``Rite`` (``rites/``); this module never looks inside one.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from marshmallow import Schema, fields, validate

from shared.kernel import EVERYONE, Event, Outcome, ev, rng
from shared.games.rites_of_cthulhu import artifacts, powerplays
from shared.games.rites_of_cthulhu.cards import ARTIFACT_COUNT, CULTS
from shared.games.rites_of_cthulhu.rites.base import DECK_SIZE
from shared.games.rites_of_cthulhu.rites import RITES, base
from shared.games.rites_of_cthulhu.rites.base import Table, rank, require
from shared.games.rites_of_cthulhu.state import Choosing, Claiming, Finished, Performing, RitesState

HAND_SIZE = 5
RITES_PER_PLAYER_COUNT = {2: 6, 3: 6, 4: 4, 5: 5, 6: 6}
MAX_SETTLE = 100


# --- commands --------------------------------------------------------------------------------------------


class ChooseRite(Schema):
    rite = fields.String(required=True)


class PowerPlay(Schema):
    cult = fields.String(required=True, validate=validate.OneOf(CULTS))


class StealArtifact(Schema):
    cult = fields.String(required=True, validate=validate.OneOf(CULTS))
    artifact = fields.Integer(required=True)


class InvokeArtifact(Schema):
    artifact = fields.Integer(required=True)
    card = fields.Integer(load_default=None, allow_none=True)
    seat = fields.Integer(load_default=None, allow_none=True)
    target = fields.Integer(load_default=None, allow_none=True)


class ReturnCard(Schema):
    card = fields.Integer(required=True)


class TakeArtifacts(Schema):
    pass


class TradeArtifact(Schema):
    give = fields.Integer(required=True)
    take = fields.Integer(required=True)


GAME_COMMANDS: dict[str, type[Schema]] = {
    "choose_rite": ChooseRite,
    "become_grand_cultist": PowerPlay,
    "excavate_artifact": PowerPlay,
    "steal_artifact": StealArtifact,
    "invoke_artifact": InvokeArtifact,
    "return_card": ReturnCard,
    "take_artifacts": TakeArtifacts,
    "trade_artifact": TradeArtifact,
}


def all_commands() -> dict[str, type[Schema]]:
    out = dict(GAME_COMMANDS)
    for rite in RITES.values():
        for name, schema in rite.commands.items():
            assert out.get(name, schema) is schema, f"command {name} means two things"
            out[name] = schema
    return out


def rites_total(players: int, play_all: bool) -> int:
    """Rites per game: 2-3 players 6, 4 players 4, 5 players 5, 6 players 6 (all with the play-all option),
    capped by the rites the project implements."""
    wanted = 6 if play_all else RITES_PER_PLAYER_COUNT[players]
    return min(wanted, len(RITES))


# --- setup ------------------------------------------------------------------------------------------------


def opening_events(players: int, total: int, first_draws: list[list[int]], grand_cultist: int) -> list[Event]:
    return [
        ev("game_started", players=players, rites_total=total),
        *[ev("first_cards_revealed", cards=draw) for draw in first_draws],
        ev("grand_cultist_chosen", seat=grand_cultist),
    ]


def deal_events(players: int, order: list[int]) -> list[Event]:
    """The Grand Cultist shuffles the whole entities deck and deals 5 cards to each cultist."""
    events = [ev("entities_shuffled", order=list(order), secret={"order": []})]
    for s in range(players):
        cards = order[s * HAND_SIZE:(s + 1) * HAND_SIZE]
        events.append(ev("cards_drawn", seat=s, cards=cards, secret={"cards": [s]}))
    return events


def setup(players: int, options: Mapping[str, Any], entropy: bytes) -> list[Event]:
    r = rng(entropy)
    deck = list(range(DECK_SIZE))
    r.shuffle(deck)
    # The first Grand Cultist: everyone draws and reveals at once; the highest elder sign wins; tied
    # cultists draw again from the rest of the deck (project ruling).
    contenders, draws = list(range(players)), []
    while True:
        draw = [-1] * players
        for s in contenders:
            draw[s] = deck.pop()
        draws.append(draw)
        top = max(rank(draw[s]) for s in contenders)
        contenders = [s for s in contenders if rank(draw[s]) == top]
        if len(contenders) == 1:
            break
    events = opening_events(players, rites_total(players, options.get("play_all_rites", False)), draws, contenders[0])
    order = list(range(DECK_SIZE))
    r.shuffle(order)
    return events + deal_events(players, order)


# --- helpers ---------------------------------------------------------------------------------------------


def available_rites(state: RitesState) -> list[str]:
    return [rid for rid in RITES if rid not in state.played]


def _performing(state: RitesState) -> Performing | None:
    return state.stage if isinstance(state.stage, Performing) else None


def _rite(state: RitesState):
    return RITES[state.stage.rite_id]


def rite_actors(state: RitesState) -> frozenset[int]:
    stage = _performing(state)
    if stage is None or not stage.begun:
        return frozenset()
    if state.table.trade is not None:
        return frozenset({state.table.trade.receiver})
    return RITES[stage.rite_id].to_act(state.table, stage.rite)


def to_act(state: RitesState) -> frozenset[int]:
    match state.stage:
        case Choosing():
            return frozenset({state.grand_cultist})
        case Claiming(winner=winner):
            return frozenset({winner})
        case Finished():
            return frozenset()
    out = set(rite_actors(state))
    for s in range(state.players):
        if s not in out and (powerplays.legal(state, s) or artifacts.legal(state, s)):
            out.add(s)
    return frozenset(out)


def legal_commands(state: RitesState, seat: int) -> list[dict[str, Any]]:
    match state.stage:
        case Choosing():
            if seat != state.grand_cultist:
                return []
            return [{"type": "choose_rite", "rite": rid} for rid in available_rites(state)]
        case Claiming(winner=winner):
            if seat != winner:
                return []
            out: list[dict[str, Any]] = [{"type": "take_artifacts"}]
            return out + [{"type": "trade_artifact", "give": g, "take": t} for g in state.coveted for t in state.artifact_deck]
        case Finished():
            return []
    out = []
    if seat in rite_actors(state):
        if state.table.trade is not None:
            out += [{"type": "return_card", "card": c} for c in sorted(state.table.hands[seat])]
        else:
            out += _rite(state).legal_commands(state.table, state.stage.rite, seat)
    return out + powerplays.legal(state, seat) + artifacts.legal(state, seat)


# --- decide ----------------------------------------------------------------------------------------------


def decide(state: RitesState, command: Mapping[str, Any], seat: int, entropy: bytes) -> list[Event]:
    r = rng(entropy)
    kind = command["type"]
    stage = state.stage
    if kind == "choose_rite":
        require(isinstance(stage, Choosing), "rules/not_choosing_a_rite", "No rite is being chosen now.")
        require(seat == state.grand_cultist, "rules/not_grand_cultist", "Only the Grand Cultist picks the rite.")
        require(command["rite"] in available_rites(state), "rules/rite_not_available",
                "That rite is not available (unknown or already performed).")
        return _choose(state, command["rite"], r)
    if kind in ("take_artifacts", "trade_artifact"):
        require(isinstance(stage, Claiming) and stage.winner == seat, "rules/not_claiming",
                "Only an overthrow winner claims artifacts, once the rite ends.")
        events = []
        if kind == "trade_artifact":
            require(command["give"] in state.coveted and command["take"] in state.artifact_deck,
                    "rules/invalid_artifact_trade", "Trade one Coveted Artifact for one artifact of the deck.")
            events.append(ev("artifact_traded", seat=seat, gave=command["give"], took=command["take"]))
        events.append(ev("rite_won", seat=seat, reason="overthrow"))
        return events + _after_rite(_fold(state, events), r, passes=True)
    require(isinstance(stage, Performing) and stage.begun, "rules/no_rite_in_progress", "No rite is being performed.")
    if kind in powerplays.POWER_PLAYS:
        events, excavate = powerplays.decide(state, command, seat)
        if kind == "become_grand_cultist":
            events.append(ev("rite_failed", reason="grand_cultist_seized", seat=seat))
            return events + _after_rite(_fold(state, events), r, passes=False)
        if excavate:
            events += artifacts.excavate(_fold(state, events), r, seat)
        return events + _settle(_fold(state, events), r)
    if kind == "invoke_artifact":
        events = artifacts.decide(state, command, seat, r)
        return events + _settle(_fold(state, events), r)
    if kind == "return_card":
        trade = state.table.trade
        require(trade is not None and trade.receiver == seat, "rules/no_trade_to_answer",
                "Nobody has forced a card on you.")
        require(command["card"] in state.table.hands[seat], "rules/card_not_in_hand", "That card is not in your hand.")
        events = [base.return_card(state.table, command["card"])]
        return events + _settle(_fold(state, events), r)
    rite = _rite(state)
    if kind not in rite.commands:
        raise base.violation("rules/not_in_this_rite", f"{rite.title} has no {kind} move.")
    require(state.table.trade is None, "rules/trade_pending", "A forced card trade must be answered first.")
    events = rite.decide(state.table, stage.rite, command, seat, r)
    return events + _settle(_fold(state, events), r)


def _choose(state: RitesState, rite_id: str, r: Any) -> list[Event]:
    """Performing rites: the rite is picked, the deal adjusted, the Coveted Artifact excavated, its power applied."""
    events = [ev("rite_chosen", rite=rite_id)]
    after = _fold(state, events)
    events += RITES[rite_id].begin(after.table, after.stage.rite, r)
    after = _fold(state, events)
    events += artifacts.excavate(after, r)
    events.append(ev("rite_begun", rite=rite_id))
    return events + _settle(_fold(state, events), r)


def _settle(state: RitesState, r: Any) -> list[Event]:
    """After every command: the rite's own follow-ups, then the end of the rite if it is over."""
    stage = _performing(state)
    if stage is None or not stage.begun:
        return []
    rite = RITES[stage.rite_id]
    events: list[Event] = []
    for _ in range(MAX_SETTLE):
        more = rite.settle(state.table, state.stage.rite)
        if not more:
            break
        events += more
        state = _fold(state, more)
    else:
        raise AssertionError(f"{rite.id}: settle does not reach a fixed point")
    result = rite.result(state.table, state.stage.rite)
    if result is None:
        return events
    if result.winner is None:
        end = [ev("rite_failed", reason=result.reason, seat=None)]
        return events + end + _after_rite(_fold(state, end), r, passes=True)
    if result.may_trade_artifact and state.coveted and state.artifact_deck:
        return events + [ev("overthrow_claimed", seat=result.winner)]
    end = [ev("rite_won", seat=result.winner, reason=result.reason)]
    return events + end + _after_rite(_fold(state, end), r, passes=True)


def _after_rite(state: RitesState, r: Any, passes: bool) -> list[Event]:
    """The Grand Cultist passes left; the next rite is dealt, or the game ends after the last one."""
    events: list[Event] = []
    if passes:
        events.append(ev("grand_cultist_passed", seat=(state.grand_cultist + 1) % state.players))
    if len(state.played) >= state.rites_total or not available_rites(state):
        scores = [artifacts.points(state, s) for s in range(state.players)]
        return events + [ev("game_ended", scores=scores)]
    order = list(range(DECK_SIZE))
    r.shuffle(order)
    return events + deal_events(state.players, order)


def _fold(state: RitesState, events: list[Event]) -> RitesState:
    for e in events:
        state = evolve(state, e)
    return state


# --- evolve ----------------------------------------------------------------------------------------------


def evolve(state: RitesState | None, event: Event) -> RitesState:
    d = event.data
    if event.type in base.TABLE_EVENTS:
        return dataclasses.replace(state, table=base.evolve_table(state.table, event))
    match event.type:
        case "game_started":
            n = d["players"]
            return RitesState(
                players=n, rites_total=d["rites_total"], grand_cultist=0,
                table=Table(players=n, grand_cultist=0, hands=((),) * n, pile=tuple(range(DECK_SIZE))),
                stage=Choosing(), artifact_deck=tuple(range(ARTIFACT_COUNT)), captured=((),) * n,
            )
        case "first_cards_revealed":
            return dataclasses.replace(state, first_draws=state.first_draws + (tuple(d["cards"]),))
        case "grand_cultist_chosen" | "grand_cultist_passed":
            return dataclasses.replace(state, grand_cultist=d["seat"])
        case "entities_shuffled":
            table = Table(players=state.players, grand_cultist=state.grand_cultist, hands=((),) * state.players,
                          pile=tuple(d["order"]))
            return dataclasses.replace(state, table=table, stage=Choosing(), revealed=(), fresh_used=())
        case "rite_chosen":
            rite = RITES[d["rite"]]
            return dataclasses.replace(state, stage=Performing(d["rite"], rite.initial(state.table)))
        case "rite_begun":
            return dataclasses.replace(state, stage=dataclasses.replace(state.stage, begun=True))
        case "artifact_excavated":
            a = d["artifact"]
            return dataclasses.replace(state, artifact_deck=tuple(x for x in state.artifact_deck if x != a),
                                       coveted=state.coveted + (a,), revealed=state.revealed + (a,))
        case "turn_order_reversed":
            return _mods(state, direction=d["direction"])
        case "hands_opened":
            return _mods(state, open_hands=True)
        case "ranks_inverted":
            return _mods(state, low_wins=True)
        case "power_plays_forbidden":
            return _mods(state, no_power_plays=True)
        case "opener_changed":
            return _mods(state, opener=d["seat"])
        case "artifact_invoked":
            if d["second"]:
                return dataclasses.replace(state, second_used=state.second_used + (d["artifact"],))
            return dataclasses.replace(state, fresh_used=state.fresh_used + (d["artifact"],))
        case "artifact_taken":
            captured = list(state.captured)
            captured[d["from_seat"]] = tuple(a for a in captured[d["from_seat"]] if a != d["artifact"])
            captured[d["seat"]] = captured[d["seat"]] + (d["artifact"],)
            return dataclasses.replace(state, captured=tuple(captured))
        case "artifact_thrown_out":
            return dataclasses.replace(state, coveted=tuple(a for a in state.coveted if a != d["artifact"]),
                                       thrown_out=state.thrown_out + (d["artifact"],))
        case "artifact_stolen":
            captured = list(state.captured)
            captured[d["seat"]] = captured[d["seat"]] + (d["artifact"],)
            return dataclasses.replace(state, captured=tuple(captured),
                                       coveted=tuple(a for a in state.coveted if a != d["artifact"]))
        case "power_play_made":
            return state
        case "overthrow_claimed":
            return dataclasses.replace(state, stage=Claiming(d["seat"], state.stage.rite_id))
        case "artifact_traded":
            deck = tuple(sorted(set(state.artifact_deck) - {d["took"]} | {d["gave"]}))
            coveted = tuple(d["took"] if a == d["gave"] else a for a in state.coveted)
            return dataclasses.replace(state, artifact_deck=deck, coveted=coveted)
        case "rite_won":
            captured = list(state.captured)
            captured[d["seat"]] = captured[d["seat"]] + state.coveted
            return dataclasses.replace(state, captured=tuple(captured), coveted=(), played=state.played + (_rite_id(state),),
                                       stage=Choosing())
        case "rite_failed":
            state = dataclasses.replace(state, thrown_out=state.thrown_out + state.coveted, coveted=(),
                                        played=state.played + (_rite_id(state),), stage=Choosing())
            if d["reason"] == "grand_cultist_seized":
                state = dataclasses.replace(state, grand_cultist=d["seat"])
            return state
        case "game_ended":
            return dataclasses.replace(state, stage=Finished("all_rites_performed"))
        case _:
            stage = _performing(state)
            if stage is None:
                raise TypeError(f"Rites of Cthulhu has no event {event.type} outside a rite")
            table, rite_state = RITES[stage.rite_id].evolve(state.table, stage.rite, event)
            if stage.begun:
                table = dataclasses.replace(table, moves=table.moves + 1)
            return dataclasses.replace(state, table=table, stage=dataclasses.replace(stage, rite=rite_state))


def _rite_id(state: RitesState) -> str:
    return state.stage.rite_id


def _mods(state: RitesState, **changes: Any) -> RitesState:
    table = dataclasses.replace(state.table, mods=dataclasses.replace(state.table.mods, **changes))
    return dataclasses.replace(state, table=table)


# --- outcome, view, resample, invariant --------------------------------------------------------------------


def outcome(state: RitesState) -> Outcome | None:
    if not isinstance(state.stage, Finished):
        return None
    scores = tuple(artifacts.points(state, s) for s in range(state.players))
    top = max(scores)
    return Outcome(reason="most_elder_sign_points", winners=tuple(s for s, v in enumerate(scores) if v == top),
                   scores=tuple(float(v) for v in scores))


def view(state: RitesState, viewer: Any) -> dict[str, Any]:
    stage = state.stage
    out: dict[str, Any] = {
        "players": state.players,
        "grand_cultist": state.grand_cultist,
        "rites_total": state.rites_total,
        "rites_played": list(state.played),
        "rites_available": available_rites(state),
        "stage": type(stage).__name__.lower(),
        "to_act": sorted(to_act(state)),
        "coveted": list(state.coveted),
        "captured": {str(s): list(c) for s, c in enumerate(state.captured)},
        "scores": {str(s): artifacts.points(state, s) for s in range(state.players)},
        "artifact_deck": list(state.artifact_deck),
        "thrown_out": list(state.thrown_out),
        "second_used": list(state.second_used),
        "fresh_used": list(state.fresh_used),
        "first_draws": [list(d) for d in state.first_draws],
        "table": base.table_view(state.table, viewer),
    }
    if isinstance(stage, Performing):
        rite = RITES[stage.rite_id]
        out["rite"] = {"id": rite.id, "title": rite.title, "begun": stage.begun,
                       **rite.view(state.table, stage.rite, viewer)}
    if isinstance(stage, Claiming):
        out["claiming"] = stage.winner
    if viewer is EVERYONE:
        out["pile_order"] = list(state.table.pile)
        out["face_down"] = [list(p) for p in state.table.face_down]
    return out


def resample(state: RitesState, seat: int, r: Any) -> RitesState:
    """Redistribute everything ``seat`` cannot know (a rite's face-down walls, graves and sealed choices too)."""
    return _resample(state, seat, r, full=True)


def resample_unrevealable(state: RitesState, seat: int, r: Any) -> RitesState:
    """Redistribute only what no single move of another seat can show ``seat`` (face-down cards stay put)."""
    return _resample(state, seat, r, full=False)


def _resample(state: RitesState, seat: int, r: Any, full: bool) -> RitesState:
    """Keep what every seat can see: who may act (power-plays show), and so the kinds of power-play offered."""
    acting = to_act(state)
    for _ in range(200):
        stage = state.stage
        if isinstance(stage, Performing):
            rite = RITES[stage.rite_id]
            method = getattr(rite, "resample_hidden", rite.resample) if full else rite.resample
            table, rite_state = method(state.table, stage.rite, seat, r)
            other = dataclasses.replace(state, table=table, stage=dataclasses.replace(stage, rite=rite_state))
        else:
            keep = {c for rid in available_rites(state) for c in RITES[rid].revealed_by_begin}
            other = dataclasses.replace(state, table=base.resample_table(state.table, seat, r, keep=keep))
        if to_act(other) == acting and _same_offers(state, other, seat):
            return other
    return state


def _same_offers(state: RitesState, other: RitesState, seat: int) -> bool:
    # Which power-plays another seat can make is public while it is listed to act; keep the kinds the same.
    return all(
        {c["type"] for c in powerplays.legal(state, s)} == {c["type"] for c in powerplays.legal(other, s)}
        for s in range(state.players) if s != seat
    )


def invariant(state: RitesState) -> None:
    table = state.table
    cards = [c for h in table.hands for c in h] + list(table.pile) + list(table.set_aside)
    cards += [c for c, _ in table.face_down]
    if table.trade is not None:
        cards.append(table.trade.card)
    if isinstance(state.stage, Performing):
        cards += list(RITES[state.stage.rite_id].cards(state.stage.rite))
        RITES[state.stage.rite_id].invariant(table, state.stage.rite)
    if not isinstance(state.stage, (Claiming, Finished)):
        assert sorted(cards) == list(range(DECK_SIZE)), "every entity card is in exactly one place"
    arts = list(state.artifact_deck) + list(state.coveted) + list(state.thrown_out) + [a for c in state.captured for a in c]
    assert sorted(arts) == list(range(ARTIFACT_COUNT)), "every artifact is in exactly one place"
    assert list(state.artifact_deck) == sorted(state.artifact_deck)
    assert len(state.played) <= state.rites_total
