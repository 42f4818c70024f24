"""``kayles turning``: a strip's and a board's value and winning move, text and JSON, against
the brute force of literal moves (tests/oracle.py); a long strip on standard input."""

from __future__ import annotations

import json

import oracle
from conftest import kayles_said


def said(*args: str, stdin: str | None = None) -> str:
    result = kayles_said("turning", *args, stdin=stdin)
    assert (result.returncode, result.stderr) == (0, ""), result.stderr
    return result.stdout


def test_a_strip_in_json_is_its_value_and_the_coins_turned():
    values = oracle.turning_values([(1, 3, "", False, None)], 6)  # Mock Turtles
    for strip in ["hthht", "tthhth", "hhhhhh", "tttttt", "thhth"]:
        mask = sum(1 << i for i, c in enumerate(strip) if c == "h")
        answer = json.loads(said("mock-turtles", strip, "--json"))
        assert answer["value"] == values[mask]
        if answer["move"] is None:
            assert values[mask] == 0
        else:
            after = mask
            for coin in answer["move"]:
                after ^= 1 << (coin - 1)
            assert values[after] == 0 and len(answer["move"]) <= 3


def test_text_and_a_board():
    assert said("1-3", "ththt") == "value 5\nturn 2 4\n"
    assert said("1-3", "tttt") == "value 0\nno winning move\n"
    answer = json.loads(said("turning-corners", "tttt/ttth/ttht", "--json"))
    assert answer["value"] == 8 ^ 2  # 2 (x) 4 + 3 (x) 3
    assert said("ruler", "--values", "8") == "1 2 1 4 1 2 1 8\n"


def test_a_strip_of_a_million_coins_on_standard_input():
    answer = json.loads(said("ruler", "-", "--json", stdin="th" * 500_000 + "\n"))
    total = 0
    for n in range(2, 1_000_001, 2):
        total ^= n & -n
    assert answer["value"] == total
