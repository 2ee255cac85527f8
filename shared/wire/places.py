"""Marshmallow schemas of the places people come back to: profiles, leaderboards and quick play's seeks."""

from __future__ import annotations

from typing import Any

from marshmallow import Schema, ValidationError, fields, validate, validates_schema

from shared.wire.schemas import StrictBoolean, WholeNumber

POOLS = ["humans", "bots"]
AI_LEVEL = validate.Length(1, 32)


class RatingAlgorithm(Schema):
    library = fields.String(required=True, metadata={"example": "openskill"})
    version = fields.String(required=True)
    model = fields.String(required=True)
    mu = fields.Float(required=True)
    sigma = fields.Float(required=True)
    beta = fields.Float(required=True)
    tau = fields.Float(required=True)
    kappa = fields.Float(required=True)
    ordinal = fields.String(required=True, metadata={"description": "what the leaderboard ranks by"})
    order = fields.String(required=True, metadata={"description": "the order games are folded in"})


class GameRating(Schema):
    game = fields.String(required=True)
    mu = fields.Float(required=True)
    sigma = fields.Float(required=True)
    ordinal = fields.Float(required=True, metadata={"description": "mu - 3 sigma: the leaderboard's order"})
    games = fields.Integer(required=True, metadata={"description": "rated games played"})


class HistorySeat(Schema):
    seat = fields.Integer(required=True)
    name = fields.String(required=True)
    player = fields.String(allow_none=True, required=True)
    ai = fields.String(allow_none=True, required=True)
    place = fields.Integer(required=True, metadata={"description": "0 is first; tied seats share a place"})
    won = fields.Boolean(required=True)
    resigned = fields.Boolean()


class HistoryGame(Schema):
    game_id = fields.String(required=True)
    game = fields.String(required=True)
    ended_at = fields.String(required=True)
    status = fields.String(required=True)
    reason = fields.String(required=True, metadata={"description": "the outcome's reason (resignation, abandoned, …)"})
    rated = fields.Boolean(required=True)
    seats = fields.List(fields.Nested(HistorySeat), required=True)


class ProfileQuery(Schema):
    cursor = fields.String(validate=validate.Regexp(r"^[0-9]{1,9}$"), metadata={"description": "the `next` of the page before"})
    limit = fields.Integer(load_default=20, validate=validate.Range(1, 100))


class Profile(Schema):
    id = fields.String(required=True)
    name = fields.String(required=True)
    bot = fields.Boolean(required=True)
    created_at = fields.String(required=True)
    ratings = fields.List(fields.Nested(GameRating), required=True, metadata={"description": "one per game it is rated in"})
    games = fields.List(fields.Nested(HistoryGame), required=True, metadata={
        "description": "its finished public games, newest first (a page); a private table is never here"})
    next = fields.String(allow_none=True, required=True)
    rating_algorithm = fields.Nested(RatingAlgorithm, required=True)


class LeaderboardQuery(Schema):
    pool = fields.String(load_default="humans", validate=validate.OneOf(POOLS),
                         metadata={"description": "people's board, or bots' (players made with bot, and AI levels)"})
    cursor = fields.String(validate=validate.Regexp(r"^[0-9]{1,9}$"))
    limit = fields.Integer(load_default=50, validate=validate.Range(1, 200))


class LeaderboardEntry(Schema):
    rank = fields.Integer(required=True, metadata={"description": "1 is best"})
    name = fields.String(required=True)
    player = fields.String(metadata={"description": "the player's id (absent for an AI level)"})
    ai = fields.String(metadata={"description": "the AI level (absent for a player)"})
    bot = fields.Boolean(required=True)
    mu = fields.Float(required=True)
    sigma = fields.Float(required=True)
    ordinal = fields.Float(required=True)
    games = fields.Integer(required=True)


class Leaderboard(Schema):
    game = fields.String(required=True)
    pool = fields.String(required=True)
    min_games = fields.Integer(required=True, metadata={"description": "rated games an entry needs to stand here"})
    entries = fields.List(fields.Nested(LeaderboardEntry), required=True)
    next = fields.String(allow_none=True, required=True)
    rating_algorithm = fields.Nested(RatingAlgorithm, required=True)


class SeekRequest(Schema):
    game = fields.String(required=True, validate=validate.Length(1, 64))
    seats = WholeNumber(validate=validate.Range(1, 16), metadata={"description": "exactly this many seats"})
    min_seats = WholeNumber(validate=validate.Range(1, 16), metadata={"description": "at least (default: the game's)"})
    max_seats = WholeNumber(validate=validate.Range(1, 16), metadata={"description": "at most (default: the game's)"})
    rated = StrictBoolean(load_default=False)
    pool = fields.String(validate=validate.OneOf(POOLS), metadata={"description": "default: bots for a bot, else humans"})
    window = fields.Float(allow_none=True, load_default=None, validate=validate.Range(0, 1000), metadata={
        "description": "rating window (ordinal points) around the seeker's; widens with the wait (none: any rating)"})
    ai_fill_after_s = WholeNumber(allow_none=True, load_default=None, validate=validate.Range(0, 3600),
                                     metadata={"description": "after this wait, AI seats fill the table to its smallest size"})
    ai = fields.String(validate=AI_LEVEL, metadata={"description": "the AI level of such seats (default: the server's)"})

    @validates_schema
    def one_size(self, data: dict[str, Any], **kwargs: Any) -> None:
        if data.get("seats") is not None and (data.get("min_seats") is not None or data.get("max_seats") is not None):
            raise ValidationError("give seats, or min_seats and max_seats, not both")


class Seek(Schema):
    id = fields.String(required=True)
    game = fields.String(required=True)
    pool = fields.String(required=True)
    rated = fields.Boolean(required=True)
    min_seats = fields.Integer(required=True)
    max_seats = fields.Integer(required=True)
    window = fields.Float(allow_none=True, required=True)
    ai_fill_after_s = fields.Integer(allow_none=True, required=True)
    made_at = fields.String(required=True)
    waiting = fields.Boolean(required=True, metadata={"description": "false once matched: the stream says `matched`"})
    pool_size = fields.Integer(required=True, metadata={"description": "seeks waiting in this pool"})


class Seeks(Schema):
    seeks = fields.List(fields.Nested(Seek), required=True)
