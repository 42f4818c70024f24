"""Pick the kernels: the compiled core when it is built, the pure twins otherwise.

One decision, in one place.  ``choice()`` makes it without importing a kernel
(the proof cache keys on its answer at every start of Kayles-xox); ``kernel``
(nim-sequences and rows) and ``misere_kernel`` import the chosen modules on first
use; ``IMPLEMENTATION`` names the one that runs ("cython" or "python").

    compiled (from ext/)  pure twin          concern
    _core                 pure/_core.py      tables, masks, periods, row moves
    _misere               pure/_misere.py    the misère search
    _quotient             pure/_quotient.py  misère quotients: state walks, minimization
    _takebreak            pure/_takebreak.py any code's values (three parts or more, marks, tails)
    _nimber               pure/_nimber.py    nim products, inverses, roots of 64-bit words
    _hackenbush           pure/_hackenbush.py Green Hackenbush: edge lists read, values, cuts
    _search               pure/_search.py    the pruned search's exact bounded table
    _boards               pure/_boards.py    Cram and Node Kayles on boards (the pruned search)
    _graphs               pure/_graphs.py    Node and Arc Kayles on graphs (the pruned search)
    _chomp                pure/_chomp.py     Chomp on Young diagrams (the pruned search)

KAYLES_PURE=1 forces the pure twins; KAYLES_REQUIRE_NATIVE=1 turns a missing
compiled core into a SetupError (CI sets it, so a failed build cannot hide);
KAYLES_VECTOR names the compiled kernels' instruction set (avx512bw, avx2 or sse2 where the
CPU has it; unset: the fastest), a SetupError where it names another.
Each takes 0 or 1 (unset or empty: 0); any other value is a SetupError.  A built
core that does not load (a broken build) falls back to the pure twins, unless
KAYLES_REQUIRE_NATIVE is set.  Light on purpose: no os, no importlib.
"""

from __future__ import annotations

from _thread import RLock

from .._environ import getenv
from .._environ import system as _system
from ..errors import SetupError, shown

TYPE_CHECKING = False
if TYPE_CHECKING:
    from .pure import _boards as board_kernel
    from .pure import _chomp as chomp_kernel
    from .pure import _core as kernel
    from .pure import _graphs as graph_kernel
    from .pure import _hackenbush as hackenbush_kernel
    from .pure import _misere as misere_kernel
    from .pure import _nimber as nimber_kernel
    from .pure import _quotient as quotient_kernel
    from .pure import _search as search_kernel
    from .pure import _takebreak as takebreak_kernel

    IMPLEMENTATION: str

__all__ = ["IMPLEMENTATION", "KERNELS", "board_kernel", "choice", "chomp_kernel", "compiled",
           "getenv", "graph_kernel", "hackenbush_kernel", "kernel", "load", "misere_kernel",
           "nimber_kernel", "quotient_kernel", "search_kernel", "takebreak_kernel"]

SEP = "/" if _system.__name__ == "posix" else "\\"
HERE = __file__.rpartition(SEP)[0]  # a module's __file__ is an absolute path

_chosen: tuple[str, str] | None = None
_deciding = RLock()  # one thread decides and loads at a time: every thread gets the same kernels


def _flag(name: str) -> bool:
    value = getenv(name)
    if value not in ("", "0", "1"):
        raise SetupError(f"{name} must be 0 or 1, not {shown(value)}")
    return value == "1"


def choice() -> tuple[str, str]:
    """("cython" or "python", the file of the chosen nim-sequence kernel), decided once.

    SetupError when the settings cannot be met (see the module header).
    """
    global _chosen
    if _chosen is None:
        with _deciding:
            if _chosen is None:
                _chosen = _decide()
    return _chosen


def _decide() -> tuple[str, str]:
    pure, native = _flag("KAYLES_PURE"), _flag("KAYLES_REQUIRE_NATIVE")
    if pure and native:
        raise SetupError("KAYLES_PURE and KAYLES_REQUIRE_NATIVE are both set")
    if not pure:
        built = _built_core()
        if built is not None:
            return ("cython", built)
        if native:
            raise SetupError("KAYLES_REQUIRE_NATIVE is set but the compiled core is "
                             "missing; run 'make'")
    return ("python", f"{HERE}{SEP}pure{SEP}_core.py")


def _built_core() -> str | None:
    import _imp

    for suffix in _imp.extension_suffixes():
        path = f"{HERE}{SEP}_core{suffix}"
        try:
            _system.stat(path)
        except OSError:
            continue
        return path
    return None


# The attribute each kernel is loaded as, and its module's name (compiled and pure alike).
KERNELS = {"kernel": "_core", "misere_kernel": "_misere", "quotient_kernel": "_quotient",
           "takebreak_kernel": "_takebreak", "nimber_kernel": "_nimber",
           "hackenbush_kernel": "_hackenbush", "search_kernel": "_search",
           "board_kernel": "_boards", "graph_kernel": "_graphs", "chomp_kernel": "_chomp"}


def compiled(module) -> bool:
    """Whether a kernel module is a compiled one (not a pure twin of ``pure/``)."""
    return not module.__name__.startswith(f"{__package__}.pure.")


def _module(name: str):
    """kayles.kernels.<name>: what ``from . import <name>`` gives, without importlib."""
    return __import__(f"{__package__}.{name}", fromlist=[name])


def load(name: str):
    """The chosen twin of the kernel module ``name`` ('_core', '_misere', ...): the compiled
    one, or the pure one (``pure/<name>.py``).  A compiled core that does not load is a
    SetupError under KAYLES_REQUIRE_NATIVE, else the pure twins from then on."""
    global _chosen
    if choice()[0] == "cython":
        try:
            compiled = _module(name)
            default_vector = _module("_core").default_vector
        except ImportError as exc:
            if _flag("KAYLES_REQUIRE_NATIVE"):
                raise SetupError(f"KAYLES_REQUIRE_NATIVE is set but the compiled core does "
                                 f"not load ({exc}); run 'make'") from exc
            _chosen = ("python", f"{HERE}{SEP}pure{SEP}_core.py")
        else:
            try:  # a wrong KAYLES_VECTOR: said as a setting, before any scratch is made
                default_vector()
            except ValueError as exc:
                raise SetupError(str(exc)) from None
            return compiled
    return _module(f"pure.{name}")


def __getattr__(name: str):
    """The kernels of KERNELS (kernel, misere_kernel, ...) and IMPLEMENTATION, on first use
    (PEP 562)."""
    with _deciding:
        if name in globals():  # another thread loaded it while this one waited
            return globals()[name]
        if name in KERNELS:
            value = load(KERNELS[name])
        elif name == "IMPLEMENTATION":
            load("_core")
            value = choice()[0]
        else:
            raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
        globals()[name] = value
        return value
