"""One glossary: kayles glossary, docs/glossary.md and the help agree on every term."""

from __future__ import annotations

import re
import subprocess
import sys

from kayles.interface.glossary import TERMS

from conftest import ROOT


def documented() -> dict[str, str]:
    """The entries of docs/glossary.md: '## name' and the text under it, on one line."""
    text = (ROOT / "docs" / "glossary.md").read_text()
    found = {}
    for match in re.finditer(r"^## (.+?)\n\n(.*?)(?=^## |\Z)", text, re.S | re.M):
        found[match.group(1).strip("`")] = " ".join(match.group(2).split())
    return found


def test_the_docs_page_says_what_the_command_says():
    assert documented() == {name: " ".join(text.split()) for name, text in TERMS.items()}


def test_the_help_points_to_the_glossary_and_its_words_are_there():
    result = subprocess.run([sys.executable, "-m", "kayles", "--help"], capture_output=True,
                            text=True, cwd=ROOT, timeout=60)
    assert "kayles glossary" in result.stdout
    for term in ("nim-sequence", "mex", "rare mask", "preperiod", "P-portion", "--to"):
        assert term in TERMS and term in result.stdout, term


def test_a_term_is_looked_up_and_an_unknown_one_is_one_line():
    found = subprocess.run([sys.executable, "-m", "kayles", "glossary", "MASK"],
                           capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert found.returncode == 0 and found.stdout.startswith("rare mask\n    The mask")
    missing = subprocess.run([sys.executable, "-m", "kayles", "glossary", "zzz"],
                             capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert (missing.returncode, missing.stdout, missing.stderr.count("\n")) == (2, "", 1)
