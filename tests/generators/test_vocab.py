from practice.generators.base import Draw
from practice.generators.words.vocab import (
    AMBIGUOUS_WORDS,
    FRAMES,
    MODIFIER,
    NOUN,
    WORD,
    draw_sentence,
)


def test_every_frame_has_the_word_right_after_its_modifier_and_no_repeated_words():
    for length, frames in FRAMES.items():
        for frame in frames:
            assert len(frame) == length
            assert frame.count(WORD) == 1 and frame.count(MODIFIER) == 1
            assert frame.index(MODIFIER) + 1 == frame.index(WORD)
            assert len(set(frame)) == len(frame)


def test_sense_words_never_clash_with_frame_words_or_the_other_sense():
    frame_words = {w for frames in FRAMES.values() for frame in frames for w in frame}
    for word in AMBIGUOUS_WORDS:
        first, second = word.senses
        assert not set(first.modifiers) & set(second.modifiers)
        assert not set(first.nouns) & set(second.nouns)
        for sense in word.senses:
            assert len(sense.modifiers) >= 4 and len(sense.nouns) >= 3
            assert not (set(sense.modifiers) | set(sense.nouns)) & frame_words
            assert word.word not in (*sense.modifiers, *sense.nouns)


def test_a_sentence_in_the_other_sense_differs_only_at_the_neighbours():
    draw = Draw([11])
    for length in FRAMES:
        for _ in range(50):
            sentence = draw_sentence(draw, length)
            a, b = sentence.tokens(), sentence.tokens(1 - sentence.sense)
            differ = [k for k in range(length) if a[k] != b[k]]
            assert differ and set(differ) == set(sentence.neighbours)
            assert a[sentence.position] == b[sentence.position] == sentence.word.word
            assert len(set(a)) == length


def test_noun_slots_appear_only_in_long_frames():
    assert all(NOUN not in frame for length in (3, 4) for frame in FRAMES[length])
    assert any(NOUN in frame for frame in FRAMES[6])
