"""Every level description of docs/kinds.md as an executable property, checked over hundreds of
seeds per level (``LEVEL_SEEDS``, 300 by default), so a promise cannot drift from the code.

Each property is written from the words of the docs, with its own small check (code points,
byte lengths, edit distances, counts), not with the generator's helpers. The docs quote each
rule beside its test name. `greedy_loop`'s levels are checked against NumPy decoding in
test_greedy_loop.py (test_levels_keep_their_promises).
"""

import math
import os
import re
from collections import Counter
from fractions import Fraction
from math import isqrt

import pytest

import grading
from practice.generators import generate

SEEDS = int(os.environ.get("LEVEL_SEEDS", "300"))
LEVELS = (1, 2, 3, 4)


def specs(kind: str, level: int, seeds: int = SEEDS):
    for seed in range(seeds):
        yield seed, generate(kind, seed=seed, level=level)


def typo_of(listed: str, token: str) -> bool:
    """Return True when `token` is `listed` misspelt: two adjacent, different letters swapped,
    or one letter left out (*teh*, *libary*)."""
    swapped = any(
        listed[k] != listed[k + 1]
        and listed[:k] + listed[k + 1] + listed[k] + listed[k + 2 :] == token
        for k in range(len(listed) - 1)
    )
    return swapped or any(listed[:k] + listed[k + 1 :] == token for k in range(len(listed)))


def inflection_of(base: str, token: str) -> bool:
    """Return True when `token` is an inflection of `base`: a suffix (*painted*, *skipped*,
    *running*) or a vowel changed (*ran* for *run*)."""
    if token.startswith(base) and token[len(base) :] in ("ed", "ped", "ing", "ning"):
        return True
    diff = [k for k in range(len(base)) if len(token) == len(base) and base[k] != token[k]]
    return len(diff) == 1 and base[diff[0]] in "aeiou" and token[diff[0]] in "aeiou"


def adjacent_swap(listed: str, token: str) -> bool:
    """Return True when `token` is `listed` with two adjacent, different letters swapped."""
    return any(
        listed[k] != listed[k + 1]
        and listed[:k] + listed[k + 1] + listed[k] + listed[k + 2 :] == token
        for k in range(len(listed) - 1)
    )


# ---------------------------------------------------------------- page 1


@pytest.mark.parametrize("level", LEVELS)
def test_word_ids_levels(level):
    """An unlisted inflection at every level; from level 2 a name; from level 3 a comma inside
    and both *The* and *the* listed; at level 4 a typo. Every sentence starts with a
    capitalised listed word and ends with a mark."""
    for seed, spec in specs("word_ids", level):
        tokens = re.findall(r"[^\s.,!?]+|[.,!?]", spec["sentence"])
        vocab = set(spec["vocab"])
        first = tokens[0]
        assert first[0].isupper() and first.lower() in vocab, seed
        assert tokens[-1] in ".!?", seed
        unlisted = [t for t in tokens if t not in vocab]
        inflections = [t for t in unlisted if any(inflection_of(w, t) for w in vocab)]
        typos = [t for t in unlisted if t not in inflections and any(typo_of(w, t) for w in vocab)]
        assert inflections, (seed, spec["sentence"])
        names = [t for t in unlisted if t[0].isupper() and t.lower() not in vocab]
        assert bool(names) == (level >= 2), (seed, spec["sentence"])
        assert ("," in tokens[1:-1]) == (level >= 3), (seed, spec["sentence"])
        if level >= 3:
            assert first in vocab and first.lower() in vocab, seed
        assert len(typos) == (1 if level == 4 else 0), (seed, spec["sentence"])


def utf8_lengths(word: str) -> Counter:
    return Counter(len(ch.encode("utf-8")) for ch in word)


def legacy_differs(ch: str) -> bool:
    """Return True for a character Windows-1252 codes in 0x80-0x9F."""
    try:
        code = ch.encode("cp1252")
    except UnicodeEncodeError:
        return False
    return len(code) == 1 and 0x80 <= code[0] <= 0x9F


@pytest.mark.parametrize("level", LEVELS)
def test_utf8_bytes_levels(level):
    """Levels: one 2-byte character; two, one a Latin-1 accent (U+00C0-U+00FF) and one not; a
    3-byte symbol among ASCII; a 3-byte symbol and a 2-byte letter. Every word holds a
    character Windows-1252 codes in 0x80-0x9F."""
    expected = {1: {1: None, 2: 1}, 2: {2: 2}, 3: {3: 1}, 4: {3: 1, 2: 1}}[level]
    for seed, spec in specs("utf8_bytes", level, seeds=100):
        word = spec["word"]
        lengths = utf8_lengths(word)
        for size, count in expected.items():
            if count is not None:
                assert lengths[size] == count, (seed, word)
        assert set(lengths) <= {1, *expected}, (seed, word)
        assert any(legacy_differs(ch) for ch in word), (seed, word)
        if level == 2:
            two = [ch for ch in word if len(ch.encode("utf-8")) == 2]
            latin1 = [ch for ch in two if 0xC0 <= ord(ch) <= 0xFF]
            assert len(latin1) == 1, (seed, word)


# ---------------------------------------------------------------- page 2


@pytest.mark.parametrize("level", LEVELS)
def test_char_vs_word_unknowns_levels(level):
    """A rare name at every level; from level 2 a typo (two adjacent letters of a listed word
    swapped, so the word really changes); at level 3 also an unlisted long word; at level 4 an
    accented name with the latin table."""
    for seed, spec in specs("char_vs_word_unknowns", level):
        tokens, vocab = spec["tokens"], spec["vocab"]
        unlisted = [t for t in tokens if t not in vocab]
        name = tokens[0]
        assert name[0].isupper() and name not in vocab, seed
        typos = [t for t in unlisted if any(adjacent_swap(w, t) for w in vocab)]
        assert len(typos) == (1 if level >= 2 else 0), (seed, tokens)
        long_words = [t for t in unlisted[1:] if t not in typos]
        assert len(long_words) == (1 if level == 3 else 0), (seed, tokens)
        if level == 3:
            assert len(long_words[0]) >= 6
        accented = any(not ("a" <= ch.lower() <= "z") for ch in name)
        assert accented == (level == 4), (seed, name)
        if level == 4:
            assert spec["table"] == "latin"


def words_of(pieces: list[str]) -> list[list[str]]:
    """Group a passage's pieces into words: a piece with a leading space, the first piece and
    the first after a full stop start a word; a full stop is its own word."""
    words: list[list[str]] = []
    for piece in pieces:
        if piece == "." or not words or piece.startswith(" ") or words[-1] == ["."]:
            words.append([piece])
        else:
            words[-1].append(piece)
    return words


@pytest.mark.parametrize("level", LEVELS)
def test_sequence_lengths_levels(level):
    """One sentence at levels 1-3, two at level 4; a long word cut in two from level 2; a rare
    name cut in three or four from level 3 (levels 1-2 start with *She* or *He*)."""
    for seed, spec in specs("sequence_lengths", level):
        words = words_of(spec["pieces"])
        assert sum(w == ["."] for w in words) == (2 if level == 4 else 1), seed
        assert spec["pieces"][-1] == "."
        first = words[0]
        if level >= 3:
            assert len(first) in (3, 4), (seed, first)
        else:
            assert first in (["She"], ["He"]), (seed, first)
        cut_in_two = [w for w in words[1:] if len(w) == 2]
        assert len(cut_in_two) == (1 if level >= 2 else 0), (seed, words)
        assert all(len(w) == 1 for w in words[1:] if w not in cut_in_two), (seed, words)


# ---------------------------------------------------------------- page 3


def qualifies(pieces: list[str], letter: str) -> bool:
    """Return True when `letter` can be asked: doubled inside exactly one piece and nowhere
    else, in at least two pieces, and the right count, the pieces holding it, the double
    counted once and the doubled piece's own count all different."""
    text = "".join(pieces)
    doubled = [p for p in pieces if letter * 2 in p]
    if len(doubled) != 1 or text.count(letter * 2) != 1:
        return False
    holding = sum(letter in p for p in pieces)
    total = text.count(letter)
    return holding >= 2 and len({total, holding, total - 1, doubled[0].count(letter)}) == 4


@pytest.mark.parametrize("level", LEVELS)
def test_letters_in_pieces_levels(level):
    """A table of 7, 10, 14 or 18 rows (more when the phrase has many pieces), the phrase's
    pieces always among at least two distractors; three or four words (four or five at level 4,
    which adds a verb: a number may be two words, *three hundred*); the letter
    asked qualifies, and is *e* only when no other letter does."""
    rows = {1: 7, 2: 10, 3: 14, 4: 18}[level]
    for seed, spec in specs("letters_in_pieces", level):
        vocab, ids, letter = spec["vocab"], spec["ids"], spec["letter"]
        pieces = [vocab[i] for i in ids]
        own = set(pieces)
        assert len(vocab) - len(own) >= 2, (seed, vocab, pieces)
        assert len(vocab) == max(rows, len(own) + 2), seed
        words = sum(p.startswith(" ") for p in pieces) + 1
        assert words in ((4, 5) if level == 4 else (3, 4)), (seed, pieces)
        assert qualifies(pieces, letter), (seed, pieces, letter)
        others = [x for x in set("".join(pieces)) - {" ", "e"} if qualifies(pieces, x)]
        assert letter != "e" or not others, (seed, pieces, others)


# ---------------------------------------------------------------- page 7 (noise)


def rational_square(value: Fraction) -> bool:
    return isqrt(value.numerator) ** 2 == value.numerator and (
        isqrt(value.denominator) ** 2 == value.denominator
    )


@pytest.mark.parametrize("level", LEVELS)
def test_closed_form_noise_levels(level):
    """Three steps at levels 1-2, three or four at level 3, four at level 4; levels 1 and 3
    are paper-friendly (both sqrt(abar_t) and sqrt(1 - abar_t) rational), levels 2 and 4 keep
    a genuine square root; a number at levels 1-2, two coordinates at 3-4."""
    for seed, spec in specs("closed_form_noise", level):
        betas = [Fraction(b) for b in spec["betas"]]
        assert len(betas) in {1: (3,), 2: (3,), 3: (3, 4), 4: (4,)}[level], seed
        alpha_bar = Fraction(1)
        for beta in betas:
            alpha_bar *= 1 - beta
        friendly = rational_square(alpha_bar) and rational_square(1 - alpha_bar)
        assert friendly == (level in (1, 3)), (seed, spec["betas"])
        assert isinstance(spec["x0"], list) == (level >= 3)


# ---------------------------------------------------------------- the other text kinds


@pytest.mark.parametrize("level", LEVELS)
def test_bpe_train_levels(level):
    """3 words and 3 merges (counts up to 6), 4 and 3 (up to 8), 4 and 4 (up to 9), 5 and 4
    (up to 9)."""
    words, merges, high = {1: (3, 3, 6), 2: (4, 3, 8), 3: (4, 4, 9), 4: (5, 4, 9)}[level]
    for seed, spec in specs("bpe_train", level, seeds=100):
        assert len(spec["words"]) == words and spec["merges"] == merges, seed
        assert all(1 <= count <= high for _, count in spec["words"]), seed


@pytest.mark.parametrize("level", LEVELS)
def test_digit_chunks_levels(level):
    """A number of 4, 5, 7 or 8, and 8 or 10 digits (never a multiple of 3); the marked digit
    nonzero, before the last piece (from the left), at most 6 digits from the end."""
    for seed, spec in specs("digit_chunks", level):
        number, marked = spec["number"], spec["marked"]
        assert len(number) in {1: (4,), 2: (5,), 3: (7, 8), 4: (8, 10)}[level], seed
        assert len(number) % 3 != 0 and spec["group"] == 3
        assert number[marked] != "0", seed
        assert marked < len(number) - len(number) % 3, seed  # not in the last, short piece
        assert len(number) - 1 - marked <= 6, seed


@pytest.mark.parametrize("level", LEVELS)
def test_attention_cost_levels(level):
    """Full mask at level 1, causal at levels 2 and 4, either at level 3; lengths from 2 and 4
    up to 11 and 49; n = 3 never drawn."""
    masks = set()
    for seed, spec in specs("attention_cost", level):
        short, long = spec["short"], spec["long"]
        masks.add(spec["mask"])
        assert 2 <= short <= 11 and 4 <= long <= 49 and short < long, seed
        assert 3 not in (short, long), seed
    assert masks == {1: {"full"}, 2: {"causal"}, 3: {"full", "causal"}, 4: {"causal"}}[level]


@pytest.mark.parametrize("level", LEVELS)
def test_cooccurrence_row_levels(level):
    """2 sentences, window 2, 4 context words; 3, 2, 4; 3, 2 or 3, 5; 4, 3, 6. The context
    list holds the target itself."""
    sentences, windows, context = {
        1: (2, {2}, 4),
        2: (3, {2}, 4),
        3: (3, {2, 3}, 5),
        4: (4, {3}, 6),
    }[level]
    seen = set()
    for seed, spec in specs("cooccurrence_row", level, seeds=150):
        assert len(spec["sentences"]) == sentences, seed
        assert len(spec["context"]) == context and spec["word"] in spec["context"], seed
        seen.add(spec["window"])
    assert seen == windows


@pytest.mark.parametrize("level", LEVELS)
def test_cosine_similarity_levels(level):
    """2-D rows with entries 0..3 at level 1, 2-D -3..4, 3-D -2..3, 4-D -2..2."""
    dim, low, high = {1: (2, 0, 3), 2: (2, -3, 4), 3: (3, -2, 3), 4: (4, -2, 2)}[level]
    for seed, spec in specs("cosine_similarity", level):
        for row in spec["rows"]:
            assert len(row) == dim and all(low <= int(x) <= high for x in row), seed


def cosine(query: list[int], row: list[str]) -> float:
    values = [int(x) for x in row]
    dot = sum(a * b for a, b in zip(query, values, strict=True))
    return dot / (sum(a * a for a in query) * sum(b * b for b in values)) ** 0.5


@pytest.mark.parametrize("level", LEVELS)
def test_nearest_by_cosine_levels(level):
    """4 candidates at levels 1-2, 5 at levels 3-4, in 2, 2, 3, 4 dimensions; the synonym is
    among them and never the cosine winner."""
    count, dim = {1: (4, 2), 2: (4, 2), 3: (5, 3), 4: (5, 4)}[level]
    for seed, spec in specs("nearest_by_cosine", level, seeds=150):
        assert len(spec["candidates"]) == count and len(spec["query_row"]) == dim, seed
        query = [int(x) for x in spec["query_row"]]
        winner = max(range(count), key=lambda k: cosine(query, spec["rows"][k]))
        assert spec["synonym"] in spec["candidates"], seed
        assert spec["candidates"][winner] != spec["synonym"], seed


@pytest.mark.parametrize("level", LEVELS)
def test_repetition_penalty_levels(level):
    """Three pieces at level 1 (T = 2), four at levels 2-3 and five at level 4 (T = 1/2);
    theta = 2; the text so far is a phrase written twice."""
    pieces = {1: 3, 2: 4, 3: 4, 4: 5}[level]
    for seed, spec in specs("repetition_penalty", level, seeds=150):
        assert len(spec["pieces"]) == pieces and spec["penalty"] == "2", seed
        assert spec["temperature"] == ("2" if level == 1 else "1/2"), seed
        text = spec["text"]
        half = len(text) // 2
        assert len(text) % 2 == 0 and text[:half] == text[half:], seed


@pytest.mark.parametrize("level", LEVELS)
def test_greedy_steps_levels(level):
    """3, 4, 5, 6 pieces and 3, 3, 4, 5 steps; every row's scores distinct whole numbers
    0..9."""
    pieces, steps = {1: (3, 3), 2: (4, 3), 3: (5, 4), 4: (6, 5)}[level]
    for seed, spec in specs("greedy_steps", level):
        assert len(spec["pieces"]) == pieces and spec["steps"] == steps, seed
        for row in spec["scores"]:
            values = [int(x) for x in row]
            assert len(set(values)) == len(values) and all(0 <= v <= 9 for v in values), seed


@pytest.mark.parametrize("level", LEVELS)
def test_whitespace_pieces_levels(level):
    """The example line indented by 4 (level 1), 4 or 8 (levels 2-3), 6, 10 or 12 (level 4);
    the new line by one space more or less."""
    indents = {1: {4}, 2: {4, 8}, 3: {4, 8}, 4: {6, 10, 12}}[level]
    for seed, spec in specs("whitespace_pieces", level):
        example, line = spec["example"], spec["line"]
        width = len(example) - len(example.lstrip(" "))
        assert width in indents, seed
        assert abs((len(line) - len(line.lstrip(" "))) - width) == 1, seed
        assert line.strip() == example.strip(), seed


# ---------------------------------------------------------------- the arrow kinds, two layers


ARROW_TABLE = {
    # level: (dim, words, low, high) for weighted_sum and contrast; lookup's ranges and
    # vocabulary size; content_weights' words and ranges (docs/kinds.md, **Levels**)
    1: ((2, {3}, 0, 2), (0, 2, 6), ({3}, -1, 1)),
    2: ((2, {4}, -2, 2), (-1, 2, 7), ({3, 4}, -1, 2)),
    3: ((3, {4, 5}, -2, 2), (-2, 2, 8), ({4}, -1, 1)),
    4: ((4, {5, 6}, -2, 3), (-2, 3, 10), ({5}, -1, 1)),
}
DENOMINATORS = {1: (4, 5, 6), 2: (5, 6, 8), 3: (6, 8, 10), 4: (8, 10, 12)}


def within(rows: list[list[str]], dim: int, low: int, high: int) -> bool:
    return all(len(row) == dim and all(low <= Fraction(x) <= high for x in row) for row in rows)


def weights_keep_their_rule(weights: list[str], position: int, level: int) -> bool:
    """Positive fractions with a common denominator of the level's list (4 to 12), summing to
    1, the self weight among them."""
    values = [Fraction(w) for w in weights]
    common = math.lcm(*(v.denominator for v in values))
    return (
        all(v > 0 for v in values)
        and sum(values) == 1
        and any(d % common == 0 for d in DENOMINATORS[level])
        and values[position] > 0
    )


@pytest.mark.parametrize("level", LEVELS)
def test_arrow_kinds_levels(level):
    """The **Levels** table: dimensions, words in the sentence and the rows' entries of
    weighted_sum and contrast, lookup (and its vocabulary size), content_weights."""
    (dim, words, low, high), (lookup_low, lookup_high, size), content = ARROW_TABLE[level]
    for seed, spec in specs("weighted_sum", level, seeds=150):
        assert len(spec["tokens"]) in words and within(spec["rows"], dim, low, high), seed
        assert weights_keep_their_rule(spec["weights"], spec["position"], level), seed
    for seed, spec in specs("contrast", level, seeds=150):
        assert len(spec["tokens_a"]) in words and len(spec["tokens_b"]) in words, seed
        assert within(spec["rows_a"] + spec["rows_b"], dim, low, high), seed
        assert weights_keep_their_rule(spec["weights"], spec["position"], level), seed
    for seed, spec in specs("lookup", level, seeds=150):
        assert len(spec["tokens"]) in words and len(spec["vocab"]) == size, seed
        assert within(spec["table"], dim, lookup_low, lookup_high), seed
    content_words, content_low, content_high = content
    for seed, spec in specs("content_weights", level, seeds=40):
        assert len(spec["tokens"]) in content_words, seed
        assert within(spec["rows"], dim, content_low, content_high), seed


@pytest.mark.parametrize("level", LEVELS)
def test_two_layers_levels(level):
    """A left-to-right window at levels 1-2, both ways at 3-4; three-dimensional rows at level
    4; a second sentence at level 2 always, at level 3 when the sentence has room, never at 1
    or 4; the position at least two places from the edge the window looks towards."""
    seconds = set()
    for seed, spec in specs("two_layers", level, seeds=150):
        window, position, n = spec["window"], spec["position"], len(spec["tokens"])
        assert window == ("previous" if level <= 2 else "both"), seed
        assert all(len(row) == (3 if level == 4 else 2) for row in spec["rows"]), seed
        assert position >= 2 and (window == "previous" or position <= n - 3), seed
        seconds.add("tokens_b" in spec)
    assert seconds == {1: {False}, 2: {True}, 3: {True, False}, 4: {False}}[level]


@pytest.mark.parametrize("level", LEVELS)
def test_predict_clean_levels(level):
    """Levels 1 and 3: abar_t and 1 - abar_t squares of rationals, so the answer is rational (a
    whole number at level 1); levels 2 and 4: a genuine square root; a number at levels 1-2,
    two coordinates at level 3, two or three at level 4; beta at most 1 - abar_t."""
    for seed, spec in specs("predict_clean", level, seeds=150):
        alpha_bar, beta = Fraction(spec["alpha_bar"]), Fraction(spec["beta"])
        assert 0 < beta <= 1 - alpha_bar, seed
        square = rational_square(alpha_bar) and rational_square(1 - alpha_bar)
        assert square == (level in (1, 3)), seed
        vector = isinstance(spec["x_t"], list)
        assert vector == (level >= 3)
        if vector:
            assert len(spec["x_t"]) in {3: (2,), 4: (2, 3)}[level], seed
        if level == 1:
            answer = grading.expected_answer(spec)
            assert Fraction(answer).denominator == 1, (seed, answer)


@pytest.mark.parametrize("level", LEVELS)
def test_noise_step_levels(level):
    """Levels 1 and 3: beta with sqrt(beta) and sqrt(1 - beta) rational; levels 2 and 4: a
    genuine square root; a number at levels 1-2, 2 and 3 coordinates at levels 3 and 4; the
    stated variance v is never 1."""
    for seed, spec in specs("noise_step", level, seeds=150):
        beta = Fraction(spec["beta"])
        square = rational_square(beta) and rational_square(1 - beta)
        assert square == (level in (1, 3)), seed
        dim = {1: None, 2: None, 3: 2, 4: 3}[level]
        assert (len(spec["x_prev"]) if isinstance(spec["x_prev"], list) else None) == dim
        assert Fraction(spec["variance"]) != 1, seed


@pytest.mark.parametrize("level", LEVELS)
def test_bpe_apply_levels(level):
    """A merge list of 3 to 8 merges, each joining letters or pieces earlier merges made; at
    levels 1-2 every merge joins letters of the word, levels 3 and 4 add up to one and two
    merges from other words."""
    others = {1: 0, 2: 0, 3: 1, 4: 2}[level]
    for seed, spec in specs("bpe_apply", level, seeds=150):
        merges = spec["merges"]
        assert 3 <= len(merges) <= 8, seed
        made: set[str] = set()
        for a, b in merges:
            assert all(len(x) == 1 or x in made for x in (a, b)), (seed, merges)
            made.add(a + b)
        foreign = [a + b for a, b in merges if a + b not in spec["word"]]
        assert len(foreign) <= others, (seed, foreign)
