"""What an explain report shows, as plain data.

The report is rendered from these records alone, never from a document or
a model, so rendering (and its escaping) can be tested with any text,
including hostile text, and a report can be built from saved results.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class BlockRow:
    """One text block and the evidence that decided it.

    ``probability`` is the learned model's (smoothed) content probability,
    ``None`` for methods without a model; ``rule`` names the rule that
    decided and ``reason`` says it in a sentence.
    """

    text: str
    kept: bool
    words: int
    density: float
    link_density: float
    probability: float | None
    rule: str
    reason: str


@dataclass(frozen=True)
class Curve:
    """Finn's cumulative tag curve: ``(position, tags so far)`` points.

    ``position`` counts tokens (words and tags) from the start of the body;
    ``span`` is BTE's plateau as a ``(first, last)`` position range, or
    ``None`` for a page without words.
    """

    points: list[tuple[float, float]]
    span: tuple[float, float] | None = None


@dataclass(frozen=True)
class FieldRow:
    """An article field, its value and the markup it was read from."""

    name: str
    value: str
    source: str


@dataclass(frozen=True)
class Report:
    """Everything one explain report shows."""

    source: str
    method: str
    blocks: list[BlockRow]
    density_threshold: float
    density_rule: str
    curve: Curve
    probability_threshold: float | None = None
    fields: list[FieldRow] = field(default_factory=list)
    scores: dict[str, float | int | str | None] = field(default_factory=dict)

    @property
    def kept(self) -> int:
        return sum(1 for b in self.blocks if b.kept)
