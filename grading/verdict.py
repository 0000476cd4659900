"""The Verdict and the Diagnosis: what grading hands back, as frozen plain data."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, TypeVar

T = TypeVar("T")


def filled(cls: type[T], fields: dict[str, Any]) -> T:
    """Return the instance of a frozen dataclass (one without `__post_init__` or slots) that
    `cls(**fields)` makes, `fields` naming every field in order, with its `__dict__` filled
    at once instead of the generated `__init__`'s object.__setattr__ per field: for the few
    objects every answer makes (its Reading, Diagnosis, Verdict and Loaded)."""
    made = object.__new__(cls)
    made.__dict__.update(fields)
    return made


class Status(StrEnum):
    CORRECT = "correct"
    INCORRECT = "incorrect"
    INVALID = "invalid"


@dataclass(frozen=True)
class Diagnosis:
    """Name one catalogued mistake: its code, the 0-based terms it concerns, and details.

    `mistake` is the mistake's code (a string, unique within the problem's kind); `terms` index
    what the kind's catalog says they do (terms of a sum, positions, steps).

    `detail` holds JSON-ready facts such as the weight (`"weight": "1/2"`) or the row
    (`"row": 2`) the learner used; it takes no part in hashing.
    """

    mistake: str
    terms: tuple[int, ...] = ()
    coordinate: int | None = None
    detail: dict[str, Any] = field(default_factory=dict, hash=False)

    @property
    def code(self) -> str:
        """Return the mistake's code (as a Variant names it)."""
        return self.mistake

    @classmethod
    def named(cls, mistake: str, terms: tuple[int, ...], detail: dict[str, Any]) -> Diagnosis:
        """Return Diagnosis(mistake, terms, detail=detail) quickly (`filled`)."""
        return filled(
            cls, {"mistake": mistake, "terms": terms, "coordinate": None, "detail": detail}
        )

    def to_dict(self) -> dict[str, Any]:
        """Return the stored JSON form (docs/grading.md), with `detail`."""
        return {
            "mistake": str(self.mistake),
            "terms": list(self.terms),
            "coordinate": self.coordinate,
            "detail": dict(self.detail),
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Diagnosis:
        """Rebuild a Diagnosis from `to_dict()` output."""
        return cls(
            mistake=str(data["mistake"]),
            terms=tuple(int(t) for t in data.get("terms", ())),
            coordinate=data.get("coordinate"),
            detail=dict(data.get("detail") or {}),
        )


@dataclass(frozen=True)
class Verdict:
    """Carry the mark for one answer, with the reason a learner can act on."""

    status: Status
    score: float
    interpreted: str = ""
    diagnosis: Diagnosis | None = None
    explanation: str = ""
    message: str = ""
    notes: tuple[str, ...] = ()

    @classmethod
    def marked(
        cls,
        status: Status,
        score: float,
        interpreted: str,
        diagnosis: Diagnosis | None,
        explanation: str,
        notes: tuple[str, ...] = (),
    ) -> Verdict:
        """Return Verdict(status, score, interpreted, diagnosis, explanation, notes=notes)
        quickly (`filled`)."""
        return filled(
            cls,
            {
                "status": status,
                "score": score,
                "interpreted": interpreted,
                "diagnosis": diagnosis,
                "explanation": explanation,
                "message": "",
                "notes": notes,
            },
        )

    def to_dict(self) -> dict[str, Any]:
        """Return the JSON stored with an attempt (docs/grading.md), with `"notes"`."""
        return {
            "status": str(self.status),
            "score": float(self.score),
            "interpreted": self.interpreted,
            "diagnosis": self.diagnosis.to_dict() if self.diagnosis else None,
            "explanation": self.explanation,
            "message": self.message,
            "notes": list(self.notes),
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Verdict:
        """Rebuild a Verdict from `to_dict()` output."""
        diagnosis = data.get("diagnosis")
        return cls(
            status=Status(data["status"]),
            score=float(data.get("score", 0.0)),
            interpreted=data.get("interpreted", ""),
            diagnosis=Diagnosis.from_dict(diagnosis) if diagnosis else None,
            explanation=data.get("explanation", ""),
            message=data.get("message", ""),
            notes=tuple(data.get("notes") or ()),
        )
