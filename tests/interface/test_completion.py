"""Shell completion of ``kayles`` through argcomplete (the extra kayles[completion]).

The console script is run the way the shell function of
``eval "$(register-python-argcomplete kayles)"`` runs it: _ARGCOMPLETE=1, the
command line in COMP_LINE and the cursor in COMP_POINT; argcomplete writes the
candidates, separated by its IFS (vertical tab), to _ARGCOMPLETE_STDOUT_FILENAME.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import ROOT

TIMEOUT = 60
CONSOLE_SCRIPT = Path(sys.executable).with_name("kayles")
SUBCOMMANDS = {"grundy", "period", "move", "games", "nim", "wythoff", "dag", "treblecross",
               "grundys", "plot", "play"}


def complete(line: str, tmp_path: Path) -> set[str]:
    out = tmp_path / "completions"
    env = dict(os.environ, _ARGCOMPLETE="1", _ARGCOMPLETE_IFS="\v", COMP_LINE=line,
               COMP_POINT=str(len(line)), _ARGCOMPLETE_STDOUT_FILENAME=str(out))
    result = subprocess.run([str(CONSOLE_SCRIPT)], env=env, capture_output=True,
                            cwd=ROOT, timeout=TIMEOUT)
    assert (result.returncode, result.stderr) == (0, b""), result.stderr
    return {word.strip() for word in out.read_text().split("\v") if word.strip()}


def test_subcommands_are_offered(tmp_path):
    assert CONSOLE_SCRIPT.exists()
    assert complete("kayles ", tmp_path) >= SUBCOMMANDS
    assert complete("kayles p", tmp_path) == {"period", "plot", "play"}


def test_options_and_game_names_are_offered(tmp_path):
    offered = complete("kayles play --", tmp_path)
    assert {"--misere", "--starts", "--hint", "--game"} <= offered
    assert "--first" not in offered  # the older spelling: taken, not offered
    assert complete("kayles plot --game dawsons-", tmp_path) == {"dawsons-kayles",
                                                                  "dawsons-chess"}
    assert complete("kayles play --starts ", tmp_path) == {"you", "me"}


@pytest.mark.parametrize("argv", [["games"], ["grundy", "5"]])
def test_normal_start_up_never_imports_argcomplete(argv):
    code = ("import sys\nfrom kayles.interface.kayles_cli import main\n"
            f"status = main({argv!r})\n"
            "assert 'argcomplete' not in sys.modules, 'argcomplete imported'\n"
            "sys.exit(status)")
    env = {k: v for k, v in os.environ.items() if k != "_ARGCOMPLETE"}
    result = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                            cwd=ROOT, timeout=TIMEOUT)
    assert (result.returncode, result.stderr) == (0, b"")
