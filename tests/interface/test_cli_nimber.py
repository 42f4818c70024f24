"""``kayles nimber``: each operation's one decimal number, and the table's rows, against the
definition of the nim product (tests/oracle.py) and the field's laws."""

from __future__ import annotations

import pytest

import oracle
from conftest import kayles_said

TABLE = oracle.nim_product_table(16)


def said(*args: str) -> str:
    result = kayles_said("nimber", *args)
    assert (result.returncode, result.stderr) == (0, ""), result.stderr
    return result.stdout


def test_the_table_prints_the_definition_in_aligned_rows():
    text = said("table", "16")
    assert [list(map(int, line.split())) for line in text.splitlines()] == TABLE
    assert text.splitlines()[4] == " ".join(f"{v:2}" for v in TABLE[4])  # width of 15
    assert said("table", "0") == ""
    assert said("table", "1") == "0\n"


@pytest.mark.parametrize("a, b", [(2, 3), (7, 13), (15, 15), (5, 0)])
def test_each_operation_prints_one_number(a, b):
    product = TABLE[a][b]
    assert said("mul", str(a), str(b)) == f"{product}\n"
    assert said("add", str(a), str(b), "1") == f"{a ^ b ^ 1}\n"
    if b:
        inverse = TABLE[b].index(1)
        assert said("inv", str(b)) == f"{inverse}\n"
        assert said("div", str(product), str(b)) == f"{a}\n"
        assert said("pow", str(b), "--", "-1") == f"{inverse}\n"
    assert said("pow", str(a), "2") == f"{TABLE[a][a]}\n"
    assert said("sqrt", str(TABLE[a][a])) == f"{a}\n"


def test_numbers_of_any_size_and_form():
    assert said("mul", "2**64", "2**64") == f"{3 << 63}\n"  # F (x) F = 3F/2
    assert said("mul", "2", "3", "2") == f"{TABLE[1][2]}\n"  # 2 (x) 3 = 1
    assert said("mul", "65,536", "2**32") == f"{1 << 48}\n"  # distinct Fermat powers
    big = str(1 << 5000)
    assert len(said("mul", big, big)) > 1500  # past Python's 4,300-digit str() limit is fine
    assert said("pow", "3", "2**64") == said("pow", "3", str((1 << 64) % 3))  # 3 has order 3
