"""Sentences are English: every slot of every frame takes only words of its class (a count noun
after "the", a plural after "made" or "many", an adverb after a verb of motion, a past verb after
the subject). Each class is checked with its own spelling test (plurals end in -s, adverbs in
-ly, singular count nouns do not end in -s), independently of the classes the data declares."""

import pytest

from practice.generators.words import characters, vocab
from practice.generators.words.characters import (
    ADVERB,
    FRAMES,
    NOUN,
    PAST,
    PIECES,
    PLURAL,
    SLOT_CLASSES,
    WORD_CLASS,
    long_slot,
)

MASS_NOUNS = {"ink", "wax", "money", "water", "rain", "sand", "tea", "paper", "music"}
PAST_FORMS = {"rebuilt", "painted", "crossed", "found", "left", "made", "watched"}


def spelled_as(word: str, word_class: str) -> bool:
    """Return True when `word` is spelled as its class: a plural ends in -s, a singular count
    noun does not, an adverb ends in -ly, a past verb is one of the known past forms."""
    return {
        PLURAL: word.endswith("s") and word not in MASS_NOUNS,
        NOUN: not word.endswith("s") and word not in MASS_NOUNS,
        ADVERB: word.endswith("ly"),
        PAST: word in PAST_FORMS or word.endswith("ed"),
    }[word_class]


# What the word before a slot asks of it (the frames put every slot after one of these).
BEFORE_SLOT = {"the": {NOUN, PLURAL}, "made": {PLURAL}, "home": {ADVERB}, "{name}": {PAST}}


def test_every_long_word_is_spelled_as_its_declared_class():
    assert set(WORD_CLASS) == set(PIECES)
    for word, word_class in WORD_CLASS.items():
        assert spelled_as(word, word_class), (word, word_class)


@pytest.mark.parametrize("frame", FRAMES)
def test_every_frame_slot_takes_only_words_its_place_allows(frame):
    slot = long_slot(frame)
    if slot is None:
        assert "{" not in frame.replace("{name}", "")
        return
    words = frame.split(" ")
    before = words[words.index(slot) - 1]
    allowed = BEFORE_SLOT[before]
    assert set(SLOT_CLASSES[slot]) <= allowed, (frame, slot)
    fitting = [w for w in PIECES if WORD_CLASS[w] in SLOT_CLASSES[slot]]
    assert fitting, frame
    for word in fitting:
        sentence = characters.frame_words(frame, "Ngozi", word)
        assert word in sentence and "{" not in " ".join(sentence)
        assert any(spelled_as(word, c) for c in allowed), (frame, word)


def test_a_word_of_the_wrong_class_is_never_drawn_into_a_slot():
    # the three sentences the issue quoted, each impossible now
    from practice.generators.base import Draw

    draw = Draw([5])
    seen = set()
    for _ in range(400):
        sentence = " ".join(characters.draw_words(draw, long=True))
        seen.add(sentence.split(" ", 1)[1])
        assert "the unhappily" not in sentence and "the rebuilt" not in sentence
        assert not any(f"made {w}" in sentence for w in PIECES if WORD_CLASS[w] != PLURAL)
    assert any("unhappily" in s for s in seen) and any("rebuilt" in s for s in seen)


@pytest.mark.parametrize("length", sorted(vocab.FRAMES))
def test_every_noun_slot_of_the_sense_sentences_takes_a_plural_count_noun(length):
    for frame in vocab.FRAMES[length]:
        if vocab.NOUN not in frame:
            continue
        before = frame[frame.index(vocab.NOUN) - 1]
        assert before in ("with", "many"), frame
        for word in vocab.AMBIGUOUS_WORDS:
            for sense in word.senses:
                for noun in sense.nouns:
                    assert spelled_as(noun, PLURAL), (frame, noun)
