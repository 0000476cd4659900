"""`word_ids`: the id sequence of a sentence under a whole-word vocabulary with `<unk>` = 0.

Spec fields: `sentence` (text: words, spaces and the marks `. , ! ? ; :`), `vocab` (entries;
an entry's id is its index, and `vocab[0]` is `<unk>`). The rules, stated in every problem:
the sentence is split at spaces and every punctuation mark is a token of its own; a token
matches an entry exactly, capital letters included; a token not listed gets id 0. The answer
is the integer sequence of ids; a diagnosis's terms are token positions (0-based).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from ..shapes import IntegerSequence, Shape
from ..spec import SpecError
from ..verdict import Diagnosis
from .base import Kind, MistakeDef, Numbered, Step, Variant, register, variant

UNK = "<unk>"
PUNCTUATION = ".,!?;:"
MAX_SENTENCE_CHARS = 160
MAX_TOKENS = 24
MAX_VOCAB = 60
MAX_ENTRY_CHARS = 30
_TOKEN = re.compile(r"[.,!?;:]|[^\s.,!?;:]+")
_ALLOWED = re.compile(r"[^\W\d_]|[0-9 .,!?;:]")


def split_tokens(sentence: str) -> tuple[str, ...]:
    """Split at spaces and cut every punctuation mark off as a token of its own."""
    return tuple(_TOKEN.findall(sentence))


def _transposed_or_close(a: str, b: str) -> bool:
    """Return whether `a` is `b` with one letter added, dropped, changed or two swapped."""
    if a == b:
        return False
    if abs(len(a) - len(b)) > 1:
        return False
    if len(a) == len(b):
        diff = [k for k in range(len(a)) if a[k] != b[k]]
        if len(diff) == 1:
            return True
        return (
            len(diff) == 2
            and diff[1] == diff[0] + 1
            and a[diff[0]] == b[diff[1]]
            and a[diff[1]] == b[diff[0]]
        )
    short, long_ = (a, b) if len(a) < len(b) else (b, a)
    return any(long_[:k] + long_[k + 1 :] == short for k in range(len(long_)))


def look_alike(token: str, entry: str) -> bool:
    """Return whether a listed `entry` looks like the unlisted `token`: the token is an
    inflection of it (*running* for *run*) or a one-letter typo of it (*teh* for *the*).
    Entries differing only in letter case are not look-alikes (that is the case mistake)."""
    t, e = token.lower(), entry.lower()
    if t == e or len(e) < 3 or not e.isalpha():
        return False
    if t.startswith(e):
        return True
    return len(t) >= 3 and _transposed_or_close(t, e)


@dataclass(frozen=True)
class WordIdsProblem:
    sentence: str
    vocab: tuple[str, ...]
    tokens: tuple[str, ...]
    ids: tuple[int, ...]

    def unknown_positions(self) -> tuple[int, ...]:
        """Return the positions of tokens outside the vocabulary."""
        return tuple(k for k, i in enumerate(self.ids) if i == 0)

    def punctuation_positions(self) -> tuple[int, ...]:
        """Return the positions of punctuation tokens."""
        return tuple(k for k, t in enumerate(self.tokens) if t in PUNCTUATION)

    def look_alikes(self, position: int) -> tuple[int, ...]:
        """Return the ids of listed look-alikes of the unknown token at `position`."""
        token = self.tokens[position]
        return tuple(i for i, e in enumerate(self.vocab) if i > 0 and look_alike(token, e))

    def lowercase_id(self, position: int) -> int | None:
        """Return the id of the token's lowercase form when that is a different listed entry."""
        token = self.tokens[position]
        lower = token.lower()
        if lower == token or lower not in self.vocab:
            return None
        return self.vocab.index(lower)


def _word(token: str) -> str:
    return "*" + re.sub(r"([\\`*_\[\]])", r"\\\1", token) + "*"


def _seq(values: tuple[int, ...]) -> str:
    return "[" + ", ".join(str(v) for v in values) + "]"


def _positions(positions: tuple[int, ...], p: WordIdsProblem) -> str:
    named = [f"{_word(p.tokens[k])} (position {k + 1})" for k in positions]
    if len(named) == 1:
        return named[0]
    return ", ".join(named[:-1]) + " and " + named[-1]


def _right_ids(p: WordIdsProblem) -> str:
    return f"The ids are {_seq(p.ids)}."


# --- the mistakes ---------------------------------------------------------------------------


def _dropped_unknowns_variants(p: WordIdsProblem) -> list[Variant]:
    unknown = p.unknown_positions()
    return [variant("dropped_unknowns", unknown)] if unknown else []


def _dropped_unknowns_apply(p: WordIdsProblem, v: Any) -> tuple[int, ...]:
    return tuple(i for k, i in enumerate(p.ids) if k not in v.terms)


def _dropped_unknowns_explain(p: WordIdsProblem, d: Diagnosis) -> str:
    return (
        f"Your answer leaves out {_positions(d.terms, p)}, which the list does not hold. A word "
        f"outside the list still takes its place in the sequence, with the id of `<unk>`, 0: "
        f"the model sees that something was there, not what. {_right_ids(p)}"
    )


def _look_alike_variants(p: WordIdsProblem) -> list[Variant]:
    out: list[Variant] = []
    chosen: dict[int, int] = {}
    for k in p.unknown_positions():
        for i in p.look_alikes(k):
            out.append(variant("look_alike", (k,), {"ids": {str(k): i}}))
            chosen.setdefault(k, i)
    if len(chosen) > 1:
        terms = tuple(sorted(chosen))
        out.append(variant("look_alike", terms, {"ids": {str(k): i for k, i in chosen.items()}}))
    return out


def _look_alike_apply(p: WordIdsProblem, v: Any) -> tuple[int, ...]:
    used = {int(k): int(i) for k, i in v.detail["ids"].items()}
    return tuple(used.get(k, i) for k, i in enumerate(p.ids))


def _look_alike_explain(p: WordIdsProblem, d: Diagnosis) -> str:
    used = {int(k): int(i) for k, i in d.detail.get("ids", {}).items()}
    parts = [
        f"at position {k + 1} you gave {i}, the id of {_word(p.vocab[i])}, for {_word(p.tokens[k])}"
        for k, i in sorted(used.items())
    ]
    text = "; ".join(parts)
    return (
        f"{text[0].upper()}{text[1:]}. A whole-word vocabulary matches exact words only: "
        f"{' and '.join(_word(p.tokens[k]) for k in sorted(used))} "
        f"{'is' if len(used) == 1 else 'are'} not in the list, so "
        f"{'it gets' if len(used) == 1 else 'they get'} the id of `<unk>`, 0, however much "
        f"{'it looks' if len(used) == 1 else 'they look'} like a listed word. {_right_ids(p)}"
    )


def _by_position_variants(p: WordIdsProblem) -> list[Variant]:
    return [variant("ids_by_position", (), {"start": s}) for s in (0, 1)]


def _by_position_apply(p: WordIdsProblem, v: Any) -> tuple[int, ...]:
    start = int(v.detail["start"])
    return tuple(range(start, start + len(p.ids)))


def _by_position_explain(p: WordIdsProblem, d: Diagnosis) -> str:
    start = int(d.detail.get("start", 0))
    return (
        f"Your answer numbers the tokens by their positions ({start}, {start + 1}, "
        f"{start + 2}, ...). A token's id is not where it stands in the sentence but where it "
        f"stands in the vocabulary: look each token up in the list, so the same word always "
        f"gets the same id. {_right_ids(p)}"
    )


def _ignored_case_variants(p: WordIdsProblem) -> list[Variant]:
    used = {k: p.lowercase_id(k) for k in range(len(p.tokens))}
    used = {k: i for k, i in used.items() if i is not None}
    if not used:
        return []
    return [
        variant("ignored_case", tuple(sorted(used)), {"ids": {str(k): i for k, i in used.items()}})
    ]


def _ignored_case_explain(p: WordIdsProblem, d: Diagnosis) -> str:
    used = {int(k): int(i) for k, i in d.detail.get("ids", {}).items()}
    parts = []
    for k, i in sorted(used.items()):
        token = p.tokens[k]
        own = p.ids[k]
        what = (
            f"listed with its capital as id {own}"
            if own
            else "not listed with its capital, so it is unknown, 0"
        )
        parts.append(
            f"at position {k + 1} you gave {i}, the id of {_word(p.vocab[i])}, for "
            f"{_word(token)}, which is {what}"
        )
    text = "; ".join(parts)
    return (
        f"{text[0].upper()}{text[1:]}. This vocabulary tells capital letters apart: "
        f"*The* and *the* are different entries. {_right_ids(p)}"
    )


def _dropped_punctuation_variants(p: WordIdsProblem) -> list[Variant]:
    marks = p.punctuation_positions()
    return [variant("dropped_punctuation", marks)] if marks else []


def _dropped_punctuation_explain(p: WordIdsProblem, d: Diagnosis) -> str:
    listed = [f"{_word(p.tokens[k])} at position {k + 1} (id {p.ids[k]})" for k in d.terms]
    return (
        f"Your answer leaves out the punctuation: {', '.join(listed)}. Here every punctuation "
        f"mark is a token of its own and gets its own id, like a word. {_right_ids(p)}"
    )


def _changed_apply(p: WordIdsProblem, v: Any) -> tuple[int, ...]:
    used = {int(k): int(i) for k, i in v.detail["ids"].items()}
    return tuple(used.get(k, i) for k, i in enumerate(p.ids))


MISTAKES = (
    MistakeDef(
        code="dropped_unknowns",
        number=1,
        label="left the unknown words out",
        parts="[k, ...]: the unknown tokens' positions",
        variants=_dropped_unknowns_variants,
        apply=_dropped_unknowns_apply,
        explain=_dropped_unknowns_explain,
    ),
    MistakeDef(
        code="look_alike",
        number=2,
        label="gave an unknown word a listed look-alike's id",
        parts="[k, ...]: the unknown tokens' positions",
        variants=_look_alike_variants,
        apply=_look_alike_apply,
        explain=_look_alike_explain,
    ),
    MistakeDef(
        code="ids_by_position",
        number=3,
        label="numbered the tokens by position",
        parts="[]",
        variants=_by_position_variants,
        apply=_by_position_apply,
        explain=_by_position_explain,
    ),
    MistakeDef(
        code="ignored_case",
        number=4,
        label="ignored capital letters",
        parts="[k, ...]: the capitalised tokens' positions",
        variants=_ignored_case_variants,
        apply=_changed_apply,
        explain=_ignored_case_explain,
    ),
    MistakeDef(
        code="dropped_punctuation",
        number=5,
        label="left the punctuation out",
        parts="[k, ...]: the punctuation tokens' positions",
        variants=_dropped_punctuation_variants,
        apply=_dropped_unknowns_apply,
        explain=_dropped_punctuation_explain,
    ),
)


def _load_sentence(spec: dict[str, Any]) -> str:
    sentence = spec.get("sentence")
    if not isinstance(sentence, str) or not sentence.strip():
        raise SpecError("sentence", "is required and must be a non-empty string")
    if len(sentence) > MAX_SENTENCE_CHARS:
        raise SpecError("sentence", f"must have at most {MAX_SENTENCE_CHARS} characters")
    for index, char in enumerate(sentence):
        if not _ALLOWED.fullmatch(char):
            raise SpecError(
                "sentence",
                f"character {index} ({char!r}) is not a letter, digit, space or one of "
                f"{' '.join(PUNCTUATION)}",
            )
    return sentence


def _load_vocab(spec: dict[str, Any]) -> tuple[str, ...]:
    vocab = spec.get("vocab")
    if not isinstance(vocab, list) or not 2 <= len(vocab) <= MAX_VOCAB:
        raise SpecError("vocab", f"is required and must be a list of 2 to {MAX_VOCAB} entries")
    if vocab[0] != UNK:
        raise SpecError("vocab[0]", f"must be {UNK!r}, the unknown entry with id 0")
    for index, entry in enumerate(vocab[1:], start=1):
        if (
            not isinstance(entry, str)
            or not 1 <= len(entry) <= MAX_ENTRY_CHARS
            or split_tokens(entry) != (entry,)
        ):
            raise SpecError(
                f"vocab[{index}]",
                f"must be one token: a word or one punctuation mark, at most "
                f"{MAX_ENTRY_CHARS} characters",
            )
    if len(set(vocab)) != len(vocab):
        raise SpecError("vocab", "lists an entry twice")
    return tuple(vocab)


@register
class WordIds(Kind):
    name = "word_ids"
    label = "Ids of a sentence under a whole-word vocabulary"
    # What its sentences number: token positions from 1.
    numbering = {"position": Numbered(lambda p: len(p.tokens))}
    mistakes = MISTAKES

    def load(self, spec: dict[str, Any]) -> WordIdsProblem:
        sentence = _load_sentence(spec)
        vocab = _load_vocab(spec)
        tokens = split_tokens(sentence)
        if len(tokens) > MAX_TOKENS:
            raise SpecError("sentence", f"must have at most {MAX_TOKENS} tokens")
        index = {e: i for i, e in enumerate(vocab)}
        ids = tuple(index.get(t, 0) for t in tokens)
        return WordIdsProblem(sentence, vocab, tokens, ids)

    def shape(self, problem: WordIdsProblem) -> Shape:
        return IntegerSequence(MAX_TOKENS + 6)

    def right(self, problem: WordIdsProblem) -> tuple[int, ...]:
        return problem.ids

    def size(self, problem: WordIdsProblem) -> int:
        return len(problem.tokens)

    def steps(self, problem: WordIdsProblem) -> tuple[Step, ...]:
        tokens = split_tokens(problem.sentence)
        listed = " · ".join(_word(t) for t in tokens)
        ids = []
        lines = []
        for k, token in enumerate(tokens):
            found = problem.vocab.index(token) if token in problem.vocab[1:] else 0
            ids.append(found)
            if found:
                lines.append(f"{_word(token)} (position {k + 1}) is entry {found}")
            else:
                lines.append(f"{_word(token)} (position {k + 1}) is not listed exactly: 0, `<unk>`")
        return (
            Step(
                f"Split at the spaces and cut each punctuation mark off: {len(tokens)} tokens, "
                f"{listed}."
            ),
            Step("Look each token up, capital letters included: " + "; ".join(lines) + "."),
            Step(f"The ids in order: {_seq(tuple(ids))}.", tuple(ids)),
        )

    def hint(self, problem: WordIdsProblem) -> str:
        return (
            "Split the sentence at spaces and cut every punctuation mark off as a token of its "
            "own; look each token up exactly as written, capitals included; a token not in the "
            "list gets 0."
        )
