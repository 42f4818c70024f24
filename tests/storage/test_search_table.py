"""A search's saved tables (``kayles.storage.search_table``): read back as written, and refused
whole, in one line, when they are not what this user's kayles wrote for this game."""

from __future__ import annotations

import pytest

from kayles.errors import InputError
from kayles.storage import search_table

KEYS = [0, -5, 10**40, "pins", "é\udcff", b"\x00\xff", None, True, False, 1.5, (), frozenset(),
        (1, (2, (3, ("deep",)))), frozenset({(0, 1), (1, 0)}), ((((((),),),),),)]
IDENTITY = "file game.py:Cram sha256:00"


def saved(tmp_path, normal=None, misere=(((1, 2), 1),)):
    path = tmp_path / "t.table"
    normal = [(key, i - 3) for i, key in enumerate(KEYS)] if normal is None else normal
    search_table.write(path, IDENTITY, normal, list(misere))
    return path, normal


def test_what_is_written_is_read_back(tmp_path):
    path, normal = saved(tmp_path)
    got, misere = search_table.read(path, IDENTITY, 1 << 20)
    assert got == normal and misere == [((1, 2), 1)]
    assert [type(key) for key, _ in got] == [type(key) for key, _ in normal]


def test_an_existing_file_is_replaced_only_when_asked(tmp_path):
    path, _ = saved(tmp_path)
    with pytest.raises(InputError, match="exists; --force replaces it"):
        search_table.write(path, IDENTITY, [], [])
    search_table.write(path, IDENTITY, [(1, 1)], [], force=True)
    assert search_table.read(path, IDENTITY, 1 << 20) == ([(1, 1)], [])


@pytest.mark.parametrize("edit", ["value", "cut", "appended", "signature"])
def test_an_edited_or_cut_file_is_refused_whole(tmp_path, edit):
    path, _ = saved(tmp_path)
    data = path.read_bytes()
    if edit == "value":
        data = data.replace(b"s4:pins", b"s4:pint")
    elif edit == "cut":
        data = data[:-10]
    elif edit == "appended":
        data += b"i1;"
    else:
        data = data[:-5] + b"0000\n"
    path.write_bytes(data)
    with pytest.raises(InputError, match="not signed by this user's kayles.*--force in place "
                       "of --resume starts afresh"):
        search_table.read(path, IDENTITY, 1 << 20)


def test_another_games_table_is_refused(tmp_path):
    path, _ = saved(tmp_path)
    with pytest.raises(InputError, match=r"saved for another game \(file game.py:Cram"):
        search_table.read(path, "family subtraction:1,2,3", 1 << 20)


def test_a_signed_but_damaged_body_is_refused(tmp_path, monkeypatch):
    """Damage the signature cannot see (the key's own holder wrote nonsense): one line."""
    from kayles.storage import signing

    path = tmp_path / "t.table"
    head = search_table.MAGIC + b'{"game": "%s", "normal": 2, "misere": 0}\n' % IDENTITY.encode()
    for body in (b"(99999999;i1;", b"s5:ab", b"i12x;i1;", b"?", b"(2;" * 20_000):
        data = head + body
        path.write_bytes(data + b"\n" + signing.sign(data).encode() + b"\n")
        with pytest.raises(InputError, match="damaged at byte"):
            search_table.read(path, IDENTITY, 1 << 22)


def test_keys_of_other_types_cannot_be_saved():
    class Position:
        pass

    with pytest.raises(InputError, match="keys of type Position cannot be saved"):
        search_table.check_savable([(1, Position())])
    search_table.check_savable(KEYS)


def test_a_file_past_the_limit_is_not_read(tmp_path):
    path, _ = saved(tmp_path)
    with pytest.raises(InputError, match="more than the 64 this program reads"):
        search_table.read(path, IDENTITY, 64)
