"""Build the optional compiled core: kayles._core and kayles._misere, over one C library.

ext/src/*.c (the vector kernels) become the static library kayles_kernels,
compiled with the warnings on; ext/_core.pyx and ext/_misere.pyx become the
extension modules, linked against it.  Without Cython or a C compiler the
package still installs and runs in pure mode; the build says so loudly instead
of failing.
"""

from glob import glob

from setuptools import Extension, setup
from setuptools.command.build_clib import build_clib
from setuptools.command.build_ext import build_ext

try:
    from Cython.Build import cythonize
except ImportError:  # no Cython: nothing to compile, pure mode
    cythonize = None

KERNELS = "kayles_kernels"
MODULES = ["_core", "_misere"]  # ext/<name>.pyx -> kayles.<name>


def _flags(compiler, unix: list[str], msvc: list[str]) -> list[str]:
    return msvc if compiler.compiler_type == "msvc" else unix


def _warn(exc: Exception) -> None:
    if getattr(exc, "_kayles_reported", False):
        return
    exc._kayles_reported = True  # type: ignore[attr-defined]
    bar = "*" * 72
    print(f"{bar}\nkayles: the compiled core was NOT built ({exc}).\n"
          f"kayles runs in pure-Python mode, much slower.\n{bar}")


class KernelLibrary(build_clib):
    """build_clib with optimising, warning flags fitted to the compiler."""

    def build_libraries(self, libraries) -> None:
        flags = _flags(self.compiler, ["-O3", "-Wall", "-Wextra"], ["/O2", "/W3"])
        libraries = [(name, {**info, "cflags": flags}) for name, info in libraries]
        super().build_libraries(libraries)


class OptionalBuildExt(build_ext):
    """build_ext that builds the kernel library first, and reports a failed compile once."""

    def run(self) -> None:
        try:
            self.run_command("build_clib")  # build_ext --inplace alone does not
            super().run()
        except Exception as exc:  # noqa: BLE001 - any compiler failure means pure mode
            _warn(exc)

    def build_extension(self, ext) -> None:
        ext.extra_compile_args = _flags(self.compiler, ["-O3"], ["/O2"])
        try:
            super().build_extension(ext)
        except Exception as exc:  # noqa: BLE001
            _warn(exc)
            raise


if cythonize is None:
    _warn(RuntimeError("Cython is not installed"))
    extensions, libraries = [], []
else:
    libraries = [(KERNELS, {"sources": sorted(glob("ext/src/*.c")), "include_dirs": ["ext/src"]})]
    extensions = cythonize(
        [Extension(f"kayles.{name}", [f"ext/{name}.pyx"], include_dirs=["ext/src"],
                   libraries=[KERNELS]) for name in MODULES],
        include_path=["ext"],
        compiler_directives={"language_level": 3},
        annotate=False,
    )

setup(ext_modules=extensions, libraries=libraries,
      cmdclass={"build_clib": KernelLibrary, "build_ext": OptionalBuildExt})
