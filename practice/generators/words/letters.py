"""Short phrases for counting letters: number words, adjectives and plural nouns, each with the
pieces a subword vocabulary cuts it into (without the leading space a word after the first
carries into its first piece).

Many words hold a doubled letter (*cherries*, *bottles*) or the same letter twice apart
(*seven*), so that counting pieces, counting one piece and missing a double give different
totals. Changing any tuple here changes generated problems: bump ``letters_in_pieces``'s
version.
"""

from __future__ import annotations

NUMBERS: dict[str, tuple[str, ...]] = {
    "two": ("two",),
    "three": ("three",),
    "seven": ("seven",),
    "eleven": ("ele", "ven"),
    "twelve": ("tw", "elve"),
    "fifteen": ("fif", "teen"),
    "seventeen": ("seven", "teen"),
    "thirteen": ("thir", "teen"),
    "eighteen": ("eigh", "teen"),
    "forty": ("for", "ty"),
    "thirty": ("thir", "ty"),
    "three hundred": ("three", " hundred"),
}
ADJECTIVES: dict[str, tuple[str, ...]] = {
    "green": ("green",),
    "sweet": ("sweet",),
    "yellow": ("yell", "ow"),
    "little": ("lit", "tle"),
    "red": ("red",),
    "tall": ("tall",),
    "small": ("small",),
    "fresh": ("fresh",),
    "sleepy": ("sleep", "y"),
    "purple": ("pur", "ple"),
    "speckled": ("speck", "led"),
    "jolly": ("j", "olly"),
    "merry": ("merr", "y"),
    "brown": ("brown",),
    "rare": ("rare",),
    "proper": ("pro", "per"),
    "dotted": ("dott", "ed"),
    "stubborn": ("stubb", "orn"),
    "tattered": ("tatt", "ered"),
    "tiny": ("tiny",),
    "woolly": ("wool", "ly"),
}
NOUNS: dict[str, tuple[str, ...]] = {
    "trees": ("trees",),
    "sheep": ("sheep",),
    "cherries": ("ch", "erries"),
    "balloons": ("ball", "oons"),
    "bottles": ("bott", "les"),
    "letters": ("lett", "ers"),
    "pebbles": ("pebb", "les"),
    "kittens": ("kit", "tens"),
    "puppies": ("pupp", "ies"),
    "apples": ("app", "les"),
    "carrots": ("carr", "ots"),
    "mirrors": ("mirr", "ors"),
    "barrels": ("barr", "els"),
    "berries": ("berr", "ies"),
    "beetles": ("beet", "les"),
    "geese": ("ge", "ese"),
    "bees": ("bees",),
    "parrots": ("parr", "ots"),
    "terriers": ("terr", "iers"),
    "rabbits": ("rabb", "its"),
    "muffins": ("muff", "ins"),
    "strawberries": ("str", "aw", "berries"),
    "kettles": ("kett", "les"),
    "teddies": ("tedd", "ies"),
}
VERBS: dict[str, tuple[str, ...]] = {
    "sleep": ("sleep",),
    "wobble": ("wob", "ble"),
    "sparkle": ("spark", "le"),
    "settle": ("sett", "le"),
    "tumble": ("tum", "ble"),
    "appear": ("app", "ear"),
}


def phrase_pieces(words: list[tuple[str, ...]]) -> list[str]:
    """Return the pieces of a phrase: every word after the first carries its leading space."""
    out: list[str] = []
    for pieces in words:
        first, *rest = pieces
        out.extend([(" " + first) if out else first, *rest])
    return out


def all_pieces() -> list[str]:
    """Return every piece of every word, both with and without a leading space, once each."""
    seen: dict[str, None] = {}
    for table in (NUMBERS, ADJECTIVES, NOUNS, VERBS):
        for pieces in table.values():
            seen[pieces[0]] = None
            seen[" " + pieces[0]] = None
            for piece in pieces[1:]:
                seen[piece] = None
    return list(seen)
