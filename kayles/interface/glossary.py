"""The words the commands, their help and the docs use, each defined once.

``kayles glossary [TERM]`` prints them; docs/glossary.md says the same
(tests/interface/test_glossary.py keeps the two equal, and checks that every term the help
leans on is here).  The vocabulary of the options is part of it: one name per
idea, the older spellings still taken but no longer shown.
"""

from __future__ import annotations

from ..errors import InputError, shown

__all__ = ["TERMS", "lookup"]

TERMS: dict[str, str] = {
    "heap game": "A game played on heaps of tokens (or rows of pins): a move takes tokens from "
    "one heap and may leave up to two heaps where it stood.  Kayles-xox, Kayles, the octal "
    "games and Grundy's game are heap games.",
    "option": "A position one move reaches.",
    "mex": "The minimum excludant of a set of numbers: the least non-negative integer not in "
    "it (mex{0, 1, 3} = 2, mex{} = 0).",
    "Grundy value": "G(n), the nimber of a position: the mex of its options' Grundy values.  "
    "A position is a loss for the player to move exactly when its value is 0 (normal "
    "play).",
    "nim-sum": "The XOR of Grundy values (binary addition without carries): the value of a "
    "sum of games, such as a row of several runs of pins.",
    "nim-sequence": "G(0), G(1), G(2), ...: the Grundy values of the heaps of a game, one "
    "heap size after another.",
    "normal play": "Whoever cannot move loses (the last move wins).",
    "misère play": "Whoever cannot move wins (the last move loses).  Values no longer add "
    "by nim-sum.",
    "outcome": "P (a loss for the player to move, the previous player wins) or N (a win for "
    "the player to move); in a game with cycles (kayles dag) also D, a draw with best play.",
    "octal code": "0.d1d2d3...: digit dk says how a move may take k adjacent tokens from a "
    "heap, as the sum of 1 (leaving nothing), 2 (leaving one heap) and 4 (leaving two "
    "heaps).  The digit before the point, d0, is 4 when a heap may also be split in two "
    "without taking anything (4.07), else 0.",
    "period": "The least p with G(n + p) = G(n) for every n from the preperiod on.",
    "preperiod": "The least n0 from which the nim-sequence repeats with its period.",
    "proved": "A period is proved when the values computed reach the bound of the octal "
    "periodicity theorem (Guy and Smith): then G(n) is known for every n.",
    "rare value": "Under a mask m, a value v is rare when v AND m has an even number of 1 "
    "bits, common otherwise.  In most octal games few heaps have rare values, and the "
    "sparse method (Gangolli and Plambeck) finds the others from the pairs with a rare "
    "part.",
    "rare mask": "The mask that splits values into rare and common ones, chosen from the "
    "values so far so that the fewest heaps are rare.  Where every move that may leave two "
    "heaps removes a number of tokens of one parity s, a mask may read the heap's parity "
    "too (written 6+parity; 6 + 65536 in CSV and JSON): heap n is then rare when "
    "popcount(G(n) AND m) + ((n XOR s) AND 1) is even.",
    "rare heap": "A heap whose value is rare; the last rare heap is the largest one found.",
    "checksum": "The Fletcher-32 checksum of the values G(0..n), as the published records "
    "give it, so two programs can compare long nim-sequences.",
    "values": "In a survey row: how many values G(0..values-1) the row describes (those the "
    "proof used, or all that were computed).",
    "status": "In a survey or census row: solved (its preperiod and period proved, a saltus "
    "too) or open (none proved within the values computed).  The misère census's: solved, "
    "done or short.",
    "computed": "In a survey or census row: the most values it was asked to compute (its "
    "--to, or its census pass).",
    "largest heap": "In a survey row: the first heap whose value is the largest.",
    "genus": "A heap's misère behaviour in sums with heaps of value 2: its normal-play value "
    "and its misère values with 0, 1, 2, ... such heaps added.",
    "misère quotient": "The positions of a game modulo 'G and H are indistinguishable when "
    "G + X and H + X have the same misère outcome for every X' (Plambeck and Siegel): a "
    "commutative monoid, given by generators and relations.",
    "P-portion": "The elements of a misère quotient whose positions are losses for the "
    "player to move.",
    "solved": "A misère quotient is solved when the heaps' classes are provably periodic: "
    "it then holds for every heap size.",
    "direct limit": "The longest table computed without a proved period: as many values "
    "as the memory holds at 6 bytes a value (the memory Linux calls available, or "
    "KAYLES_MEMORY, e.g. 8G), at most 2**32 - 1.  Past it only a proof answers, and "
    "commands that would need more say how much memory up front.",
    "window": "In a long run (kayles run): the values kept, G(0..W-1) and about 2W recent "
    "ones; every rare heap must lie below it.",
    "--to": "How far to go, in every command: the last heap (run, plot, quotient) or the "
    "most values to compute (grundy's --save runs, period, survey).  Older spellings: "
    "--max, --last, --max-heap.",
    "--budget": "How many positions a misère search (move, genus, play) may store.",
    "--states": "How many states one walk of a misère quotient's proof may visit (quotient, "
    "survey --misere).  Older spelling: --budget.",
    "--d0": "The digit before the point of the codes a survey of --digits K walks (0 or 4).  "
    "Older spelling: --first.",
    "--starts": "Who moves first in kayles play: you or me (the program).  Older spelling: "
    "--first.",
}


def lookup(term: str) -> list[tuple[str, str]]:
    """The entries whose name holds ``term`` (any case), or ValueError naming the terms."""
    wanted = term.strip().lower()
    found = [(name, text) for name, text in TERMS.items() if wanted in name.lower()]
    if not found:
        raise InputError(f"no term {shown(term)} in the glossary; the terms: "
                         f"{', '.join(TERMS)}")
    return found
