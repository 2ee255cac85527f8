"""Which challenges ``mythos bot run`` accepts (``--accept``): a comma-separated list of conditions, every one of which
a challenge must meet: ``all`` (any), ``none`` (decline them all), ``casual`` or ``rated``, ``bots`` or ``people``
(who challenges). Beyond the policy the runner declines a challenge to a game its bot does not play, or one that comes
while it plays as many games as it may at once, or once it stops: every challenge gets an answer."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

WORDS = ("all", "none", "casual", "rated", "bots", "people")


@dataclass(frozen=True)
class Policy:
    conditions: frozenset[str]

    @classmethod
    def parse(cls, text: str) -> Policy:
        words = frozenset(w.strip() for w in text.split(",") if w.strip())
        unknown = sorted(words - set(WORDS))
        if unknown or not words:
            raise ValueError(f"--accept takes {', '.join(WORDS)} (several joined by commas), not {text!r}")
        for pair in (("casual", "rated"), ("bots", "people"), ("all", "none")):
            if set(pair) <= words:
                raise ValueError(f"--accept {text!r}: {pair[0]} and {pair[1]} together accept nothing; say none")
        return cls(words)

    def refuses(self, challenge: Mapping[str, Any]) -> str | None:
        """Why this challenge is declined, in words; None when the policy accepts it."""
        rated, by_bot = bool(challenge.get("rated")), bool((challenge.get("challenger") or {}).get("bot"))
        for word, refused, why in (("none", True, "this bot accepts no challenges"),
                                   ("casual", rated, "this bot plays casual games only"),
                                   ("rated", not rated, "this bot plays rated games only"),
                                   ("bots", not by_bot, "this bot plays other bots only"),
                                   ("people", by_bot, "this bot plays people only")):
            if word in self.conditions and refused:
                return why
        return None
