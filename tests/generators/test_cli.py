import json
import xml.etree.ElementTree as ET

import pytest

from practice.generators import generate
from practice.generators.__main__ import main


def test_prints_the_spec_learners_get(capsys):
    assert main(["weighted_sum", "--seed", "7", "--level", "2"]) == 0

    assert json.loads(capsys.readouterr().out) == generate("weighted_sum", seed=7, level=2)


def test_prints_a_targeted_statement(capsys):
    main(["contrast", "--seed", "3", "--target", "forgot_weight", "--show", "statement"])

    assert "**Compute** the difference" in capsys.readouterr().out


def test_prints_the_picture(capsys):
    main(["lookup", "--seed", "1", "--show", "svg"])

    assert ET.fromstring(capsys.readouterr().out).get("role") == "img"


def test_says_when_there_is_no_picture(capsys):
    with pytest.raises(SystemExit) as exit_info:
        main(["lookup", "--seed", "1", "--level", "3", "--show", "svg"])

    assert exit_info.value.code == 1
    assert "two-dimensional" in capsys.readouterr().err


@pytest.mark.parametrize(
    "argv",
    [
        ["weighted_sum", "--level", "9"],
        ["weighted_sum", "--seed", "-1"],
        ["weighted_sum", "--target", "forgot_weight"],
        ["no_such_kind"],
    ],
)
def test_bad_arguments_exit_with_status_2(argv, capsys):
    with pytest.raises(SystemExit) as exit_info:
        main(argv)

    assert exit_info.value.code == 2
    assert "error" in capsys.readouterr().err
