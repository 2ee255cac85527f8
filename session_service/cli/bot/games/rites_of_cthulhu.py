"""Rites of Cthulhu (rites-of-cthulhu) for a bot: ``View``, its view as typed dicts, and ``Command``, its commands'
records. Generated from shared/games/rites_of_cthulhu/ by ``python -m session_service.cli.bot.typed_views``: do not
edit."""

from __future__ import annotations

from typing import Literal, NotRequired, TypedDict

from shared.games.rites_of_cthulhu.commands import (
    BecomeGrandCultist, ChooseRite, ExcavateArtifact, InvokeArtifact, ReturnCard, StealArtifact, TakeArtifacts,
    TradeArtifact
)
from shared.games.rites_of_cthulhu.rites.base import DrawCard, EndTurn
from shared.games.rites_of_cthulhu.rites.cthulhu_rises.commands import DeclineTrade, ForceCard, PlayCard
from shared.games.rites_of_cthulhu.rites.dunwich_horror.commands import (
    CallKnock, CaptureWall, DiscardAndDraw, Knock, PassKnock, RevealWall
)
from shared.games.rites_of_cthulhu.rites.mountains_of_madness.commands import ExtendRidge, PlayCliff, PlayOnSlope
from shared.games.rites_of_cthulhu.rites.out_of_the_aeons.commands import Bid, DiscardRevealed, KeepRevealed
from shared.games.rites_of_cthulhu.rites.the_hound.commands import (
    CallHenchman, DeclinePeek, KeepGhoul, MoveGhoul, NoHenchman, PassTurn, PeekGrave, PlaceGhoul, PsychOut
)
from shared.games.rites_of_cthulhu.rites.tree_on_the_hill.commands import GrowTree, PlantTree

GAME = "rites-of-cthulhu"

# Every command of the game: ``legal_commands`` holds these records, and ``choose`` returns one of them.
Command = (
    BecomeGrandCultist | Bid | CallHenchman | CallKnock | CaptureWall | ChooseRite | DeclinePeek | DeclineTrade |
    DiscardAndDraw | DiscardRevealed | DrawCard | EndTurn | ExcavateArtifact | ExtendRidge | ForceCard | GrowTree |
    InvokeArtifact | KeepGhoul | KeepRevealed | Knock | MoveGhoul | NoHenchman | PassKnock | PassTurn | PeekGrave |
    PlaceGhoul | PlantTree | PlayCard | PlayCliff | PlayOnSlope | PsychOut | ReturnCard | RevealWall | StealArtifact |
    TakeArtifacts | TradeArtifact
)


class View(TypedDict):
    """Rites of Cthulhu as its reader may know it: the Grand Cultist, the artifacts, the table and the rite under way"""
    # seats at the table
    players: int
    # a seat, 0 for the first
    grand_cultist: int
    # rites this game plays
    rites_total: int
    # rites performed, in order
    rites_played: list[Literal[
        "cthulhu_rises", "tree_on_the_hill", "mountains_of_madness", "dunwich_horror", "out_of_the_aeons", "the_hound"
    ]]
    # rites the Grand Cultist may still choose
    rites_available: list[Literal[
        "cthulhu_rises", "tree_on_the_hill", "mountains_of_madness", "dunwich_horror", "out_of_the_aeons", "the_hound"
    ]]
    # choosing (the Grand Cultist picks a rite), performing, claiming (the rite's winner claims artifacts), finished
    stage: Literal["choosing", "performing", "claiming", "finished"]
    # the seats the game waits on
    to_act: list[int]
    # the Coveted Artifacts on offer
    coveted: list[int]
    # artifacts each seat captured
    captured: dict[str, list[int]]
    # elder sign points of each seat's artifacts
    scores: dict[str, int]
    # artifacts left to excavate
    artifact_deck: list[int]
    thrown_out: list[int]
    # artifacts whose second invocation was used
    second_used: list[int]
    fresh_used: list[int]
    # per seat, the cards it drew first this rite
    first_draws: list[list[int]]
    # The table around the rites: hands, the pile and what the artifacts changed
    table: Table
    # performing: the rite under way, by its id
    rite: NotRequired[RiteCthulhuRises | RiteTreeOnTheHill | RiteMountainsOfMadness | RiteDunwichHorror | RiteOutOfTheAeons | RiteTheHound]
    # a seat, 0 for the first
    claiming: NotRequired[int]
    # the pile, top first (only once the game is over)
    pile_order: NotRequired[list[int]]
    # the face-down set-aside cards, each [card, who saw it: a seat, -1 nobody, -2 everybody] (only once the game is
    # over)
    face_down: NotRequired[list[list[int]]]


class Table(TypedDict):
    """The table around the rites: hands, the pile and what the artifacts changed"""
    # by seat: the cards of a hand the reader may see (its own, or every hand while hands are open), else how many it
    # holds
    hands: dict[str, list[int] | int]
    # cards in the entities pile
    pile: int
    # cards set aside face up
    set_aside: list[int]
    # cards set aside face down
    set_aside_face_down: int
    # the face-down set-aside cards the reader has seen
    set_aside_face_down_seen: list[int]
    traded: list[TableTradedItem]
    # What the artifacts changed for this rite
    modifiers: TableModifiers
    peeked: list[TablePeekedItem]
    # A forced trade under way: the receiver answers with a card
    trade: NotRequired[TableTrade]


class TableTradedItem(TypedDict):
    """A card the reader saw change hands"""
    # an entity card by its id (the catalogue's card_data gives its name, cult and rank)
    card: int
    # a seat, 0 for the first
    seat: int


class TableModifiers(TypedDict):
    """What the artifacts changed for this rite"""
    # 1: clockwise, -1: counter-clockwise
    direction: int
    # who takes the Grand Cultist's first turn (null: the Grand Cultist)
    opener: int | None
    # rank comparisons are inverted
    low_wins: bool
    # every hand is played face up
    open_hands: bool
    # power-plays are forbidden this rite
    no_power_plays: bool


class TablePeekedItem(TypedDict):
    """Cards the reader saw in a hand"""
    # a seat, 0 for the first
    seat: int
    cards: list[int]


class TableTrade(TypedDict):
    """A forced trade under way: the receiver answers with a card"""
    # a seat, 0 for the first
    giver: int
    # a seat, 0 for the first
    receiver: int
    # an entity card by its id (the catalogue's card_data gives its name, cult and rank)
    card: NotRequired[int]


class RiteCthulhuRises(TypedDict):
    """
    Cthulhu Rises: gates of one card per cultist; the dominant cult takes them, and whoever captures Cthulhu risks him
    """
    id: Literal["cthulhu_rises"]
    title: Literal["Cthulhu Rises"]
    # the rite's deal is done
    begun: bool
    # the gate under way, from 1
    gate_number: int
    gate: list[RiteCthulhuRisesGateItem]
    # the gate's first card's cult
    dominant_cult: Literal["green", "blue", "yellow", "gray"] | None
    # a cult
    grand_cult: Literal["green", "blue", "yellow", "gray"]
    # who plays next (null while a card is being forced)
    to_play: int | None
    # seats that may still take the gate
    eligible: list[int]
    # where Cthulhu is: unseen, in the center, or captured
    cthulhu: Literal["unseen", "center", "captured"]
    # who captured Cthulhu
    captor: int | None
    # cards each seat took from gates
    taken: dict[str, list[int]]
    # a seat forcing a card on another
    forcing: int | None


class RiteCthulhuRisesGateItem(TypedDict):
    """A card played to the gate"""
    # a seat, 0 for the first
    seat: int
    # an entity card by its id (the catalogue's card_data gives its name, cult and rank)
    card: int
    # played vertically: its cultist may still take the gate
    vertical: bool


class RiteTreeOnTheHill(TypedDict):
    """The Tree on the Hill: grow trees of cards of different ranks; the first to empty their hand wins"""
    id: Literal["tree_on_the_hill"]
    title: Literal["The Tree on the Hill"]
    # the rite's deal is done
    begun: bool
    trees: list[RiteTreeOnTheHillTree]
    # a seat, 0 for the first
    turn: int
    # the seat in turn must play again
    must_play_again: bool
    # the seat in turn drew a card this turn
    drew: bool


class RiteTreeOnTheHillTree(TypedDict):
    """A tree"""
    cards: list[int]
    # it has all its cards
    complete: bool


class RiteMountainsOfMadness(TypedDict):
    """At the Mountains of Madness: extend the ridge and its slopes; the first to empty their hand wins"""
    id: Literal["mountains_of_madness"]
    title: Literal["At the Mountains of Madness"]
    # the rite's deal is done
    begun: bool
    # the ridge's first card
    elder_sign: int | None
    # the ridge, by rank
    ridge: list[int]
    slopes: list[RiteMountainsOfMadnessSlope]
    # a seat, 0 for the first
    turn: int
    # cards the seat in turn played this turn
    played_this_turn: int
    # the seat in turn drew a card this turn
    drew: bool


class RiteMountainsOfMadnessSlope(TypedDict):
    """A slope above or below a ridge card"""
    # an entity card by its id (the catalogue's card_data gives its name, cult and rank)
    ridge_card: int
    side: Literal["above", "below"]
    cards: list[int]


class RiteDunwichHorror(TypedDict):
    """The Dunwich Horror: reveal and capture the farmhouse walls that hold the twins"""
    id: Literal["dunwich_horror"]
    title: Literal["The Dunwich Horror"]
    # the rite's deal is done
    begun: bool
    phase: Literal["building", "replacing", "turn", "revealed", "claims", "freed"]
    # whose turn it is (during claims: the revealer's; null while walls are built or replaced)
    turn: int | None
    twins: list[RiteDunwichHorrorTwin]
    # a face-down wall's card only once the game is over
    walls: list[RiteDunwichHorrorWall]
    # cards captured, by seat
    captured: dict[str, list[int]]
    # elder sign points so far, by seat
    points: dict[str, int]
    discards: list[int]
    # replacing: the seats still replacing cards
    replacing: NotRequired[list[int]]
    # revealed: the wall just revealed
    revealed_wall: NotRequired[int]
    # claims: who may still claim the revealed wall
    claims: NotRequired[RiteDunwichHorrorClaims]
    # How the last claims ended
    last_claims: NotRequired[RiteDunwichHorrorLastClaims]


class RiteDunwichHorrorTwin(TypedDict):
    """A twin"""
    # an entity card by its id (the catalogue's card_data gives its name, cult and rank)
    card: int
    # a card's elder sign points
    elder_sign: int


class RiteDunwichHorrorWall(TypedDict):
    """A wall of the farmhouse"""
    slot: int
    # an entity card by its id (the catalogue's card_data gives its name, cult and rank)
    twin: int
    status: Literal["face_down", "face_up", "captured"]
    # an entity card by its id (the catalogue's card_data gives its name, cult and rank)
    card: NotRequired[int]
    # a card's elder sign points
    elder_sign: NotRequired[int]


class RiteDunwichHorrorClaims(TypedDict):
    """claims: who may still claim the revealed wall"""
    # a seat, 0 for the first
    revealer: int
    wall: int
    passed: list[int]
    waiting: list[int]


class RiteDunwichHorrorLastClaims(TypedDict):
    """How the last claims ended"""
    wall: int
    # who took the wall (null: nobody)
    claimant: int | None


class RiteOutOfTheAeons(TypedDict):
    """Out of the Aeons: seal bids for the yellow cards turned over one by one"""
    id: Literal["out_of_the_aeons"]
    title: Literal["Out of the Aeons"]
    # the rite's deal is done
    begun: bool
    phase: Literal["dealing", "privilege", "bidding", "ended"]
    # yellow cards still to turn over
    sub_deck: int
    # the yellow card bid for
    revealed: int | None
    privilege_used: bool
    # cards captured, by seat
    captured: dict[str, list[int]]
    # elder sign points so far, by seat
    points: dict[str, int]
    discards: list[int]
    # cards set aside unseen
    remainders: int
    # seats that sealed a bid
    bids_sealed: list[int]
    # a seat, 0 for the first
    privileged: NotRequired[int]
    # bidding: the seats still to bid
    waiting: NotRequired[list[int]]
    sub_deck_order: NotRequired[list[int]]
    remainder_cards: NotRequired[list[int]]
    # the bids the reader may see: its own, and every bid once turned over
    bids: NotRequired[dict[str, int]]


class RiteTheHound(TypedDict):
    """The Hound: send ghouls to peek at and dig up graves; sealed henchmen decide who loots"""
    id: Literal["the_hound"]
    title: Literal["The Hound"]
    # the rite's deal is done
    begun: bool
    phase: Literal["laying", "peekprivilege", "placing", "placed", "digging", "emptied"]
    # a face-down grave's card only for a reader who peeked
    graves: list[RiteTheHoundGrave]
    # elder sign points so far, by seat
    points: dict[str, int]
    discards: list[int]
    # a seat, 0 for the first
    turn: NotRequired[int]
    # a grave, from 0
    placed_at: NotRequired[int]
    # digging: the partners' sealed choices
    dig: NotRequired[RiteTheHoundDig]


class RiteTheHoundGrave(TypedDict):
    """A grave"""
    # a grave, from 0
    grave: int
    ghouls: list[RiteTheHoundGraveGhoul]
    status: Literal["face_down", "face_up", "looted"]
    # an entity card by its id (the catalogue's card_data gives its name, cult and rank)
    card: NotRequired[int]
    # the reader peeked at this face-down grave
    peeked: NotRequired[bool]
    # a seat, 0 for the first
    looted_by: NotRequired[int]


class RiteTheHoundGraveGhoul(TypedDict):
    """A ghoul placed on it"""
    # a seat, 0 for the first
    seat: int
    # an entity card by its id (the catalogue's card_data gives its name, cult and rank)
    card: int


class RiteTheHoundDig(TypedDict):
    """digging: the partners' sealed choices"""
    # a grave, from 0
    grave: int
    # the partners who sealed
    sealed: list[int]
    # the reader's own sealed choice
    choices: NotRequired[dict[str, RiteTheHoundDigChoices]]
    # henchmen shown while hands are open
    cards: NotRequired[dict[str, int | None]]


class RiteTheHoundDigChoices(TypedDict):
    """A sealed choice the reader made"""
    choice: Literal["henchman", "dummy", "nothing"]
    # an entity card by its id (the catalogue's card_data gives its name, cult and rank)
    card: int | None


__all__ = [
    "GAME", "Command", "View", "BecomeGrandCultist", "Bid", "CallHenchman", "CallKnock", "CaptureWall", "ChooseRite",
    "DeclinePeek", "DeclineTrade", "DiscardAndDraw", "DiscardRevealed", "DrawCard", "EndTurn", "ExcavateArtifact",
    "ExtendRidge", "ForceCard", "GrowTree", "InvokeArtifact", "KeepGhoul", "KeepRevealed", "Knock", "MoveGhoul",
    "NoHenchman", "PassKnock", "PassTurn", "PeekGrave", "PlaceGhoul", "PlantTree", "PlayCard", "PlayCliff",
    "PlayOnSlope", "PsychOut", "ReturnCard", "RevealWall", "StealArtifact", "TakeArtifacts", "TradeArtifact",
    "RiteCthulhuRises", "RiteCthulhuRisesGateItem", "RiteDunwichHorror", "RiteDunwichHorrorClaims",
    "RiteDunwichHorrorLastClaims", "RiteDunwichHorrorTwin", "RiteDunwichHorrorWall", "RiteMountainsOfMadness",
    "RiteMountainsOfMadnessSlope", "RiteOutOfTheAeons", "RiteTheHound", "RiteTheHoundDig", "RiteTheHoundDigChoices",
    "RiteTheHoundGrave", "RiteTheHoundGraveGhoul", "RiteTreeOnTheHill", "RiteTreeOnTheHillTree", "Table",
    "TableModifiers", "TablePeekedItem", "TableTrade", "TableTradedItem"
]
