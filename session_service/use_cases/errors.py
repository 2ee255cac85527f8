"""The session service's refusals: what a use case answers when it will not do what it was asked.

Each carries the API's stable error code and a sentence a player understands; none knows HTTP. The HTTP edge
(``http/refusals.py``) gives each its status, and the worker, which has no HTTP at all, catches them by type.
"""

from __future__ import annotations

from typing import Any, ClassVar


class Refused(Exception):
    """A use case's refusal. ``code`` is the API's; ``retry_after_s`` says when trying again may help."""

    code: ClassVar[str] = "request/malformed"
    default: ClassVar[str] = "the request cannot be served"

    def __init__(self, message: str | None = None, details: dict[str, Any] | None = None,
                 retry_after_s: int | None = None):
        self.message = message or self.default
        super().__init__(self.message)
        self.details = details or {}
        self.retry_after_s = retry_after_s


class BadRequest(Refused):
    code = "request/malformed"


class Unprocessable(Refused):
    """A request the document's schema admits that the server refuses for a reason JSON Schema cannot say (it
    depends on the caller or on what is stored): 422, with a stable code of its own (README, "Errors")."""

    code = "request/unprocessable"


class CannotMuteSelf(Unprocessable):
    code = "player/cannot_mute_self"
    default = "you cannot mute yourself"


class NotABot(Unprocessable):
    code = "player/not_a_bot"
    default = "only a bot account (a player made with bot: true) accepts challenges automatically"


class CannotChallengeSelf(Unprocessable):
    code = "challenge/self"
    default = "you cannot challenge yourself"


class NotAccepting(Unprocessable):
    code = "challenge/not_accepting"
    default = "that player accepts no challenges"


class NameRequired(Unprocessable):
    code = "player/name_required"
    default = "say who joins: a name, or your player key"


class OneSeatOnly(Unprocessable):
    code = "player/one_seat_only"
    default = "only one seat can be yours"


class SeedNotAllowed(Unprocessable):
    code = "game/seed_not_allowed"
    default = "this server draws its own seeds (clients may choose one only where MYTHOS_ALLOW_CLIENT_SEED=1)"


class VersionOutOfRange(Unprocessable):
    """A version asked for (``at``, a resume point) that the game has not reached: ``details.current_version``."""

    code = "game/version_out_of_range"

    def __init__(self, message: str, current: int):
        super().__init__(message, {"current_version": current})


class ChatLineLength(Unprocessable):
    code = "chat/bad_length"


class NotFound(Refused):
    code = "game/not_found"
    default = "there is no game with that id"


class PlayerNotFound(NotFound):
    code = "player/not_found"
    default = "there is no player with that id"


class ChallengeNotFound(NotFound):
    code = "challenge/not_found"
    default = "you have no challenge with that id"


class VersionConflict(Refused):
    code = "game/version_conflict"
    default = "the game has moved on: read the state and try again"

    def __init__(self, current: int, message: str | None = None):
        super().__init__(message, {"current_version": current})


class Finished(Refused):
    code = "game/finished"
    default = "the game is over: no more commands are accepted"


class NotFinished(Refused):
    code = "game/not_finished"
    default = "a game is exported once it is over; it is still being played"


class BadToken(Refused):
    code = "auth/bad_token"
    default = "that token does not belong to a seat of this game"


class MissingToken(Refused):
    code = "auth/missing_token"
    default = "this needs a seat token or a player key: 'Authorization: Bearer <token>'"


class NotYourSeat(Refused):
    code = "auth/not_your_seat"
    default = "a token reads and acts for its own seat only"


class RateLimited(Refused):
    """Past one of the client's quotas (``quotas.py``): ``details`` names it; ``retry_after_s`` says when to retry."""

    code = "request/rate_limited"
    default = "too many requests from one client; try again later"


class Unavailable(Refused):
    code = "service/unavailable"

    def __init__(self, what: str):
        super().__init__(f"{what} is unavailable right now; nothing was written, try again shortly", retry_after_s=2)


class Unreplicated(Refused):
    """Strict durability (``REQUIRE_REPLICATED``; README, Durability): the command is in the log on the game's Redis
    primary, but no replica confirmed it in time, so it could still be lost with that primary. Not an answer the
    client may build on; retried with the same Idempotency-Key it is found, not written again, and answered once a
    replica has it."""

    code = "service/unreplicated"
    default = ("the command was applied on the game's Redis primary, but no replica confirmed it in time, so it is not "
               "yet durable; send it again with the same Idempotency-Key: it is not applied twice, and is answered "
               "once a replica has it")

    def __init__(self) -> None:
        super().__init__(retry_after_s=1)


class RulesRetired(Unavailable):
    """The game was started under a rules version this server no longer provides: it is not decided by other
    rules, and resumes once a release providing its version is deployed (docs/operations.md, "Upgrades")."""

    def __init__(self, rules_version: str, provided: list[str]):
        Refused.__init__(self, f"this game is played under rules {rules_version}, which this server no longer provides; "
                         "nothing was written, and it resumes once they are deployed again",
                         {"rules_version": rules_version, "provided": provided}, retry_after_s=300)


class GameFull(Refused):
    code = "game/full"
    default = "no seat is open at this table"


class GameStarted(Refused):
    code = "game/started"
    default = "the game has started: its seats are taken"


class InviteRequired(Refused):
    code = "game/invite_required"
    default = "this table is private: joining needs its invite code"


class NotInvited(Refused):
    code = "game/not_invited"
    default = "no open seat at this table is kept for you"


class NoRematch(Refused):
    code = "rematch/none"
    default = "no rematch is on offer at this table"


class NotCreator(Refused):
    code = "auth/not_your_seat"
    default = "only the table's creator may start it early"


class IdempotencyKeyReused(Refused):
    code = "request/idempotency_key_reused"
    default = "this Idempotency-Key was used for a different request; use a fresh key for a new request"


class ChallengeClosed(Refused):
    """An answer to a challenge answered already (``details.status``: what became of it)."""

    code = "challenge/closed"

    def __init__(self, status: str):
        super().__init__(f"this challenge is {status} already", {"status": status})


class NotYourChallenge(Refused):
    code = "challenge/not_yours"
    default = "only the challenged player accepts or declines a challenge, and only its challenger withdraws it"
