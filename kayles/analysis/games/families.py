"""Games named on the command line: the families (``FAMILIES``) and a user's game in a file.

A GAME is written

    NAME             a family: FAMILIES[NAME], "module:Class", made with no argument
    NAME:ARGUMENT    a family made with the text ARGUMENT (subtraction:1,2,3)
    FILE.py:NAME     NAME in the Python file FILE: a class, made with no argument, or an
                     object with options(position) (kayles.ImpartialGame documents the rest)

A family's module is imported only when the family is named.  A file is code the user
asked to run, and it runs as such (its folder first on ``sys.path`` while it does): but
what goes wrong is said in one line, a GameError (its traceback under KAYLES_DEBUG=1) or
an InputError: the file missing or past MAX_SOURCE bytes, not UTF-8, a syntax error (its
line), an exception while it runs (the line), no NAME in it (what it does define), a class
that cannot be made with no argument, an object without ``options``.

``GameSource`` says how to make the game again: on a worker of a process pool or of a
Dask cluster, where the file's text travels with it (a worker needs no copy of the file;
each process runs a text once), and in a saved table's header (``identity``: the family
and its argument, or the file's name and the SHA-256 of its text), so that a table is
never resumed for another game, or another version of it.

Positions: the game's ``parse`` reads one (a ValueError it raises is the user's bad
input), else ``ast.literal_eval``; ``format`` shows one, else ``repr``.
"""

from __future__ import annotations

import sys

from ...errors import GameError, InputError, path_text, shown

__all__ = ["FAMILIES", "MAX_SOURCE", "GameSource", "describes", "format_move",
           "format_position", "is_game_spec", "parse_position"]

FAMILIES: dict[str, str] = {  # name -> "module:Class"; the families' engineers add theirs
    "subtraction": "kayles.analysis.games.subtraction:SubtractionGame",
    "cram": "kayles.analysis.games.cram:Cram",
    "node-kayles": "kayles.analysis.games.graph_kayles:NodeKayles",
    "arc-kayles": "kayles.analysis.games.graph_kayles:ArcKayles",
    "chomp": "kayles.analysis.games.chomp:Chomp",
}
MAX_SOURCE = 1 << 22  # bytes of a game's Python file read (4 MB)
_loaded: dict[tuple, object] = {}  # GameSource.key() -> the game made in this process


def is_game_spec(spec: str) -> bool:
    """Whether ``spec`` names a family or a file's game (as opposed to a heap game)."""
    return ".py:" in spec or spec.endswith(".py") or spec.partition(":")[0] in FAMILIES


class GameSource:
    """How to make one game (module header): ``kind`` 'family' (``name``, ``argument`` or
    None) or 'file' (``path``, ``name``, the file's ``text`` and its ``digest``)."""

    __slots__ = ("argument", "digest", "kind", "name", "path", "text")

    def __init__(self, kind: str, name: str, argument: str | None = None, path: str = "",
                 text: str = "", digest: str = "") -> None:
        self.kind, self.name, self.argument = kind, name, argument
        self.path, self.text, self.digest = path, text, digest

    @classmethod
    def parse(cls, spec: str) -> GameSource:
        """The source of a GAME as the command line writes it (module header); InputError
        when it names neither a family nor a file's game."""
        if ".py:" in spec or spec.endswith(".py"):
            path, colon, name = spec.rpartition(":") if ".py:" in spec else (spec, "", "")
            if not colon or not name.isidentifier():
                raise InputError(f"{shown(spec)}: name the game in the file, as "
                                 f"{path_text(path or spec)}:NAME (a class or an object in it)")
            text = _read_source(path)
            from hashlib import sha256

            return cls("file", name, path=path, text=text,
                       digest=sha256(text.encode("utf-8")).hexdigest())
        name, colon, argument = spec.partition(":")
        if name not in FAMILIES:
            known = ", ".join(sorted(FAMILIES)) or "none yet"
            raise InputError(f"unknown game {shown(spec)}: a family ({known}) or FILE.py:NAME "
                             "(a game you wrote in Python)")
        return cls("family", name, argument if colon else None)

    def key(self) -> tuple:
        return (self.kind, self.name, self.argument, self.digest)

    @property
    def identity(self) -> str:
        """What a saved table records of its game (module header)."""
        if self.kind == "file":
            return f"file {self.name} sha256:{self.digest}"
        return f"family {self.name}" + ("" if self.argument is None else f":{self.argument}")

    @property
    def spec(self) -> str:
        """The GAME as the command line writes it."""
        if self.kind == "file":
            return f"{self.path}:{self.name}"
        return self.name + ("" if self.argument is None else f":{self.argument}")

    def load(self):
        """The game (made once a process for each source)."""
        key = self.key()
        game = _loaded.get(key)
        if game is None:
            game = _loaded[key] = self.make()
        return game

    def make(self):
        """A new game of this source (its own tables: a measurement's fresh start)."""
        from ...engine.game_protocol import Rules

        game = self._family() if self.kind == "family" else self._from_file()
        Rules(game)  # an object without options is refused here, in one line
        return game

    def _family(self):
        from importlib import import_module

        module, _, name = FAMILIES[self.name].partition(":")
        made = getattr(import_module(module), name)
        return made() if self.argument is None else made(self.argument)

    def _from_file(self):
        import os
        from types import ModuleType

        try:
            code = compile(self.text, self.path, "exec")
        except SyntaxError as exc:
            raise InputError(f"{path_text(self.path)}: line {exc.lineno}: {exc.msg}") from None
        except ValueError as exc:  # a NUL byte
            raise InputError(f"{path_text(self.path)}: {exc}") from None
        module = ModuleType(f"kayles_game_{self.digest[:16]}")
        module.__file__ = self.path
        sys.modules[module.__name__] = module  # (dataclasses and pickle look it up there)
        folder = os.path.dirname(os.path.abspath(self.path))
        sys.path.insert(0, folder)
        try:
            exec(code, module.__dict__)
        except Exception as exc:
            raise _raised(f"{path_text(self.path)}: running it", exc, self.path) from exc
        except SystemExit as exc:
            raise GameError(f"{path_text(self.path)}: running it called sys.exit({exc.code!r})"
                            ) from None
        finally:
            try:
                sys.path.remove(folder)
            except ValueError:
                pass
        if self.name not in module.__dict__:
            defined = sorted(name for name, value in module.__dict__.items()
                             if not name.startswith("_") and (isinstance(value, type)
                                                              or hasattr(value, "options")))
            have = f"; it defines {', '.join(defined)}" if defined else ""
            raise InputError(f"{path_text(self.path)} defines no {self.name}{have}")
        found = module.__dict__[self.name]
        if isinstance(found, type):
            try:
                return found()
            except Exception as exc:
                raise _raised(f"{path_text(self.path)}: {self.name}() (a game is made with no "
                              "argument: write an object and name it instead)", exc,
                              self.path) from exc
        return found


def _read_source(path: str) -> str:
    from ...storage._files import read_regular

    data = read_regular(path, MAX_SOURCE, "the game's file")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise InputError(f"{path_text(path)}: not UTF-8 text") from None


def _raised(what: str, exc: BaseException, path: str) -> GameError:
    """'WHAT raised TYPE: MESSAGE (line N)': N the last line of ``path`` in the traceback."""
    import os

    line = None
    trace = exc.__traceback__
    while trace is not None:
        if os.path.abspath(trace.tb_frame.f_code.co_filename) == os.path.abspath(path):
            line = trace.tb_lineno
        trace = trace.tb_next
    where = f" (line {line})" if line is not None else ""
    text = " ".join(str(exc).split())[:200]
    return GameError(f"{what} raised {type(exc).__name__}: {text}{where}")


def parse_position(game, text: str):
    """The position ``text`` stands for: the game's own ``parse`` (a ValueError it raises is
    the user's bad input), else a Python literal."""
    if _own_parse(game):
        try:
            return game.parse(text)
        except ValueError as exc:
            raise InputError(f"position {shown(text)}: {exc}") from None
        except Exception as exc:
            _raise_failure(exc)
    from ast import literal_eval

    try:
        return literal_eval(text)
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        raise InputError(f"cannot read the position {shown(text)}: it is not a Python literal "
                         "(such as 10, (3, 4) or 'xx.x'), and the game has no parse(text) of "
                         "its own") from None


def _own_parse(game) -> bool:
    """Whether the game reads positions its own way (not ImpartialGame's literal_eval)."""
    from ...engine.game_protocol import ImpartialGame

    method = getattr(game, "parse", None)
    return method is not None and getattr(method, "__func__", None) is not ImpartialGame.parse


def format_position(game, position) -> str:
    """``position`` as the game shows it: its ``format``, else ``repr``."""
    shown_by = getattr(game, "format", None)
    if shown_by is None:
        return repr(position)
    try:
        text = shown_by(position)
    except Exception as exc:
        _raise_failure(exc)
    if not isinstance(text, str):
        raise GameError(f"the game's format returned a {type(text).__name__}, not a str")
    return text


def describes(game) -> bool:
    """Whether the game says its moves in words: a ``describe`` of its own (not
    ImpartialGame's default)."""
    from ...engine.game_protocol import ImpartialGame

    describe = getattr(type(game), "describe", None)
    return callable(getattr(game, "describe", None)) and describe is not ImpartialGame.describe


def format_move(game, position, option) -> str:
    """The move from ``position`` to ``option`` as the game says it: its ``describe``
    (a vertex's name, an edge's ends), else the option as ``format_position`` shows it."""
    if not describes(game):
        return format_position(game, option)
    describe = game.describe
    try:
        text = describe(position, option)
    except Exception as exc:
        _raise_failure(exc)
    if not isinstance(text, str):
        raise GameError(f"the game's describe returned a {type(text).__name__}, not a str")
    return text


def _raise_failure(exc: Exception):
    """Raise what ``exc`` means (``kayles.engine.search.game_failure``)."""
    from ...engine.search import game_failure

    failure = game_failure(exc, __file__)
    if failure is exc:
        raise exc
    raise failure from exc
