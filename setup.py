"""Build the optional compiled core (ext/_core.pyx -> kayles._core).

Without Cython or a C compiler the package still installs and runs in pure mode;
the build says so loudly instead of failing.
"""

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

try:
    from Cython.Build import cythonize
except ImportError:  # no Cython: nothing to compile, pure mode
    cythonize = None


class OptionalBuildExt(build_ext):
    """build_ext that reports a failed compile once and carries on."""

    def run(self) -> None:
        try:
            super().run()
        except Exception as exc:  # noqa: BLE001 - any compiler failure means pure mode
            self._warn(exc)

    def build_extension(self, ext) -> None:
        try:
            super().build_extension(ext)
        except Exception as exc:  # noqa: BLE001
            self._warn(exc)
            raise

    @staticmethod
    def _warn(exc: Exception) -> None:
        if getattr(exc, "_kayles_reported", False):
            return
        exc._kayles_reported = True  # type: ignore[attr-defined]
        bar = "*" * 72
        print(f"{bar}\nkayles: the compiled core was NOT built ({exc}).\n"
              f"kayles runs in pure-Python mode, much slower.\n{bar}")


if cythonize is None:
    OptionalBuildExt._warn(RuntimeError("Cython is not installed"))
    extensions = []
else:
    extensions = cythonize(
        [Extension("kayles._core", ["ext/_core.pyx"], extra_compile_args=["-O3"])],
        compiler_directives={"language_level": 3},
        annotate=False,
    )

setup(ext_modules=extensions, cmdclass={"build_ext": OptionalBuildExt})
