"""Words for the page *Why Words Become Pieces*: sentences with names, typos and inflections,
words with accents and symbols, and word families for byte-pair encoding.

Changing any tuple here changes generated problems: bump the version of the generators that
read it (word_ids, utf8_bytes, bpe_train, bpe_apply).
"""

from __future__ import annotations

from dataclasses import dataclass

# word_ids ---------------------------------------------------------------------------------

PUNCTUATION = (".", ",", "!", "?")

# Nouns and places a whole-word vocabulary would list.
NOUNS = ("dog", "cat", "girl", "boy", "teacher", "farmer", "child", "bird", "doctor", "baker")
PLACES = ("park", "river", "garden", "school", "market", "station", "library", "beach")
DETERMINERS = ("the", "a", "my", "our", "her")
# (listed base form, unlisted inflection): the inflection is unknown, the base is a look-alike.
PAST_FORMS = (
    ("walk", "walked"),
    ("jump", "jumped"),
    ("run", "ran"),
    ("rush", "rushed"),
    ("skip", "skipped"),
)
# Past forms that take an object (*called Nakamura*, *visited a farmer*).
OBJECT_PAST_FORMS = (
    ("call", "called"),
    ("visit", "visited"),
    ("help", "helped"),
    ("paint", "painted"),
    ("thank", "thanked"),
)
ING_FORMS = (
    ("walk", "walking"),
    ("run", "running"),
    ("play", "playing"),
    ("sing", "singing"),
    ("read", "reading"),
    ("jump", "jumping"),
)
# (listed word, typo): the typo is unknown, the word it misspells is a look-alike.
TYPOS = (
    ("the", "teh"),
    ("park", "prak"),
    ("river", "rivr"),
    ("garden", "gardn"),
    ("school", "shcool"),
    ("market", "markte"),
    ("library", "libary"),
    ("beach", "baech"),
    ("friend", "freind"),
)
# Names no whole-word list holds.
NAMES = (
    "Nakamura",
    "Szymborska",
    "Okonkwo",
    "Siobhan",
    "Oyelaran",
    "Thandiwe",
    "Kowalczyk",
    "Aleksandra",
    "Mbeki",
    "Haruto",
)
# Listed words that may fill the vocabulary without occurring in the sentence.
SPARE_WORDS = (
    "house",
    "tree",
    "book",
    "water",
    "green",
    "small",
    "quickly",
    "and",
    "with",
    "from",
    "on",
    "is",
    "was",
    "rain",
    "bread",
    "letter",
)


# utf8_bytes --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Utf8Level:
    """List the words of one level: every word holds a character Windows-1252 codes in
    0x80-0x9F (so its one-byte legacy code differs from its code point)."""

    words: tuple[str, ...]


UTF8_LEVELS: dict[int, Utf8Level] = {
    # One two-byte character.
    1: Utf8Level(
        (
            "sœur",
            "cœur",
            "bœuf",
            "nœud",
            "vœu",
            "Miloš",
            "Dušan",
            "Saša",
            "Maša",
            "Nataša",
            "Žiga",
            "Šimon",
            "Anže",
            "Tomaž",
            "Matjaž",
        )
    ),
    # Two two-byte characters, one of them a Latin-1 accent (U+00A0-U+00FF), the other not.
    2: Utf8Level(
        (
            "Tomáš",
            "Lukáš",
            "Šárka",
            "Matyáš",
            "Tadeáš",
            "Vašák",
            "Mikuláš",
            "Kožená",
            "Kašpárek",
            "Šíma",
        )
    ),
    # One three-byte character among ASCII.
    3: Utf8Level(
        ("€5", "€7", "€12", "15€", "€40", "€99", "9–5", "1–0", "3–2", "OK™", "Go…", "Wow…")
    ),
    # A three-byte character and a two-byte one.
    4: Utf8Level(
        (
            "Zoë’s",
            "José’s",
            "André’s",
            "Noël’s",
            "Chloë’s",
            "Renée’s",
            "€5 thé",
            "crêpe €4",
            "naïve…",
            "Zoë–Ann",
            "café–bar",
            "André…",
        )
    ),
}


# bpe_train and bpe_apply -------------------------------------------------------------------

# Families of words that share letters, so that frequent pairs emerge; no doubled letters, so
# counting adjacent pairs and merging never meet an overlap.
BPE_FAMILIES: tuple[tuple[str, ...], ...] = (
    ("low", "lower", "newest", "widest", "slow", "newer", "wider", "lowest"),
    ("old", "older", "oldest", "bold", "bolder", "cold", "colder", "coldest", "gold"),
    ("sing", "sings", "ring", "rings", "king", "kings", "wing", "thing", "things", "string"),
    ("hand", "hands", "band", "bands", "sand", "stand", "land", "lands", "stands"),
    ("ten", "tens", "tent", "tents", "net", "nets", "nest", "sent", "stent"),
    ("cat", "cats", "hat", "hats", "that", "chat", "chats", "act", "acts"),
    ("one", "ones", "tone", "tones", "stone", "stones", "note", "notes", "nose"),
    ("rain", "rains", "train", "trains", "brain", "grain", "drain", "strain"),
)

# New words to split with a learned merge list.
BPE_NEW_WORDS: tuple[str, ...] = (
    "lowest",
    "slower",
    "newest",
    "widest",
    "boldest",
    "golden",
    "oldest",
    "singer",
    "strings",
    "kingdom",
    "standing",
    "sandals",
    "landers",
    "stones",
    "toner",
    "trainers",
    "grains",
    "hatstand",
)
