"""A search's tables saved to a file and read back, so an interrupted ``kayles solve`` resumes.

The format::

    b"KAYLESSEARCH 1\\n"
    one line of JSON: {"game": the game's identity, "normal": N, "misere": M}
    N entries of the normal-play table, then M of the misère table: a key, then its int
    b"\\n", then the signature: HMAC-SHA256 of every byte before it, 64 hex digits, b"\\n"

An item is written in a prefix code, ASCII but for the bytes of strings: ``i-12;`` an
int, ``s5:hello`` a str (its UTF-8 bytes counted), ``b3:...`` bytes, ``d0.5;`` a float,
``N`` ``T`` ``F`` None, True and False, ``(2;`` a tuple of the 2 items that follow, ``{2;``
a frozenset of them.  Keys of any other type cannot be saved (the game's ``key`` can make
them so): ``InputError`` before the search begins (``check_savable``).

Reading trusts nothing before the signature: it reads at most ``limit`` bytes of a regular
file, checks the signature over all of them (a file this user's kayles did not write, or
one edited since, is refused whole: the same command with --save FILE --force starts
afresh), then the game's identity (a table of another game, or of another version of the
game's file, is refused), then decodes under bounds: every count and length within the
bytes that are left, nesting at most MAX_DEPTH deep (an explicit stack, no recursion),
ints of at most MAX_DIGITS digits.  Anything else is damage: one line, and nothing used.
"""

from __future__ import annotations

import json
import os

from .._numbers import MAX_DIGITS
from ..errors import InputError
from . import signing
from ._files import display, read_regular, write_atomically

__all__ = ["MAGIC", "MAX_DEPTH", "check_savable", "read", "write"]

MAGIC = b"KAYLESSEARCH 1\n"
MAX_DEPTH = 10_000  # tuples and frozensets nested in one key, at most
SIGNATURE = 2 * signing.SIZE + 2  # b"\n", 64 hex digits, b"\n"


def _encode(item, out: list) -> None:
    """Append ``item``'s code (module header) to ``out``; InputError for an unsavable type."""
    pending = [item]
    while pending:
        thing = pending.pop()
        kind = type(thing)
        if kind is int:
            out.append(b"i%d;" % thing)
        elif kind is str:
            data = thing.encode("utf-8", "surrogatepass")
            out.append(b"s%d:" % len(data))
            out.append(data)
        elif kind is tuple:
            out.append(b"(%d;" % len(thing))
            pending.extend(reversed(thing))
        elif kind is frozenset:
            out.append(b"{%d;" % len(thing))
            pending.extend(thing)
        elif thing is None:
            out.append(b"N")
        elif thing is True:
            out.append(b"T")
        elif thing is False:
            out.append(b"F")
        elif kind is bytes:
            out.append(b"b%d:" % len(thing))
            out.append(thing)
        elif kind is float:
            out.append(b"d" + repr(thing).encode() + b";")
        else:
            raise InputError(f"a table holding keys of type {kind.__name__} cannot be saved: "
                             "a key of the game must be made of ints, strings, bytes, tuples "
                             "and frozensets (its key(position) can make it so)")


def check_savable(keys) -> None:
    """InputError when one of ``keys`` could not be saved (module header)."""
    out: list = []
    for key in keys:
        _encode(key, out)


def write(path: str | os.PathLike, identity: str, normal, misere, force: bool = False) -> None:
    """Save the tables (iterables of (key, int)) of the game ``identity`` to ``path``, whole or
    not at all; ``force``: replace a file that exists."""
    normal, misere = list(normal), list(misere)
    head = json.dumps({"game": identity, "normal": len(normal), "misere": len(misere)})
    parts = [MAGIC, head.encode() + b"\n"]
    for key, value in normal:
        _encode(key, parts)
        parts.append(b"i%d;" % value)
    for key, value in misere:
        _encode(key, parts)
        parts.append(b"i%d;" % value)
    body = b"".join(parts)
    signature = signing.sign(body)

    def put(handle) -> None:
        handle.write(body)
        handle.write(b"\n" + signature.encode() + b"\n")

    write_atomically(path, put, force, "--force replaces it")


def read(path: str | os.PathLike, identity: str, limit: int) -> tuple[list, list]:
    """(normal, misère): the entries [(key, int)] saved in ``path`` for the game
    ``identity``; InputError when the file is not one to trust (module header)."""
    data = read_regular(path, limit, "the saved table")
    where = display(path)
    afresh = f"the same command with --save {where} --force in place of --resume starts afresh"
    if not data.startswith(MAGIC):
        raise InputError(f"{where}: not a table saved by kayles solve")
    body, signature = data[:-SIGNATURE], data[-SIGNATURE:]
    if len(data) < len(MAGIC) + SIGNATURE or signature[:1] != b"\n" or \
            signature[-1:] != b"\n" or not signing.verify(body, signature[1:-1].decode(
                "ascii", "replace")):
        raise InputError(f"{where}: not signed by this user's kayles (edited, copied, or cut "
                         f"short); {afresh}")
    end = body.find(b"\n", len(MAGIC))
    try:
        head = json.loads(body[len(MAGIC):end] if end > 0 else b"")
        game, normal_count, misere_count = head["game"], head["normal"], head["misere"]
    except (ValueError, KeyError, TypeError):
        raise InputError(f"{where}: its header is damaged; {afresh}") from None
    if game != identity:
        raise InputError(f"{where}: saved for another game ({game}), not {identity}; {afresh}")
    reader = _Reader(body, end + 1, where)
    try:
        normal = [(reader.item(), reader.number()) for _ in range(normal_count)]
        misere = [(reader.item(), reader.number()) for _ in range(misere_count)]
    except (ValueError, IndexError, TypeError, UnicodeDecodeError):
        raise InputError(f"{where}: damaged at byte {reader.at}; {afresh}") from None
    if reader.at != len(body):
        raise InputError(f"{where}: damaged at byte {reader.at}; {afresh}")
    return normal, misere


class _Reader:
    """Items decoded from ``data`` from ``at`` on; ValueError where the code is broken."""

    def __init__(self, data: bytes, at: int, where: str) -> None:
        self.data, self.at, self.where = data, at, where

    def _count(self, end: bytes) -> int:
        stop = self.data.index(end, self.at, self.at + 24)
        text = self.data[self.at:stop]
        if not text.isdigit():
            raise ValueError("a count")
        self.at = stop + 1
        count = int(text)
        if count > len(self.data) - self.at:
            raise ValueError("a count past the end")
        return count

    def number(self) -> int:
        if self.data[self.at:self.at + 1] != b"i":
            raise ValueError("an int")
        self.at += 1
        return self._int()

    def _int(self) -> int:
        stop = self.data.index(b";", self.at, self.at + MAX_DIGITS + 2)
        text = self.data[self.at:stop]
        digits = text[1:] if text[:1] == b"-" else text
        if not digits.isdigit():
            raise ValueError("an int")
        self.at = stop + 1
        return int(text)

    def item(self):
        stack: list[list] = []  # [kind, items left, items]
        while True:
            tag = self.data[self.at:self.at + 1]
            self.at += 1
            if tag == b"i":
                value = self._int()
            elif tag in (b"s", b"b"):
                count = self._count(b":")
                raw = self.data[self.at:self.at + count]
                self.at += count
                value = raw.decode("utf-8", "surrogatepass") if tag == b"s" else raw
            elif tag in (b"(", b"{"):
                count = self._count(b";")
                if count:
                    if len(stack) >= MAX_DEPTH:
                        raise ValueError("nested too deep")
                    stack.append([tag, count, []])
                    continue
                value = () if tag == b"(" else frozenset()
            elif tag == b"d":
                stop = self.data.index(b";", self.at, self.at + 40)
                value = float(self.data[self.at:stop])
                self.at = stop + 1
            elif tag in (b"N", b"T", b"F"):
                value = {b"N": None, b"T": True, b"F": False}[tag]
            else:
                raise ValueError("a tag")
            while stack:
                top = stack[-1]
                top[2].append(value)
                top[1] -= 1
                if top[1]:
                    break
                stack.pop()
                value = tuple(top[2]) if top[0] == b"(" else frozenset(top[2])
            else:
                return value
