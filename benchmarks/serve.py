"""`kayles serve` under slow clients: an ordinary request's wait, and how long Ctrl-C takes.

    .venv/bin/python benchmarks/serve.py                       # 60 slow clients, 40 at Ctrl-C
    .venv/bin/python benchmarks/serve.py --slow 6 --rounds 3 --stop 4 --repeat 1   # tiny

Two measures, each on a fresh ``kayles serve --port 0`` (its proof cache empty):

* the issue's reproduction: --slow concurrent ``GET /api/sequence`` of distinct
  many-part codes (``0.&{2**64-8-k};``, each a proof search of minutes), each from its
  own loopback address (127.0.0.k, so that only the bound in all refuses them), beside
  one ordinary ``POST /api/analyse {"game": "kayles", "position": [7, 5, 3]}`` every
  0.5 s, --rounds times: the ordinary request's wall time (median, largest), and how the
  slow ones were answered (503 at once, or a 400 at their cap) within the run;
* Ctrl-C with --stop heavy requests in flight (the same codes, each its own address),
  once the server has used a second of CPU time: the wall time from SIGINT to the
  server's exit and the CPU time it used meanwhile, --repeat times (medians, runs).

It prints the machine (CPU model, cores, load average, the kernels' instruction set and
KAYLES_VECTOR) beside the figures.  Nothing here asserts: it reports.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import socket
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path
from tempfile import TemporaryDirectory
from urllib.parse import quote

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def machine() -> str:
    from kayles.kernels.chooser import IMPLEMENTATION
    from kayles.kernels.limits import cpu_model

    vector = "-"
    if IMPLEMENTATION == "cython":
        from kayles.kernels import _core

        vector = _core.default_vector()
    load = " ".join(f"{x:.2f}" for x in os.getloadavg())
    return (f"{cpu_model()}, {len(os.sched_getaffinity(0))} cores, load {load}; kernels "
            f"{IMPLEMENTATION}, instructions {vector} (KAYLES_VECTOR="
            f"{os.environ.get('KAYLES_VECTOR', '')!r})")


class Server:
    def __init__(self, cache: Path) -> None:
        env = {**os.environ, "XDG_CACHE_HOME": str(cache)}
        self.proc = subprocess.Popen([sys.executable, "-m", "kayles", "serve", "--port", "0"],
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT,
                                     env=env)
        line = self.proc.stdout.readline().decode()
        self.port = int(line.split(":")[3].split("/")[0])

    def cpu(self) -> float:
        fields = Path(f"/proc/{self.proc.pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def ask(self, k: int, request: bytes, answers: list | None = None):
        """Send ``request`` from 127.0.0.k; with ``answers``, read the reply on a thread
        and append (status, seconds) there; else return (status, seconds)."""
        began = time.perf_counter()
        s = socket.create_connection(("127.0.0.1", self.port), timeout=600,
                                     source_address=(f"127.0.0.{k}", 0))
        s.sendall(request.replace(b"PORT", str(self.port).encode()))

        def read() -> tuple[int, float]:
            data = b""
            try:
                while chunk := s.recv(65536):
                    data += chunk
            except OSError:
                pass
            finally:
                s.close()
            status = int(data.split()[1]) if data else 0
            return status, time.perf_counter() - began

        if answers is None:
            return read()
        threading.Thread(target=lambda: answers.append(read()), daemon=True).start()
        return None

    def stop(self) -> tuple[float, float]:
        """SIGINT, then (wall seconds till it ended, CPU seconds it used meanwhile)."""
        before = self.cpu()
        began = time.perf_counter()
        self.proc.send_signal(signal.SIGINT)
        _, status, usage = os.wait4(self.proc.pid, 0)
        took = time.perf_counter() - began
        self.proc.returncode = os.waitstatus_to_exitcode(status)
        self.proc.stdout.close()
        self.proc.stderr.close()
        return took, usage.ru_utime + usage.ru_stime - before


def slow(k: int) -> bytes:
    return (f"GET /api/sequence?game={quote(f'0.&{2**64 - 8 - k};')}&count=10 HTTP/1.1\r\n"
            "Host: 127.0.0.1:PORT\r\nConnection: close\r\n\r\n").encode()


ORDINARY = json.dumps({"game": "kayles", "position": [7, 5, 3]}).encode()
ORDINARY_REQUEST = (b"POST /api/analyse HTTP/1.1\r\nHost: 127.0.0.1:PORT\r\nContent-Type: "
                    b"application/json\r\nContent-Length: " + str(len(ORDINARY)).encode() +
                    b"\r\nConnection: close\r\n\r\n" + ORDINARY)


def ordinary_beside_slow(work: Path, count: int, rounds: int) -> None:
    server = Server(work / "cache-load")
    answers: list[tuple[int, float]] = []
    try:
        for k in range(count):
            server.ask(2 + k % 250, slow(k), answers)
        waits = []
        for _ in range(rounds):
            status, seconds = server.ask(253, ORDINARY_REQUEST)
            waits.append((status, seconds))
            time.sleep(0.5)
        seen = list(answers)
    finally:
        server.stop()
    times = [seconds for _, seconds in waits]
    print(f"the ordinary request beside {count} slow clients, {rounds} rounds 0.5 s apart:")
    print(f"  statuses {sorted({s for s, _ in waits})}, median {statistics.median(times):.3f} s, "
          f"largest {max(times):.3f} s: {' '.join(f'{t:.3f}' for t in times)}")
    refused = [seconds for status, seconds in seen if status == 503]
    capped = [seconds for status, seconds in seen if status != 503]
    print(f"  slow ones answered meanwhile: {len(refused)} with 503"
          + (f" (largest wait {max(refused):.3f} s)" if refused else "")
          + f", {len(capped)} otherwise; {count - len(seen)} still open at the end")


def ctrl_c(work: Path, count: int, repeat: int) -> None:
    walls, cpus = [], []
    for run in range(repeat):
        server = Server(work / f"cache-stop-{run}")
        answers: list = []
        for k in range(count):
            server.ask(2 + k % 250, slow(k), answers)
        started = server.cpu()
        while server.cpu() - started < 1.0:  # well into the work
            time.sleep(0.01)
        took, cpu = server.stop()
        walls.append(took)
        cpus.append(cpu)
    print(f"Ctrl-C with {count} heavy requests in flight, {repeat} runs: exit after median "
          f"{statistics.median(walls):.3f} s by the clock (largest {max(walls):.3f}), "
          f"{statistics.median(cpus):.3f} s of CPU; runs: "
          + " ".join(f"{w:.3f}/{c:.3f}" for w, c in zip(walls, cpus)))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--slow", type=int, default=60, help="slow clients (default 60)")
    parser.add_argument("--rounds", type=int, default=10, help="ordinary requests (default 10)")
    parser.add_argument("--stop", type=int, default=40,
                        help="heavy requests in flight at Ctrl-C (default 40)")
    parser.add_argument("--repeat", type=int, default=5, help="Ctrl-C runs (default 5)")
    args = parser.parse_args()
    print(machine())
    with TemporaryDirectory() as work:
        ordinary_beside_slow(Path(work), args.slow, args.rounds)
        ctrl_c(Path(work), args.stop, args.repeat)


if __name__ == "__main__":
    main()
