"""Pick the kernels: the compiled core when it is built, the pure twins otherwise.

One decision, in one place.  ``choice()`` makes it without importing a kernel
(the proof cache keys on its answer at every start of Kayles-xox); ``kernel``
(nim-sequences and rows) and ``misere_kernel`` import the chosen modules on first
use; ``IMPLEMENTATION`` names the one that runs ("cython" or "python").

    compiled (ext/)  pure twin (here)   concern
    _core            _core_pure         tables, masks, periods, row moves
    _misere          _misere_pure       the misère search
    _quotient        _quotient_pure     misère quotients: state walks, minimization
    _takebreak       _takebreak_pure    any code's values (three parts or more, marks, tails)

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

from ..errors import SetupError, shown
from ._environ import getenv
from ._environ import system as _system

TYPE_CHECKING = False
if TYPE_CHECKING:
    from . import _core_pure as kernel
    from . import _misere_pure as misere_kernel
    from . import _quotient_pure as quotient_kernel
    from . import _takebreak_pure as takebreak_kernel

    IMPLEMENTATION: str

__all__ = ["IMPLEMENTATION", "choice", "getenv", "kernel", "misere_kernel", "quotient_kernel",
           "takebreak_kernel"]

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
    return ("python", f"{HERE}{SEP}_core_pure.py")


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


def _load(concern: str):
    global _chosen
    if choice()[0] == "cython":
        try:
            if concern == "core":
                from . import _core as compiled
            elif concern == "misere":
                from . import _misere as compiled
            elif concern == "takebreak":
                from . import _takebreak as compiled
            else:
                from . import _quotient as compiled
            from ._core import default_vector
        except ImportError as exc:
            if _flag("KAYLES_REQUIRE_NATIVE"):
                raise SetupError(f"KAYLES_REQUIRE_NATIVE is set but the compiled core does "
                                 f"not load ({exc}); run 'make'") from exc
            _chosen = ("python", f"{HERE}{SEP}_core_pure.py")
        else:
            try:  # a wrong KAYLES_VECTOR: said as a setting, before any scratch is made
                default_vector()
            except ValueError as exc:
                raise SetupError(str(exc)) from None
            return compiled
    if concern == "core":
        from . import _core_pure as pure
    elif concern == "misere":
        from . import _misere_pure as pure
    elif concern == "takebreak":
        from . import _takebreak_pure as pure
    else:
        from . import _quotient_pure as pure
    return pure


def __getattr__(name: str):
    """kernel, misere_kernel, quotient_kernel, takebreak_kernel and IMPLEMENTATION, on first
    use (PEP 562)."""
    with _deciding:
        if name in globals():  # another thread loaded it while this one waited
            return globals()[name]
        return _first_use(name)


def _first_use(name: str):
    if name == "kernel":
        value = _load("core")
    elif name == "misere_kernel":
        value = _load("misere")
    elif name == "quotient_kernel":
        value = _load("quotient")
    elif name == "takebreak_kernel":
        value = _load("takebreak")
    elif name == "IMPLEMENTATION":
        _load("core")
        value = choice()[0]
    else:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    globals()[name] = value
    return value
