"""The Tree on the Hill's numbers (rulebook "Tree on the Hill", p. 24)."""

from __future__ import annotations

TREE_SIZE = 4
""""Fully grown trans dimensional trees are comprised of 4 cards" in a numeric run without repeats."""
