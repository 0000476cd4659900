"""A small vocabulary for real-looking sentences: words with two senses and the company they keep.

Each ambiguous word (*bank*, *bat*, ...) has two senses; each sense has modifiers that sit
right before the word (*river* bank, *savings* bank) and nouns that fit "with ___" after it
(*reeds*, *tellers*). Word classes: a modifier is an adjective or a noun used as one; a sense's
nouns are plural count nouns, the one class a noun slot ``{d}`` takes (it follows "with" and
"many", so a mass noun such as *ink* would make "had many ink").

A frame is a sentence with the slots ``{c}`` (the modifier), ``{w}`` (the
ambiguous word) and optionally ``{d}`` (the noun). No word repeats inside a frame, because a
repeated word would share its row and make two terms indistinguishable.

Changing any tuple here changes generated problems: bump every generator's version.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..base import Draw

WORD = "{w}"
MODIFIER = "{c}"
NOUN = "{d}"


@dataclass(frozen=True)
class Sense:
    name: str
    modifiers: tuple[str, ...]
    nouns: tuple[str, ...]


@dataclass(frozen=True)
class AmbiguousWord:
    word: str
    senses: tuple[Sense, Sense]


AMBIGUOUS_WORDS: tuple[AmbiguousWord, ...] = (
    AmbiguousWord(
        "bank",
        (
            Sense("river", ("river", "muddy", "grassy", "steep"), ("reeds", "ducks", "willows")),
            Sense(
                "money",
                ("savings", "central", "merchant", "investment"),
                ("tellers", "loans", "vaults"),
            ),
        ),
    ),
    AmbiguousWord(
        "bat",
        (
            Sense("cave", ("cave", "fruit", "vampire", "brown"), ("wings", "fangs", "pups")),
            Sense(
                "ball",
                ("cricket", "baseball", "wooden", "softball"),
                ("grips", "stickers", "dents"),
            ),
        ),
    ),
    AmbiguousWord(
        "crane",
        (
            Sense(
                "bird", ("whooping", "sandhill", "grey", "wading"), ("feathers", "chicks", "eggs")
            ),
            Sense(
                "machine",
                ("tower", "harbour", "construction", "steel"),
                ("cables", "hooks", "girders"),
            ),
        ),
    ),
    AmbiguousWord(
        "mouse",
        (
            Sense("animal", ("field", "house", "brown", "tiny"), ("whiskers", "babies", "crumbs")),
            Sense(
                "computer",
                ("computer", "wireless", "optical", "gaming"),
                ("buttons", "cables", "batteries"),
            ),
        ),
    ),
    AmbiguousWord(
        "plant",
        (
            Sense(
                "garden", ("potted", "tomato", "green", "garden"), ("leaves", "flowers", "roots")
            ),
            Sense(
                "factory",
                ("power", "steel", "chemical", "bottling"),
                ("workers", "chimneys", "turbines"),
            ),
        ),
    ),
    AmbiguousWord(
        "fan",
        (
            Sense(
                "supporter",
                ("football", "loyal", "music", "hockey"),
                ("scarves", "banners", "flags"),
            ),
            Sense(
                "device",
                ("ceiling", "desk", "electric", "exhaust"),
                ("blades", "switches", "vents"),
            ),
        ),
    ),
    AmbiguousWord(
        "seal",
        (
            Sense("animal", ("harbour", "grey", "fur", "monk"), ("pups", "whiskers", "flippers")),
            Sense(
                "stamp", ("wax", "rubber", "royal", "official"), ("ribbons", "crests", "tassels")
            ),
        ),
    ),
)

# Sentence frames by length. ``{c}`` always sits right before ``{w}``: it is the neighbour whose
# sense-specific row changes the mix.
FRAMES: dict[int, tuple[tuple[str, ...], ...]] = {
    3: (
        ("the", MODIFIER, WORD),
        ("a", MODIFIER, WORD),
        ("that", MODIFIER, WORD),
        ("one", MODIFIER, WORD),
    ),
    4: (
        ("near", "the", MODIFIER, WORD),
        ("see", "the", MODIFIER, WORD),
        ("the", MODIFIER, WORD, "moved"),
        ("a", MODIFIER, WORD, "again"),
        ("by", "that", MODIFIER, WORD),
    ),
    5: (
        ("we", "saw", "the", MODIFIER, WORD),
        ("she", "found", "a", MODIFIER, WORD),
        ("the", MODIFIER, WORD, "was", "old"),
        ("a", MODIFIER, WORD, "with", NOUN),
        ("that", MODIFIER, WORD, "with", NOUN),
    ),
    6: (
        ("we", "walked", "to", "the", MODIFIER, WORD),
        ("the", MODIFIER, WORD, "was", "very", "old"),
        ("she", "saw", "the", MODIFIER, WORD, "today"),
        ("the", "old", MODIFIER, WORD, "with", NOUN),
        ("this", MODIFIER, WORD, "had", "many", NOUN),
    ),
}

# Everyday words that are not in any frame: lookup tables need entries the sentence does not use.
DISTRACTORS: tuple[str, ...] = (
    "river",
    "money",
    "cave",
    "ball",
    "tree",
    "dog",
    "music",
    "stone",
    "night",
    "paper",
    "window",
    "garden",
)


def fill(frame: tuple[str, ...], *, word: str, modifier: str, noun: str) -> list[str]:
    """Return the frame's tokens with its slots filled."""
    slots = {WORD: word, MODIFIER: modifier, NOUN: noun}
    return [slots.get(token, token) for token in frame]


@dataclass(frozen=True)
class Sentence:
    """A drawn sentence: its frame and fillers, so a contrast can swap the sense."""

    frame: tuple[str, ...]
    word: AmbiguousWord
    sense: int
    modifier_index: int
    noun_index: int

    @property
    def position(self) -> int:
        return self.frame.index(WORD)

    @property
    def neighbours(self) -> tuple[int, ...]:
        """Return the positions whose words depend on the sense."""
        return tuple(k for k, token in enumerate(self.frame) if token in (MODIFIER, NOUN))

    def tokens(self, sense: int | None = None) -> list[str]:
        """Return the tokens, in this sentence's sense or in the other one."""
        chosen = self.word.senses[self.sense if sense is None else sense]
        return fill(
            self.frame,
            word=self.word.word,
            modifier=chosen.modifiers[self.modifier_index % len(chosen.modifiers)],
            noun=chosen.nouns[self.noun_index % len(chosen.nouns)],
        )


def draw_sentence(draw: Draw, length: int) -> Sentence:
    """Draw a frame of ``length`` tokens, an ambiguous word, a sense and its fillers."""
    return Sentence(
        frame=draw.choice(FRAMES[length]),
        word=draw.choice(AMBIGUOUS_WORDS),
        sense=draw.below(2),
        modifier_index=draw.below(4),
        noun_index=draw.below(3),
    )
