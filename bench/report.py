"""Rows of figures, the targets they are held to, the printed table and the JSON file."""

from __future__ import annotations

import json
import math
import os
import platform
import subprocess
import sys
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any


@dataclass
class Row:
    """One figure, optionally beside its same-run baseline and held to a target on their ratio."""

    section: str
    name: str
    value: float
    unit: str
    baseline: float | None = None
    baseline_name: str = ""
    target: str = ""
    verdict: str = ""  # PASS, MISS, or "" for a figure without a target
    note: str = ""

    @property
    def ratio(self) -> float | None:
        if self.baseline in (None, 0) or self.value is None:
            return None
        return self.value / self.baseline

    def to_json(self) -> dict[str, Any]:
        return {**asdict(self), "ratio": self.ratio}


@dataclass
class Report:
    rows: list[Row] = field(default_factory=list)
    details: dict[str, Any] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)  # printed under the table: what was not measured, and why

    def add(self, row: Row) -> Row:
        self.rows.append(row)
        return row

    def figure(self, section: str, name: str, value: float, unit: str, note: str = "") -> Row:
        return self.add(Row(section, name, value, unit, note=note))

    def compare(self, section: str, name: str, value: float, unit: str, baseline: float, baseline_name: str,
                target: str = "", holds: Callable[[float], bool] | None = None, note: str = "") -> Row:
        """A figure against its baseline; with ``holds`` the ratio is judged PASS or MISS."""
        row = Row(section, name, value, unit, baseline, baseline_name, target, note=note)
        if holds is not None:
            row.verdict = "PASS" if row.ratio is not None and holds(row.ratio) else "MISS"
        return self.add(row)

    def limit(self, section: str, name: str, value: float, unit: str, target: str, holds: Callable[[float], bool],
              baseline: float | None = None, baseline_name: str = "", note: str = "") -> Row:
        """A figure held to an absolute bound (``holds`` judges the figure, not a ratio); a baseline, when
        given, is shown beside it for scale."""
        row = Row(section, name, value, unit, baseline, baseline_name, target, note=note)
        row.verdict = "PASS" if value is not None and not math.isnan(value) and holds(value) else "MISS"
        return self.add(row)

    @property
    def misses(self) -> list[Row]:
        return [r for r in self.rows if r.verdict == "MISS"]

    def table(self) -> str:
        head = ("section", "measure", "figure", "baseline (same run)", "ratio", "target", "")
        lines = [head]
        for r in self.rows:
            base = f"{fmt(r.baseline)} {r.baseline_name}".strip() if r.baseline is not None else ""
            ratio = f"{r.ratio:.2f}x" if r.ratio is not None else ""
            lines.append((r.section, r.name, f"{fmt(r.value)} {r.unit}", base, ratio, r.target, r.verdict))
        widths = [max(len(line[i]) for line in lines) for i in range(len(head))]
        out = []
        for i, line in enumerate(lines):
            out.append("  ".join(cell.ljust(w) for cell, w in zip(line, widths)).rstrip())
            if i == 0:
                out.append("  ".join("-" * w for w in widths))
        targets = [r for r in self.rows if r.verdict]
        out.append("")
        out.append(f"targets: {sum(r.verdict == 'PASS' for r in targets)} PASS, {len(self.misses)} MISS")
        out.extend(f"note: {note}" for note in self.notes)
        return "\n".join(out)

    def write(self, folder: Path, meta: dict[str, Any]) -> Path:
        folder.mkdir(parents=True, exist_ok=True)
        stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ")
        path = folder / f"bench-{stamp}{'-quick' if meta.get('quick') else ''}.json"
        payload = {**meta, "rows": [r.to_json() for r in self.rows], "details": self.details, "notes": self.notes,
                   "targets": {"pass": sum(r.verdict == "PASS" for r in self.rows), "miss": len(self.misses)}}
        path.write_text(json.dumps(payload, indent=2, default=str) + "\n")
        return path


def fmt(value: float | None) -> str:
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "-"
    magnitude = abs(value)
    if magnitude >= 1000:
        return f"{value:,.0f}"
    if magnitude >= 100:
        return f"{value:.0f}"
    if magnitude >= 10:
        return f"{value:.1f}"
    if magnitude >= 1:
        return f"{value:.2f}"
    return f"{value:.3g}"


def percentile(values: list[float], q: float) -> float:
    """The q-th percentile (0-100) by the nearest-rank method; NaN for no values."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    rank = max(1, math.ceil(q / 100 * len(ordered)))
    return ordered[rank - 1]


def machine() -> dict[str, Any]:
    """What the figures were measured on."""
    cpu = ""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    memory_gib = None
    try:
        kib = int(next(line for line in Path("/proc/meminfo").read_text().splitlines() if line.startswith("MemTotal")).split()[1])
        memory_gib = round(kib / 1024 / 1024, 1)
    except (OSError, StopIteration, ValueError):
        pass
    commit = ""
    try:
        commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True, timeout=5).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        pass
    return {
        "date": datetime.now(UTC).isoformat(timespec="seconds"),
        "cpu": cpu,
        "cores": os.cpu_count(),
        "memory_gib": memory_gib,
        "os": platform.platform(),
        "python": sys.version.split()[0],
        "commit": commit,
    }
