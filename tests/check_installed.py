"""Check an installed kayles as a user meets it: the import, both executables, the core.

Run by ``make dist-check`` in fresh virtual environments outside the checkout (the
wheel, then the source distribution, each installed by pip with the extra kayles[web],
whose page it fetches from a running ``kayles serve``) and by cibuildwheel on
each wheel it builds: ``python tests/check_installed.py`` with the environment's
python, from a folder outside the checkout.  With KAYLES_REQUIRE_NATIVE=1 the
compiled core must be the one that runs.  Exit status 0 when every check passed;
otherwise the first failure, on stderr.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import sysconfig
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent  # the checkout, which must not be imported
SCRIPTS = Path(sysconfig.get_path("scripts"))
REQUIRE_NATIVE = os.environ.get("KAYLES_REQUIRE_NATIVE") == "1"


def run(program: str, *args: str, status: int = 0) -> str:
    result = subprocess.run([str(SCRIPTS / program), *args], capture_output=True, text=True,
                            timeout=300)
    assert result.returncode == status, (program, args, result.returncode, result.stderr)
    assert (result.stderr == "") == (status == 0), (program, args, result.stderr)
    return result.stdout


def check_the_page() -> None:
    """`kayles serve` from the installed copy (installed with the extra kayles[web]) serves
    the page and its files, and answers the API; Ctrl-C stops it."""
    import signal
    import urllib.request

    command = [str(SCRIPTS / "kayles"), "serve", "--port", "0"]
    with subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE) as server:
        try:
            line = server.stdout.readline().decode()
            assert line.startswith("kayles serve: http://"), (line, server.stderr.read())
            url = line.split()[2]

            def get(path: str) -> bytes:
                with urllib.request.urlopen(url + path, timeout=60) as reply:
                    assert reply.status == 200, (path, reply.status)
                    return reply.read()

            assert b"<title>kayles" in get(""), "the page"
            for name in ("app.js", "style.css"):
                assert get(f"static/{name}"), name
            assert json.loads(get("api/nimber?game=kayles&n=10"))["value"] == 2
            server.send_signal(signal.SIGINT)
            server.wait(timeout=60)
        finally:
            if server.poll() is None:
                server.kill()


def main() -> int:
    os.chdir(tempfile.mkdtemp(prefix="kayles-installed-"))
    os.environ["XDG_CACHE_HOME"] = os.getcwd()  # a cache of its own, not the user's
    os.environ["XDG_DATA_HOME"] = os.getcwd()  # and a signing key of its own
    sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != HERE]

    import kayles
    from kayles.analysis import xox
    from kayles.kernels import chooser

    where = Path(kayles.__file__).resolve()
    assert HERE not in where.parents, f"imported the checkout, not the install: {where}"
    if REQUIRE_NATIVE:
        assert kayles.IMPLEMENTATION == "cython", "the compiled core is not the one running"
        assert HERE not in Path(chooser.choice()[1]).resolve().parents
    assert xox.nimbers(6) == [0, 1, 0, 2, 3, 2, 1]

    assert run("Kayles-xox", "grundy", "6") == "[0, 1, 0, 2, 3, 2, 1]\n"
    assert run("Kayles-xox", ".x") == "..\n"
    assert run("Kayles-xox", "xxxxxxx.xxxxxxxx..xxxxxxxx.") == "xxx.xxx.xxxxxxxx..xxxxxxxx.\n"
    assert run("Kayles-xox", "xxx.x.xxxx") == "LOSS\n"
    run("Kayles-xox", "x?x", status=2)
    if REQUIRE_NATIVE:
        assert "compiled" in run("Kayles-xox", "--version")

    kayles_10 = run("kayles", "grundy", "10", "--game", "kayles")
    assert kayles_10 == "[0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2]\n", kayles_10
    period = json.loads(run("kayles", "period", "--game", "0.07", "--json"))
    assert (period["preperiod"], period["period"]) == (53, 34), period
    assert run("kayles", "move", "7", "5", "3", "--game", "grundy") == "heap 2: 5 -> 2 + 3\n"
    assert run("kayles", "move", "xxxxxxxxxx", "--misere") == ".x.xxxxxxx\n"
    if REQUIRE_NATIVE:
        assert chooser.quotient_kernel.__name__ == "kayles.kernels._quotient"
        assert chooser.hackenbush_kernel.__name__ == "kayles.kernels._hackenbush"
    picture = Path("picture.txt")  # a triangle standing on the ground, a stalk of two on top
    picture.write_text("g-a a-b b-g b-c c-d")
    assert json.loads(run("kayles", "hackenbush", str(picture), "--json")) == {
        "value": 3, "cuts": [4]}
    solved = json.loads(run("kayles", "quotient", "--game", "0.75", "--max-heap", "50",
                            "--json"))["solved"]
    assert (solved["period"], solved["preperiod"]) == (2, 8), solved
    run("kayles", "grundy", "12x", status=2)
    check_the_page()
    print(f"kayles {kayles.__version__} installed at {where.parent}: every check passed "
          f"({kayles.IMPLEMENTATION} core)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
