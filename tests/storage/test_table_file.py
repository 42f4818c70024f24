"""Saved tables (kayles.storage.table_file) and Sequence.from_values, in process, on both twins.

The format's promises: what is written reads back; a file cut anywhere in its
header is refused, cut inside a chunk loses that chunk only; any one damaged
byte is refused; another game's file is refused; a resumed sequence ends in the
state of an uninterrupted one.  Expected values come from tests/oracle.py.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kayles import table_file
from kayles.engine.codes import get_game
from kayles.engine.rules import GAMES, describe_moves
from kayles.engine.sequence import Sequence
from kayles.storage.table_file import TableFileError, TableWriter, check_game, read_table

import oracle


def saved_file(tmp_path, kernel, game_name="grundy", count=40, chunk=7):
    """A table file of G(0..count-1) written through a growing Sequence, and its bytes."""
    path = tmp_path / "table.bin"
    game = get_game(game_name)
    sequence = Sequence(game, kernel=kernel)
    writer = TableWriter.create(path, game)
    writer.attach(sequence, chunk)
    try:
        sequence.table(count)
    finally:
        writer.finish(sequence)
    return path, path.read_bytes()


SIGNATURE = 32  # after the header, after each chunk


def header_size(data: bytes) -> int:
    return 16 + int.from_bytes(data[12:16], "little") + 4 + SIGNATURE


def test_moves_are_described_by_what_decides_the_values():
    assert describe_moves(GAMES["kayles-xox"]) == "1,-,7,0;3,1,7,0"
    assert describe_moves(get_game("0.77")) == describe_moves(GAMES["kayles"])
    assert describe_moves(get_game("4")) == describe_moves(get_game("4.0")) == "0,-,4,0"
    assert describe_moves(GAMES["grundy"]) == "0,-,4,1"
    assert describe_moves(get_game("0.07")) != describe_moves(get_game("0.7"))


def test_what_is_written_reads_back(tmp_path, kernel):
    path, data = saved_file(tmp_path, kernel, count=40, chunk=7)
    saved = read_table(path)
    assert list(saved.values) == oracle.grundys_game_nimbers(39)
    assert (saved.end, saved.dropped) == (len(data), 0)
    assert data.startswith(table_file.MAGIC)
    chunks = -(-40 // 7)  # every growth step of 7 values is one chunk
    assert len(data) == header_size(data) + chunks * (24 + SIGNATURE) + 2 * 40
    check_game(saved, GAMES["grundy"], str(path))
    with pytest.raises(TableFileError, match="another game"):
        check_game(saved, GAMES["kayles"], str(path))


def test_a_cut_file_loses_at_most_its_last_chunk(tmp_path, kernel):
    path, data = saved_file(tmp_path, kernel, count=20, chunk=7)
    head = header_size(data)
    boundaries = [head + k * (24 + 14 + SIGNATURE) for k in range(3)] + [len(data)]
    expected = oracle.grundys_game_nimbers(19)
    for cut in range(len(data) + 1):
        path.write_bytes(data[:cut])
        if cut < head:
            with pytest.raises(TableFileError, match="header"):
                read_table(path)
            continue
        saved = read_table(path)
        whole = max(k for k, end in enumerate(boundaries) if end <= cut)
        count = min(7 * whole, 20)
        assert list(saved.values) == expected[:count]
        assert (saved.end, saved.dropped) == (boundaries[whole], cut - boundaries[whole])


def test_any_damaged_byte_is_refused(tmp_path, kernel):
    path, data = saved_file(tmp_path, kernel, count=12, chunk=5)
    for at in range(len(data)):
        for flip in (0x01, 0x80):
            damaged = bytearray(data)
            damaged[at] ^= flip
            path.write_bytes(bytes(damaged))
            with pytest.raises(TableFileError, match="not a usable kayles table file|"
                               "not a table kayles wrote for this user"):
                read_table(path)


@pytest.mark.parametrize(("at", "field", "where"), [(8, "format version", "1 or 2"),
                                                   (10, "value width", "2")])
def test_a_damaged_header_field_is_said_as_damage_not_as_a_format(tmp_path, kernel, at, field,
                                                                 where):
    """One header byte changed (the issue's: the width's low byte made 90): the header's
    checksum fails, so the file is damaged; the message names the field and what it holds,
    and never says a format of 90-byte values exists."""
    path, data = saved_file(tmp_path, kernel)
    damaged = bytearray(data)
    damaged[at] = 90  # the field's low byte (little-endian): it holds 90
    path.write_bytes(bytes(damaged))
    with pytest.raises(TableFileError) as refused:
        read_table(path)
    said = str(refused.value)
    assert said == (f"{path}: not a usable kayles table file (its header is damaged: its "
                    f"{field} holds 90, where kayles writes {where}; its checksum does not "
                    "match)")


def test_another_format_under_a_sound_checksum_is_said_as_one(tmp_path, kernel):
    """A header whose checksum holds, of a format or width this kayles does not read (a
    later kayles's): said as that format, not as damage."""
    import zlib

    path, data = saved_file(tmp_path, kernel)
    body = header_size(data) - 4 - SIGNATURE
    for at, said in ((8, "format version 3; this program reads version 2"),
                     (10, "values of 4 bytes; this program reads 2-byte values")):
        other = bytearray(data)
        other[at] = 3 if at == 8 else 4
        other[body:body + 4] = zlib.crc32(bytes(other[:body])).to_bytes(4, "little")
        path.write_bytes(bytes(other))
        with pytest.raises(TableFileError, match=said):
            read_table(path)


def test_other_files_are_refused(tmp_path):
    path = tmp_path / "other"
    for content in (b"", b"[0, 1, 0, 2]\n", b"KAYLESTB\x02\x00\x02\x00" + bytes(8)):
        path.write_bytes(content)
        with pytest.raises(TableFileError):
            read_table(path)


def test_resuming_cuts_away_a_half_written_chunk(tmp_path, kernel):
    path, data = saved_file(tmp_path, kernel, count=20, chunk=7)
    path.write_bytes(data[:-5])  # the last chunk (values 14..19) cut short
    saved = read_table(path)
    assert len(saved.values) == 14 and saved.dropped
    game = GAMES["grundy"]
    sequence = Sequence.from_values(game, saved.values, kernel=kernel)
    writer = TableWriter.reopen(path, saved)
    writer.attach(sequence, 6)
    sequence.table(31)
    writer.finish(sequence)
    again = read_table(path)
    assert list(again.values) == oracle.grundys_game_nimbers(30) and again.dropped == 0


def test_an_interrupted_write_is_completed_by_finish(tmp_path, kernel, monkeypatch):
    """Ctrl-C in the middle of appending a chunk: finish() saves every computed value."""
    path = tmp_path / "t.bin"
    game = GAMES["grundy"]
    sequence = Sequence(game, kernel=kernel)
    writer = TableWriter.create(path, game)
    writer.attach(sequence, 10)
    real_write = table_file.os.write
    calls = []

    def write_then_interrupt(fd, data):
        calls.append(len(data))
        if len(calls) == 3:  # the third chunk: half of it, then Ctrl-C
            real_write(fd, bytes(data[: len(data) // 2]))
            raise KeyboardInterrupt
        return real_write(fd, data)

    monkeypatch.setattr(table_file.os, "write", write_then_interrupt)
    with pytest.raises(KeyboardInterrupt):
        sequence.table(100)
    monkeypatch.setattr(table_file.os, "write", real_write)
    assert len(sequence) == 30  # the values of the chunk being written are computed
    writer.finish(sequence)
    saved = read_table(path)
    assert list(saved.values) == oracle.grundys_game_nimbers(29) and saved.dropped == 0


@pytest.mark.parametrize("name", ["0.77", "0.07", "0.137", "4.07"])
def test_a_resumed_sequence_proves_what_an_uninterrupted_one_does(kernel, name):
    game = get_game(name)
    whole = Sequence(game, kernel=kernel)
    found = whole.prove(4096)
    assert found is not None
    values = whole.table(found.values + 300)[: found.values + 300]
    for count in sorted({0, 1, 63, 64, 65, 128, found.values - 1, found.values,
                         found.values + 300}):
        if count > 5000:
            continue
        resumed = Sequence.from_values(game, values[:count], kernel=kernel)
        assert resumed.prove(4096) == found, count
        assert resumed.table(found.values + 300).tolist() == values.tolist()


def test_a_resumed_unprovable_sequence_continues(kernel):
    values = oracle.grundys_game_nimbers(300)
    resumed = Sequence.from_values(GAMES["grundy"], Sequence(GAMES["grundy"], kernel=kernel)
                                   .table(123), kernel=kernel)
    assert resumed.nimbers(300) == values


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=120), st.integers(0, 3))
def test_any_bytes_are_read_or_refused_cleanly(tmp_path_factory, data, prefix):
    """Whatever a file holds, reading it gives a table or a TableFileError, nothing else."""
    head = [b"", table_file.MAGIC, table_file.MAGIC + b"\x02\x00\x02\x00",
            bytes.fromhex("4b41594c45535442020002000700000030")][prefix]
    path = tmp_path_factory.mktemp("any") / "t.bin"
    path.write_bytes(head + data)
    try:
        saved = read_table(path)
    except TableFileError:
        return
    assert saved.end + saved.dropped == len(head + data)
