"""A picture whose labels are placed last, off everything drawn before them.

The number-line and bar pictures (the noise kinds, the layer diagrams) draw their shapes and
fixed texts first, each one an obstacle or a segment, then hand every movable label to
``labels.place`` in one pass, so no label covers a bar, a dot, a line or another label.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from . import labels, svg
from .labels import Box, Candidate, Label, Segment


@dataclass
class Sketch:
    """Collect a picture's elements, the lines and boxes labels keep off, and the labels."""

    body: list[str] = field(default_factory=list)
    segments: list[Segment] = field(default_factory=list)
    obstacles: list[Box] = field(default_factory=list)
    pending: list[tuple[Label, dict[str, Any]]] = field(default_factory=list)

    def fixed(self, x: float, y: float, content: str, anchor: str = "start", **extra: Any) -> None:
        """Write a text whose place is fixed, and keep the placed labels off it."""
        self.body.append(svg.text(x, y, content, text_anchor=anchor, **extra))
        self.obstacles.append(labels.text_box(x, y, content, size=12, anchor=anchor))

    def keep_off(self, left: float, top: float, right: float, bottom: float) -> None:
        """Keep the placed labels out of a box (a bar, a dot) drawn by the caller."""
        self.obstacles.append(Box(left, top, right, bottom))

    def dot(self, x: float, y: float, r: float, **extra: Any) -> None:
        """Draw a dot the labels keep off."""
        self.body.append(svg.circle(x, y, r, **extra))
        self.keep_off(x - r, y - r, x + r, y + r)

    def label(
        self,
        content: str,
        candidates: Sequence[Candidate],
        bounds: Box | None,
        **attributes: Any,
    ) -> None:
        """Queue a label at 12 px, to go at its first free candidate within ``bounds``."""
        self.pending.append((Label(content, 12, tuple(candidates), bounds), attributes))

    def place_labels(self) -> None:
        """Place the queued labels (in order) and write them after the elements."""
        queued = self.pending
        spots = labels.place(
            [label for label, _ in queued], segments=self.segments, obstacles=self.obstacles
        )
        self.body += [
            labels.svg_text(spot, **attributes)
            for spot, (_, attributes) in zip(spots, queued, strict=True)
        ]
        self.pending = []
