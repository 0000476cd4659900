"""Print a generated problem: ``python -m practice.generators KIND --seed N --level L``.

For course authors: shows the spec (JSON), the statement (Markdown with TeX) or the picture
(SVG) that learners would get for that seed, so a problem reported by a learner can be looked
at again from its stored kind, seed, level and target.
"""

from __future__ import annotations

import argparse
import json
import sys

from grading.kinds import MistakeCode, ProblemKind

from . import generate, render_statement, render_svg


def main(argv: list[str] | None = None) -> int:
    """Parse the arguments, generate, print; return the exit status."""
    parser = argparse.ArgumentParser(prog="python -m practice.generators", description=__doc__)
    parser.add_argument("kind", choices=[k.value for k in ProblemKind])
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--level", type=int, default=1)
    parser.add_argument("--target", choices=[m.value for m in MistakeCode], default=None)
    parser.add_argument("--show", choices=["spec", "statement", "svg"], default="spec")
    args = parser.parse_args(argv)
    kind = ProblemKind(args.kind)
    try:
        spec = generate(kind, seed=args.seed, level=args.level, target=args.target)
    except (TypeError, ValueError) as error:
        parser.exit(2, f"{parser.prog}: error: {error}\n")
    if args.show == "statement":
        print(render_statement(spec))
    elif args.show == "svg":
        svg = render_svg(spec)
        if svg is None:
            parser.exit(
                1, "no picture: only two-dimensional problems have one, where the kind draws one\n"
            )
        print(svg)
    else:
        print(json.dumps(spec, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
