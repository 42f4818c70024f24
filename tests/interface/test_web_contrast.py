"""The web page's colours: every text colour on its background reaches WCAG AA (4.5:1).

The pairs are read from static/style.css (its custom properties and rules), so a colour
changed there is checked here; the contrast ratio is WCAG 2's formula.
"""

from __future__ import annotations

import re

import pytest

from conftest import ROOT

STYLE = (ROOT / "kayles/interface/web/static/style.css").read_text()


def luminance(colour: str) -> float:
    channels = [int(colour[i : i + 2], 16) / 255 for i in (1, 3, 5)]
    linear = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def contrast(a: str, b: str) -> float:
    high, low = sorted((luminance(a), luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def colour(name: str) -> str:
    """A custom property's value (--pin) or a literal colour."""
    if name.startswith("--"):
        return re.search(rf"{name}: (#[0-9a-f]{{6}})", STYLE).group(1)
    return name


# (what, text colour, background): the page's text as it is drawn
PAIRS = [
    ("body text", "#1b1e24", "#ffffff"),
    ("notes and the log", "#495057", "#ffffff"),
    ("notes on the Why panel", "#495057", "#f8f9fb"),
    ("tabs on the header", "#dbe4ff", "--pin"),
    ("a pin's number", "#ffffff", "--pin"),
    ("a picked pin's number", "#ffffff", "--pick"),
    ("links and survey codes", "#1f4e9c", "#ffffff"),
    ("errors and rare values", "#c92a2a", "#ffffff"),
    ("the end of a game", "--win", "#ffffff"),
]


@pytest.mark.parametrize(("what", "text", "background"), PAIRS, ids=[p[0] for p in PAIRS])
def test_text_reaches_wcag_aa(what, text, background):
    for literal in (text, background):   # a colour this list names is one the page uses
        if literal.startswith("#"):
            spelled = ("white", "#fff") if literal == "#ffffff" else (literal,)
            assert any(s in STYLE.lower() for s in spelled), f"{literal} ({what}): not in style.css"
    assert contrast(colour(text), colour(background)) >= 4.5, what
