"""The proof cache (kayles.proof_cache): written cold, read warm, never stale, never in the way.

Every test points XDG_CACHE_HOME at its own temporary directory.  Files are read
and crafted here from the documented format (module header of proof_cache), not
through the package, so "the warm run reads the cache" is seen from outside: a
value planted in a valid file shows up in the output of that core only.
"""

from __future__ import annotations

import os
import shlex
import subprocess
import sys
import zlib
from concurrent.futures import ThreadPoolExecutor

import pytest

from kayles.engine.codes import get_game
from kayles.engine.rules import GAMES
from kayles.engine.sequence import Sequence
from kayles.kernels import chooser
from kayles.storage import proof_cache, signing
from kayles.storage.table_file import read_table

import oracle
from conftest import ROOT, listing, load_kernel

XOX = ROOT / "Kayles-xox"
PURE = os.environ.get("KAYLES_PURE", "") not in ("", "0")
TIMEOUT = 120


@pytest.fixture
def cache_home(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    return tmp_path / "cache" / "kayles"


def parse(data: bytes):
    """(key, preperiod, period, values) of a cache file, checked as the format says."""
    size = int.from_bytes(data[8:12], "little")
    start = 12 + size + 24
    assert data[:8] == b"KAYLESPC"
    assert signing.verify(data[:-32], data[-32:])
    data = data[:-32]
    assert int.from_bytes(data[-4:], "little") == zlib.crc32(data[:-4])
    n0, p, count = (int.from_bytes(data[i : i + 8], "little") for i in range(12 + size, start, 8))
    assert len(data) == start + 2 * count + 4
    values = [int.from_bytes(data[i : i + 2], "little") for i in range(start, start + 2 * count, 2)]
    return data[12 : 12 + size], n0, p, values


def craft(key: bytes, n0: int, p: int, values, signed: bool = True) -> bytes:
    """A cache file of these contents, its CRC made; signed with this user's key (the
    tests' own, conftest's XDG_DATA_HOME) unless told not to."""
    data = b"KAYLESPC" + len(key).to_bytes(4, "little") + key
    data += b"".join(x.to_bytes(8, "little") for x in (n0, p, len(values)))
    data += b"".join(v.to_bytes(2, "little") for v in values)
    data += zlib.crc32(data).to_bytes(4, "little")
    return data + (bytes.fromhex(signing.sign(data)) if signed else bytes(32))


def prove_through_cache(game):
    """What a run does: take the cached sequence; prove it (a no-op when it came proved)."""
    sequence = proof_cache.sequence(game)
    sequence.prove()
    return sequence


# -- in process, on the core this session runs --------------------------------------------------


def test_a_cold_run_writes_the_cache_and_a_warm_run_reads_it(cache_home):
    game = get_game("0.77")
    assert proof_cache.load(game) is None
    cold = prove_through_cache(game)
    files = list(cache_home.iterdir())
    assert [f.name for f in files] == [f"0.77.{'python' if PURE else 'cython'}.proof"]
    key, n0, p, values = parse(files[0].read_bytes())
    assert (n0, p, len(values)) == (71, 12, 167)  # Kayles: period 12 from 71 (published)
    assert values == oracle.octal_nimbers("0.77", 166)
    warm = proof_cache.load(game)
    assert warm is not None and warm.period == cold.period
    assert warm.nimbers(2000) == oracle.octal_nimbers("0.77", 2000)
    assert warm.nimber(10**30) == warm.nimber(71 + (10**30 - 71) % 12)


def test_damaged_or_foreign_files_are_ignored_and_rewritten(cache_home):
    game = get_game("0.77")
    prove_through_cache(game)
    path = next(cache_home.iterdir())
    good = path.read_bytes()
    key, n0, p, values = parse(good)
    flipped = bytearray(good)
    flipped[len(good) // 2] ^= 1
    other_key = key.replace(b"moves ", b"moves 9,-,7,0;")
    not_proved = values[:100]
    for bad in (bytes(flipped), good[:-1], good + b"\0", b"", craft(other_key, n0, p, values),
                craft(key, n0, p, not_proved), craft(key, n0, p + 1, values)):
        path.write_bytes(bad)
        assert proof_cache.load(game) is None
        assert prove_through_cache(game).nimbers(300) == oracle.octal_nimbers("0.77", 300)
        assert path.read_bytes() == good  # rewritten by the run that proved it again


def test_only_the_kernel_the_key_names_may_store(cache_home, both_kernels):
    game = get_game("0.07")
    stored = []
    for kernel in both_kernels:
        sequence = Sequence(game, kernel=kernel)
        sequence.prove()
        stored.append(proof_cache.save(sequence))
    chosen = proof_cache.kernel_file()[1]
    assert stored == [kernel.__file__ == chosen for kernel in both_kernels]
    assert stored.count(True) == 1


def test_a_proof_too_long_for_the_reader_is_not_written(cache_home, monkeypatch):
    """A file past LARGEST is refused when read (not one of ours), so none is written: a
    proof of 0.1777 (443 million values) would have left 886 MB nobody reads."""
    sequence = Sequence(GAMES["kayles-xox"])   # 52,342 values: 104 KB
    sequence.prove()
    monkeypatch.setattr(proof_cache, "LARGEST", 100_000)
    assert proof_cache.save(sequence) is False
    assert not cache_home.exists() or not list(cache_home.iterdir())
    monkeypatch.setattr(proof_cache, "LARGEST", 110_000)
    assert proof_cache.save(sequence) is True


def test_the_key_changes_with_the_kernel_file(cache_home, tmp_path, monkeypatch):
    kernel = tmp_path / "_core.fake.so"
    kernel.write_bytes(b"one")
    monkeypatch.setattr(proof_cache, "kernel_file", lambda: ("cython", str(kernel)))
    game = GAMES["kayles-xox"]
    first = proof_cache.cache_key(game)
    os.utime(kernel, ns=(1, 10**18))
    second = proof_cache.cache_key(game)
    kernel.write_bytes(b"three")
    os.utime(kernel, ns=(1, 10**18))
    third = proof_cache.cache_key(game)
    assert len({first, second, third}) == 3
    assert proof_cache.cache_key(get_game("0.77")) != third


def test_an_unusable_cache_is_silent(tmp_path, monkeypatch):
    blocker = tmp_path / "a-file"
    blocker.write_text("not a directory")
    monkeypatch.setenv("XDG_CACHE_HOME", str(blocker / "cache"))
    game = get_game("0.77")
    sequence = prove_through_cache(game)
    assert sequence.nimbers(200) == oracle.octal_nimbers("0.77", 200)
    assert proof_cache.save(sequence) is False
    monkeypatch.setenv("XDG_CACHE_HOME", "relative/path")
    monkeypatch.delenv("HOME", raising=False)
    assert proof_cache.cache_dir() is None and proof_cache.load(game) is None


# -- the Kayles-xox executable, compiled and pure side by side --------------------------------


def xox(*args, home, pure: bool) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k not in ("KAYLES_PURE", "XDG_CACHE_HOME")}
    env["XDG_CACHE_HOME"] = str(home)
    if pure:
        env["KAYLES_PURE"] = "1"
        env.pop("KAYLES_REQUIRE_NATIVE", None)
    return subprocess.run([str(XOX), *args], capture_output=True, env=env, timeout=TIMEOUT)


def ok(result: subprocess.CompletedProcess) -> bytes:
    assert (result.returncode, result.stderr) == (0, b""), result.stderr
    return result.stdout


@pytest.fixture(scope="module")
def expected_1000():
    load_kernel("cython")  # the compiled core must be built (or, without it, skip)
    return listing(oracle.xox_nimbers_by_sum(1000))


def test_cold_then_warm_kayles_xox(tmp_path, expected_1000):
    path = tmp_path / "kayles" / "kayles-xox.cython.proof"
    assert ok(xox("grundy", "1000", home=tmp_path, pure=False)) == expected_1000
    written = path.read_bytes()
    key, n0, p, values = parse(written)
    assert (n0, p, len(values)) == (26152, 18, 52342)
    assert ok(xox("grundy", "1000", home=tmp_path, pure=False)) == expected_1000
    assert ok(xox("xxxxxxx.xxxxxxxx..xxxxxxxx.", home=tmp_path, pure=False)) == (
        b"xxx.xxx.xxxxxxxx..xxxxxxxx.\n")  # the seed's example, kernel loaded on demand
    assert path.read_bytes() == written and sorted(os.listdir(path.parent)) == [path.name]
    damaged = bytearray(written)
    damaged[len(written) // 3] ^= 0x40
    foreign = craft(key.replace(b"kayles ", b"kayles 0.0.0-other ", 1), n0, p, values)
    for bad in (bytes(damaged), written[: len(written) // 2], foreign):
        path.write_bytes(bad)
        assert ok(xox("grundy", "1000", home=tmp_path, pure=False)) == expected_1000
        assert path.read_bytes() == written  # ignored, proved again, rewritten


def test_compiled_and_pure_never_read_each_others_files(tmp_path, monkeypatch, expected_1000):
    """Each core's file gets a value only that file can give, past the values every load
    derives again (G(500) = 99 and 77: in the preperiod, which the certificate leaves alone)."""
    ok(xox("grundy", "10", home=tmp_path, pure=False))
    folder = tmp_path / "kayles"
    key, n0, p, values = parse((folder / "kayles-xox.cython.proof").read_bytes())
    (folder / "kayles-xox.cython.proof").write_bytes(craft(key, n0, p, planted(values, 500, 99)))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.setenv("KAYLES_PURE", "1")
    monkeypatch.delenv("KAYLES_REQUIRE_NATIVE", raising=False)
    monkeypatch.setattr(chooser, "_chosen", None)  # the choice is made once a process: anew
    pure_key = proof_cache.cache_key(GAMES["kayles-xox"])[1].encode()
    assert pure_key != key
    (folder / "kayles-xox.python.proof").write_bytes(
        craft(pure_key, n0, p, planted(values, 500, 77)))
    compiled = ok(xox("grundy", "1000", home=tmp_path, pure=False))
    pure = ok(xox("grundy", "1000", home=tmp_path, pure=True))
    true_values = expected_1000.decode()[1:-2].split(", ")
    assert compiled.decode()[1:-2].split(", ") == planted(true_values, 500, "99")
    assert pure.decode()[1:-2].split(", ") == planted(true_values, 500, "77")
    for name in ("kayles-xox.cython.proof", "kayles-xox.python.proof"):
        (folder / name).unlink()
    assert ok(xox("grundy", "1000", home=tmp_path, pure=True)) == expected_1000
    assert ok(xox("grundy", "1000", home=tmp_path, pure=False)) == expected_1000


def planted(values, at: int, value) -> list:
    return [*values[:at], value, *values[at + 1 :]]


def test_an_edited_small_value_is_caught_even_with_its_crc(tmp_path, expected_1000):
    """The issue's forgery: G(5) = 9 with the CRC recomputed (and the certificate intact)."""
    ok(xox("grundy", "10", home=tmp_path, pure=False))
    path = tmp_path / "kayles" / "kayles-xox.cython.proof"
    key, n0, p, values = parse(path.read_bytes())
    path.write_bytes(craft(key, n0, p, planted(values, 5, 9)))
    assert ok(xox("grundy", "6", home=tmp_path, pure=False)) == b"[0, 1, 0, 2, 3, 2, 1]\n"
    assert parse(path.read_bytes())[3][5] == 2  # proved again and rewritten


def test_a_large_value_forged_without_the_key_is_ignored(tmp_path, expected_1000):
    """G(500) = 99 with the CRC made again, unsigned or signed with another user's key:
    past the values every load derives again, so only the signature catches it; the run
    proves its period again and rewrites the file."""
    ok(xox("grundy", "10", home=tmp_path, pure=False))
    path = tmp_path / "kayles" / "kayles-xox.cython.proof"
    written = path.read_bytes()
    key, n0, p, values = parse(written)
    forged = craft(key, n0, p, planted(values, 500, 99), signed=False)
    other = signing.Signer(b"another user's key, 32 bytes...!", forged[:-32]).digest()
    for bad in (forged, forged[:-32] + other, written[:-32] + bytes(32)):
        path.write_bytes(bad)
        assert b", 99," not in ok(xox("grundy", "600", home=tmp_path, pure=False))
        assert path.read_bytes() == written  # ignored, proved again, rewritten


def test_a_file_others_may_write_is_not_trusted(tmp_path):
    ok(xox("grundy", "10", home=tmp_path, pure=False))
    path = tmp_path / "kayles" / "kayles-xox.cython.proof"
    key, n0, p, values = parse(path.read_bytes())
    path.write_bytes(craft(key, n0, p, planted(values, 500, 99)))
    path.chmod(0o666)
    assert b", 99," not in ok(xox("grundy", "600", home=tmp_path, pure=False))


def test_a_fifo_in_place_of_the_cache_file_is_not_waited_on(tmp_path, expected_1000):
    folder = tmp_path / "kayles"
    folder.mkdir()
    os.mkfifo(folder / "kayles-xox.cython.proof")
    os.mkfifo(tmp_path / "elsewhere")
    assert ok(xox("grundy", "1000", home=tmp_path, pure=False)) == expected_1000
    (folder / "kayles-xox.cython.proof").unlink()
    (folder / "kayles-xox.cython.proof").symlink_to(tmp_path / "elsewhere")
    assert ok(xox("grundy", "1000", home=tmp_path, pure=False)) == expected_1000


def test_temporaries_of_killed_writers_are_removed(tmp_path, expected_1000):
    folder = tmp_path / "kayles"
    folder.mkdir()
    dead = folder / ".kayles-xox.cython.proof.99999999.0badc0de.tmp"  # no such process
    alive = folder / f".kayles-xox.cython.proof.{os.getpid()}.0badc0de.tmp"  # this one
    dead.write_bytes(b"half a file")
    alive.write_bytes(b"being written")
    assert ok(xox("grundy", "1000", home=tmp_path, pure=False)) == expected_1000
    assert not dead.exists() and alive.exists()


def test_concurrent_cold_runs_leave_one_whole_file(tmp_path, expected_1000):
    runs = 6
    with ThreadPoolExecutor(runs) as pool:
        outputs = list(pool.map(lambda _: ok(xox("grundy", "100000", home=tmp_path, pure=False)),
                                range(runs)))
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    uncached = ok(xox("grundy", "100000", home=blocker, pure=False))
    assert outputs == [uncached] * runs and uncached.startswith(expected_1000[:-2])
    assert os.listdir(tmp_path / "kayles") == ["kayles-xox.cython.proof"]  # no temporary left
    parse((tmp_path / "kayles" / "kayles-xox.cython.proof").read_bytes())
    assert ok(xox("grundy", "100000", home=tmp_path, pure=False)) == uncached


def test_an_unwritable_cache_changes_nothing(tmp_path, expected_1000):
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    for pure in (False, True):
        assert ok(xox("grundy", "1000", home=blocker / "cache", pure=pure)) == expected_1000
    assert blocker.read_text() == ""


def test_a_warm_run_imports_neither_a_kernel_nor_os(tmp_path, expected_1000):
    """What start-up leaves out (python -X importtime lists every module imported)."""
    ok(xox("grundy", "10", home=tmp_path, pure=False))  # fills the cache
    env = {k: v for k, v in os.environ.items() if k != "KAYLES_PURE"}
    env["XDG_CACHE_HOME"] = str(tmp_path)
    # ./Kayles-xox is a sh launcher (see the Makefile): its Python command, -X importtime added
    launch = shlex.split(XOX.read_text().splitlines()[-1])
    assert launch[0] == "exec" and launch[-1] == "$@" and "-IS" in launch, launch
    result = subprocess.run([launch[1], "-X", "importtime", *launch[2:-1], "grundy", "1000"],
                            capture_output=True, env=env, timeout=TIMEOUT)
    assert result.returncode == 0 and result.stdout == expected_1000
    imported = {line.rsplit("|", 1)[-1].strip() for line in result.stderr.decode().splitlines()
                if line.startswith("import time:")}
    assert "kayles.analysis.xox" in imported and "kayles.storage.proof_cache" in imported
    for heavy in ("kayles.kernels._core", "kayles.kernels.pure._core", "os", "importlib",
                  "collections", "argparse", "kayles.analysis.row", "struct", "array"):
        assert heavy not in imported, heavy


def kayles(*args, home) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k not in ("KAYLES_PURE", "XDG_CACHE_HOME")}
    env["XDG_CACHE_HOME"] = str(home)
    return subprocess.run([sys.executable, "-m", "kayles", *args], capture_output=True, env=env,
                          cwd=ROOT, timeout=TIMEOUT)


def test_the_kayles_command_stores_and_reads_proofs_but_saved_runs_compute(tmp_path):
    """``kayles period`` stores a proof it finds; ``kayles move`` past the direct limit then
    answers from the cache (the same answer as with no cache); ``period --max`` below the
    proof's length still finds none; --save computes its table."""
    load_kernel("cython")
    path = tmp_path / "kayles" / "kayles.cython.proof"
    huge = str(10**30)
    uncached = ok(kayles("move", huge, "--game", "kayles", home="relative"))  # no cache at all
    assert ok(kayles("period", "--game", "kayles", home=tmp_path)).startswith(b"kayles: period 12")
    _, n0, p, values = parse(path.read_bytes())
    assert (n0, p, list(values)) == (71, 12, oracle.octal_nimbers("0.77", len(values) - 1))
    assert ok(kayles("move", huge, "--game", "kayles", home=tmp_path)) == uncached
    bounded = ["period", "--game", "kayles", "--max", "100"]  # fewer values than the proof
    assert ok(kayles(*bounded, home=tmp_path)) == ok(kayles(*bounded, home="relative"))
    assert b"no period" in ok(kayles(*bounded, home=tmp_path))
    saved = tmp_path / "kayles.table"
    ok(kayles("grundy", "300", "--game", "kayles", "--save", str(saved), home=tmp_path))
    # The saved table is the one the run computed: up to the proof (167 values), not empty.
    assert list(read_table(str(saved)).values) == oracle.octal_nimbers("0.77", 166)
