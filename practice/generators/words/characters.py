"""Words for the character-level pages: sentences with rare names, and how a subword tokenizer
cuts them.

A sentence frame holds ``{name}`` (a rare name), plain words and at most one slot for a long
word, which takes only the word classes its place allows (``SLOT_CLASSES``).

``PIECES`` gives the pieces a typical subword vocabulary cuts a word into, without its leading
space; a word not listed is one piece. In a passage, every word after the first carries its
leading space into its first piece (``" bank"``), and punctuation is a piece of its own, as in
GPT-style tokenizers.

Changing any tuple here changes generated problems: bump the versions of the generators that
use it (``char_vs_word_unknowns``, ``sequence_lengths``).
"""

from __future__ import annotations

from ..base import Draw

# Rare names, as a subword vocabulary cuts them; none of them is in any word vocabulary here.
NAMES: dict[str, tuple[str, ...]] = {
    "Zofia": ("Z", "of", "ia"),
    "Siobhan": ("Si", "ob", "han"),
    "Thandiwe": ("Th", "and", "iwe"),
    "Kazimierz": ("Kaz", "im", "ierz"),
    "Oluwaseun": ("Ol", "uw", "ase", "un"),
    "Bartholomew": ("Bart", "hol", "omew"),
    "Ngozi": ("N", "go", "zi"),
    "Eilidh": ("E", "il", "idh"),
}
# Names with a letter outside the plain Latin alphabet a-z, A-Z.
ACCENTED_NAMES: dict[str, tuple[str, ...]] = {
    "Zoë": ("Zo", "ë"),
    "José": ("Jos", "é"),
    "Chloé": ("Chlo", "é"),
    "Søren": ("S", "ø", "ren"),
    "Łukasz": ("Ł", "uk", "asz"),
    "Anaïs": ("Ana", "ï", "s"),
}
# Longer common words a subword vocabulary still cuts in two, with their word class.
PIECES: dict[str, tuple[str, ...]] = {
    "lighthouse": ("light", "house"),
    "wheelbarrow": ("wheel", "barrow"),
    "thunderstorm": ("thunder", "storm"),
    "unhappily": ("un", "happily"),
    "rebuilt": ("re", "built"),
    "kayaks": ("kay", "aks"),
    "pancakes": ("pan", "cakes"),
    "snowdrifts": ("snow", "drifts"),
}
# Word classes: a singular count noun, a plural count noun, an adverb, a verb in the past.
NOUN, PLURAL, ADVERB, PAST = "noun", "plural", "adverb", "past"
WORD_CLASS: dict[str, str] = {
    "lighthouse": NOUN,
    "wheelbarrow": NOUN,
    "thunderstorm": NOUN,
    "unhappily": ADVERB,
    "rebuilt": PAST,
    "kayaks": PLURAL,
    "pancakes": PLURAL,
    "snowdrifts": PLURAL,
}
# The classes a frame's ``{long}`` slot takes: after "the", a count noun of either number;
# after "made" with no article, a plural; as an adverb or a verb, only that class.
SLOT_CLASSES: dict[str, tuple[str, ...]] = {
    "{long}": (NOUN, PLURAL),
    "{longs}": (PLURAL,),
    "{adverb}": (ADVERB,),
    "{past}": (PAST,),
}

# Frames: ``{name}`` is the rare name; at most one slot for a word from PIECES, of the class
# SLOT_CLASSES gives it.
FRAMES: tuple[str, ...] = (
    "{name} fed the ducks by the river",
    "{name} crossed the old bridge",
    "{name} paid the loan at the bank",
    "{name} walked home after the rain",
    "{name} sold apples at the market",
    "{name} painted the {long} blue",
    "{name} watched the {long} from the hill",
    "{name} found the {long} near the shed",
    "{name} and her friend made {longs}",
    "{name} left the {long} by the door",
    "{name} walked home {adverb}",
    "{name} {past} the old bridge",
)
# The whole-word vocabulary's plain words: every word of every frame, and some more.
COMMON_WORDS: tuple[str, ...] = (
    "the",
    "fed",
    "ducks",
    "by",
    "river",
    "crossed",
    "old",
    "bridge",
    "paid",
    "loan",
    "at",
    "bank",
    "walked",
    "home",
    "after",
    "rain",
    "sold",
    "apples",
    "market",
    "painted",
    "blue",
    "watched",
    "from",
    "hill",
    "found",
    "near",
    "shed",
    "and",
    "her",
    "friend",
    "made",
    "left",
    "door",
    "a",
    "boat",
    "town",
    "he",
    "she",
    "green",
    "tea",
)


def long_slot(frame: str) -> str | None:
    """Return the frame's slot for a word from PIECES, or None when it has none."""
    return next((slot for slot in SLOT_CLASSES if slot in frame.split(" ")), None)


def frame_words(frame: str, name: str, long: str) -> list[str]:
    """Return the words of a frame with its slots filled."""
    slot = long_slot(frame)
    filled = frame.replace("{name}", name)
    return (filled.replace(slot, long) if slot else filled).split(" ")


def word_pieces(word: str) -> tuple[str, ...]:
    """Return the pieces of one word, without a leading space."""
    return NAMES.get(word) or ACCENTED_NAMES.get(word) or PIECES.get(word) or (word,)


def passage_pieces(sentences: list[list[str]]) -> list[str]:
    """Return the pieces of sentences (lists of words), each ending with a full stop.

    Every word after the first carries its leading space into its first piece; each full stop
    is its own piece.
    """
    out: list[str] = []
    for words in sentences:
        for word in words:
            pieces = list(word_pieces(word))
            if out:
                pieces[0] = " " + pieces[0]
            out.extend(pieces)
        out.append(".")
    return out


def draw_words(draw: Draw, *, long: bool, accented: bool = False) -> list[str]:
    """Draw one sentence's words: a frame, a rare name and (if the frame asks) a long word."""
    frames = [f for f in FRAMES if (long_slot(f) is not None) == long]
    names = list(ACCENTED_NAMES if accented else NAMES)
    frame, name = draw.choice(frames), draw.choice(names)
    slot = long_slot(frame)
    fitting = [w for w in PIECES if slot is not None and WORD_CLASS[w] in SLOT_CLASSES[slot]]
    return frame_words(frame, name, draw.choice(fitting) if fitting else "")
