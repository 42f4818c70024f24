"""Build the optional compiled core: the modules of MODULES, kayles.kernels._core and the rest.

ext/src/*.c (the C kernels) become the static library kayles_kernels, compiled with
the warnings on; each ext/<name>.pyx of MODULES becomes the extension module
kayles.kernels.<name>, linked against it.  Without Cython the C that Cython made
(shipped in the source distribution) is compiled instead.  Without a C compiler
the package still installs and runs in pure mode: the build says so loudly, and
so does the package, on stderr, whenever a long computation runs on the pure core.

Release builds are stripped of debug symbols on Linux (the modules shrink from
about 1.7 MB to a few hundred KB); an explicit -g in CFLAGS keeps them
(``make sanitize`` does).
"""

import os
import sys
from glob import glob

from setuptools import Extension, setup
from setuptools.command.build_clib import build_clib
from setuptools.command.build_ext import build_ext

try:
    from Cython.Build import cythonize
except ImportError:  # no Cython: the shipped C, or pure mode
    cythonize = None

KERNELS = "kayles_kernels"
MODULES = sorted(os.path.basename(path)[:-4] for path in glob("ext/*.pyx"))  # -> kayles.kernels.<name>


def _unix(compiler) -> bool:
    return compiler.compiler_type != "msvc"


def _warn(exc: Exception) -> None:
    if getattr(exc, "_kayles_reported", False):
        return
    exc._kayles_reported = True  # type: ignore[attr-defined]
    bar = "*" * 72
    print(f"{bar}\nkayles: the compiled core was NOT built ({exc}).\n"
          f"kayles runs in pure-Python mode, much slower.\n{bar}")


class KernelLibrary(build_clib):
    """build_clib with optimising, warning flags fitted to the compiler; a failed compile
    is reported once and leaves the extension modules unbuilt (pure mode)."""

    def run(self) -> None:
        try:
            super().run()
        except Exception as exc:  # noqa: BLE001 - any compiler failure means pure mode
            _warn(exc)
            self.distribution.kayles_no_core = True

    def build_libraries(self, libraries) -> None:
        flags = ["-O3", "-Wall", "-Wextra"] if _unix(self.compiler) else ["/O2", "/W3"]
        libraries = [(name, {**info, "cflags": flags}) for name, info in libraries]
        super().build_libraries(libraries)


class OptionalBuildExt(build_ext):
    """build_ext that builds the kernel library first, and reports a failed compile once."""

    def run(self) -> None:
        try:
            self.run_command("build_clib")  # build_ext --inplace alone does not
            if not getattr(self.distribution, "kayles_no_core", False):
                super().run()
        except Exception as exc:  # noqa: BLE001 - any compiler failure means pure mode
            _warn(exc)

    def build_extension(self, ext) -> None:
        unix = _unix(self.compiler)
        ext.extra_compile_args = ["-O3", "-pthread"] if unix else ["/O2"]
        ext.extra_link_args = ["-pthread"] if unix else []  # ext/src/threads.c (old glibc too)
        keep_symbols = "-g" in os.environ.get("CFLAGS", "").split()
        if unix and sys.platform.startswith("linux") and not keep_symbols:
            ext.extra_link_args.append("-s")  # stripped: no debug information in the wheel
        try:
            super().build_extension(ext)
        except Exception as exc:  # noqa: BLE001
            _warn(exc)
            raise


def _extensions() -> list:
    sources = {name: f"ext/{name}.pyx" for name in MODULES}
    if cythonize is None:
        sources = {name: f"ext/{name}.c" for name in MODULES}
        if not all(os.path.exists(path) for path in sources.values()):
            _warn(RuntimeError("neither Cython nor the C it makes is here"))
            return []
    # depends: a changed kernel relinks the modules (build_clib rebuilds only the library)
    kernels = sorted(glob("ext/src/*.c") + glob("ext/src/*.h"))
    extensions = [Extension(f"kayles.kernels.{name}", [path], include_dirs=["ext/src"],
                            libraries=[KERNELS], depends=kernels)
                  for name, path in sources.items()]
    if cythonize is None:
        return extensions
    return cythonize(extensions, include_path=["ext"], compiler_directives={"language_level": 3})


extensions = _extensions()
# obj_deps: every kernel compiled again when a header changes (build_clib looks at the .c
# files' times alone: a changed kernels.h left a library whose constants the modules' differ)
libraries = [(KERNELS, {"sources": sorted(glob("ext/src/*.c")), "include_dirs": ["ext/src"],
                        "obj_deps": {"": sorted(glob("ext/src/*.h"))}})]
setup(ext_modules=extensions, libraries=libraries if extensions else [],
      cmdclass={"build_clib": KernelLibrary, "build_ext": OptionalBuildExt})
