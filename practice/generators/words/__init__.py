"""The word lists generators draw their sentences, words and pieces from: data, no drawing.

``vocab`` (ambiguous words, their senses and sentence frames), ``layers`` (the words a second
two-layer sentence swaps in), ``characters`` (rare names and their subword pieces), ``letters``
(phrases for counting letters), ``pieces`` (the tokenization page's sentences and word
families), ``embedding`` (word pairs and neighbour sets) and ``decoding`` (the pieces a toy
model decodes). Changing a tuple changes generated problems: bump the version of every
generator that reads it.
"""
