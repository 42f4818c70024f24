"""Pick the kernels: the compiled core when it is built, the pure twin otherwise.

KAYLES_PURE=1 forces the pure twin; KAYLES_REQUIRE_NATIVE=1 turns a missing
compiled core into a SetupError (an ImportError) (CI sets it, so a failed build cannot hide).
"""

from os import environ

from .errors import SetupError

TYPE_CHECKING = False


def _flag(name: str) -> bool:
    return environ.get(name, "") not in ("", "0")


if TYPE_CHECKING or _flag("KAYLES_PURE"):
    if _flag("KAYLES_REQUIRE_NATIVE") and not TYPE_CHECKING:
        raise SetupError("KAYLES_PURE and KAYLES_REQUIRE_NATIVE are both set")
    from . import _pure as kernel
else:
    try:
        from . import _core as kernel  # type: ignore[attr-defined, no-redef]
    except ImportError as exc:
        if _flag("KAYLES_REQUIRE_NATIVE"):
            raise SetupError(
                f"KAYLES_REQUIRE_NATIVE is set but the compiled core is missing ({exc}); run 'make'"
            ) from exc
        from . import _pure as kernel  # type: ignore[no-redef]

IMPLEMENTATION = "python" if kernel.__name__.endswith("_pure") else "cython"

__all__ = ["IMPLEMENTATION", "kernel"]
