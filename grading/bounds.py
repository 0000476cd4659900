"""The bounds of reading an arithmetic answer, each enforced before the work it bounds.

Past a bound the answer is `invalid`, with a message naming the bound (AnswerError.bound).
Every bound is a size or a count, except TIME_BUDGET_SECONDS, a backstop in CPU time (never wall
time: a busy machine must not change a verdict; grading.clock).
"""

MAX_CHARS = 2000  # characters of one answer (checked before anything else)
MAX_TOKENS = 400  # symbols after tokenizing
MAX_DEPTH = 40  # nesting of brackets, signs and powers
MAX_NUMBER_DIGITS = 30  # digits of one typed number
MAX_BITS = 4096  # bits of the numerator or denominator of any rational built
MAX_INTEGER_POWER = 1000  # the exponent of a rational power
MAX_SYMBOLIC_POWER = 12  # the (whole) exponent of a power of exp, sqrt or pi
MAX_EXP_ARGUMENT = 200  # |x| in exp(x); x is rational
MAX_EXP_DENOMINATOR = 1000  # the denominator of x in exp(x)
MAX_ROOT_DENOMINATOR = 12  # q in a^(p/q)
MAX_IRRATIONAL_ATOMS = 64  # uses of exp, sqrt, pi and e (e^x counts once)
MAX_COORDINATES = 16  # coordinates of a vector
TIME_BUDGET_SECONDS = 1.0  # CPU time of reading and marking (grading.clock), between steps
