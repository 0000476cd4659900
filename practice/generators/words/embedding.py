"""Words for *Close in Embedding Space*: word pairs, near-antonym sets and sentence frames.

Everything here is data. Changing a tuple changes generated problems: bump the version of every
generator that reads it (``cooccurrence_row``, ``cosine_similarity``, ``nearest_by_cosine``).
"""

from __future__ import annotations

from dataclasses import dataclass

# Pairs of words whose rows a learner compares: pieces that share company (siblings, opposites).
WORD_PAIRS: tuple[tuple[str, str], ...] = (
    ("tea", "coffee"),
    ("hot", "cold"),
    ("monday", "friday"),
    ("cat", "dog"),
    ("paris", "berlin"),
    ("good", "bad"),
    ("river", "lake"),
    ("king", "queen"),
)


@dataclass(frozen=True)
class NeighbourSet:
    """A query word, a near-antonym or sibling that shares its company, a word meaning nearly
    the same, and topic words that make plausible candidates."""

    query: str
    sibling: str
    synonym: str
    topic: tuple[str, ...]


NEIGHBOUR_SETS: tuple[NeighbourSet, ...] = (
    NeighbourSet("hot", "cold", "warm", ("water", "summer", "soup", "stove")),
    NeighbourSet("good", "bad", "fine", ("day", "food", "job", "very")),
    NeighbourSet("big", "small", "large", ("house", "dog", "city", "very")),
    NeighbourSet("happy", "sad", "glad", ("party", "song", "smile", "today")),
    NeighbourSet("fast", "slow", "quick", ("car", "train", "road", "run")),
    NeighbourSet("buy", "sell", "purchase", ("shop", "money", "price", "market")),
    NeighbourSet("full", "empty", "filled", ("cup", "glass", "room", "bus")),
    NeighbourSet("begin", "end", "start", ("game", "show", "week", "class")),
)

WORD = "{w}"


@dataclass(frozen=True)
class Topic:
    """Target words that share sentence frames (``{w}`` is the target). In a ``double`` frame
    the target occurs twice, a few words apart, so some word sits near it twice."""

    targets: tuple[str, ...]
    single: tuple[tuple[str, ...], ...]
    double: tuple[tuple[str, ...], ...]


def _frames(*lines: str) -> tuple[tuple[str, ...], ...]:
    return tuple(tuple(line.split()) for line in lines)


TOPICS: tuple[Topic, ...] = (
    Topic(
        ("tea", "coffee", "cocoa"),
        single=_frames(
            "i drink hot {w} with milk every morning",
            "she made {w} with milk and sugar",
            "we had {w} and cake in the cafe",
            "he likes his {w} strong and hot",
            "a hot cup of {w} in the morning",
        ),
        double=_frames(
            "hot {w} is better than cold {w}",
            "the {w} was cold so we made more {w}",
            "a cup of {w} and a cup of hot {w}",
            "more {w} with milk and more {w} with sugar",
        ),
    ),
    Topic(
        ("rain", "snow", "hail"),
        single=_frames(
            "the {w} fell all night on the roof",
            "cold {w} and wind came in the night",
            "we watched the {w} from the window",
            "heavy {w} fell on the cold hills",
            "the wind blew the {w} against the window",
        ),
        double=_frames(
            "{w} and more {w} fell in the night",
            "the cold {w} turned into heavy {w} at night",
            "after the {w} came more cold {w}",
            "heavy {w} in the hills and heavy {w} in the town",
        ),
    ),
    Topic(
        ("monday", "friday", "sunday"),
        single=_frames(
            "see you on {w} at the office",
            "the meeting moved to {w} morning",
            "every {w} we go to the market",
            "on {w} the shop is closed all day",
            "last {w} it rained all day",
        ),
        double=_frames(
            "{w} morning is busy and {w} night is quiet",
            "not this {w} but next {w} at the office",
            "the market on {w} and the shop on {w}",
            "every {w} morning and every {w} night",
        ),
    ),
)
