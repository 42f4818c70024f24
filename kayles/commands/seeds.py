"""Subcommands for the seed games: nim, wythoff, dag, treblecross, grundys (issue 4)."""

from __future__ import annotations


def register(sub) -> None:
    """Add the seed games' subcommands (none yet)."""
