"""Build hook for the optional native extension; metadata lives in pyproject.toml.

One extension module, ``scrapy_bte._native``, is built from every C source of
the package: each sits beside the Python module it speeds up, which keeps a
pure-Python reference of the same pass, and ``scrapy_bte/_native.c`` gathers
them into one submodule per Python module. Without a C compiler the package
installs anyway and runs the references (``scrapy_bte.ACCELERATED`` tells
whether the native passes are in use, and importing the package logs one
warning when they are not). A failed compile is reported here, in a block of
warnings at the end of the build (``pip`` shows it with ``-v``; ``python -m
build`` always); with ``SCRAPY_BTE_REQUIRE_ACCEL=1`` (CI, wheel builds) it
fails the build instead.
"""

from __future__ import annotations

import os
import sys
from typing import Any

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

REQUIRED = os.environ.get("SCRAPY_BTE_REQUIRE_ACCEL", "") not in ("", "0")

# The C sources (the init first), and the headers they include.
SOURCES = [
    "scrapy_bte/_native.c",
    "scrapy_bte/core/_scan.c",
    "scrapy_bte/core/_entities.c",
    "scrapy_bte/core/_fingerprint.c",
    "scrapy_bte/evidence/_hints.c",
    "scrapy_bte/evidence/_labels.c",
    "scrapy_bte/core/_marks.c",
    "scrapy_bte/core/_hidden.c",
    "scrapy_bte/methods/_bte.c",
    "scrapy_bte/methods/_em.c",
    "scrapy_bte/methods/_records.c",
    "scrapy_bte/learned/_textstats.c",
    "scrapy_bte/learned/_auto.c",
    "scrapy_bte/learned/_features.c",
    "scrapy_bte/learned/_page_type.c",
]
HEADERS = ["scrapy_bte/_native.h", "scrapy_bte/core/_scan_impl.h"]
# Extra GCC/Clang flags of single sources. No fused multiply-add where results must round
# as numpy's separate products and sums.
_NO_FMA = ["-ffp-contract=off"]
SOURCE_FLAGS: dict[str, list[str]] = {
    "scrapy_bte/learned/_auto.c": _NO_FMA,
    "scrapy_bte/learned/_page_type.c": _NO_FMA,
}
# Flags per compiler family. MSVC's default /fp:precise contracts nothing, as -ffp-contract=off.
_GCC_FLAGS = ["-O2", "-Wall", "-Wextra"]
_MSVC_FLAGS = ["/O2", "/W3", "/fp:precise"]


class BuildExt(build_ext):
    """build_ext with per-compiler (and, for GCC/Clang, per-source) flags and a loud report of a failed build."""

    def build_extensions(self) -> None:
        self.failed: list[tuple[str, str]] = []
        msvc = self.compiler.compiler_type == "msvc"
        for ext in self.extensions:
            ext.extra_compile_args = _MSVC_FLAGS if msvc else list(_GCC_FLAGS)
            ext.optional = not REQUIRED
        if not msvc and hasattr(self.compiler, "_compile"):
            compile_one = self.compiler._compile

            # Unix-style compilers compile one source per call: add that source's own flags last.
            def _compile(obj: str, src: str, ext: str, cc_args: Any, extra_postargs: list[str], pp_opts: Any) -> Any:
                own = SOURCE_FLAGS.get(os.path.relpath(src).replace(os.sep, "/"), [])
                return compile_one(obj, src, ext, cc_args, [*extra_postargs, *own], pp_opts)

            self.compiler._compile = _compile
        super().build_extensions()
        if self.failed:
            lines = "\n".join(f"  {name}: {error}" for name, error in self.failed)
            self.warn(
                f"\n{'=' * 72}\nWARNING: the scrapy-bte native extension failed to build:\n{lines}\n"
                f"scrapy-bte works without it but runs the pure-Python references of its passes, "
                f"several times slower.\n{'=' * 72}"
            )

    def build_extension(self, ext: Extension) -> None:
        try:
            super().build_extension(ext)
        except Exception as e:  # compile and link errors of every compiler family
            print(f"WARNING: building the C extension {ext.name} failed: {e}", file=sys.stderr)
            self.failed.append((ext.name, str(e).splitlines()[0] if str(e) else type(e).__name__))
            raise


setup(
    ext_modules=[
        Extension(
            "scrapy_bte._native",
            sources=SOURCES,
            depends=HEADERS,
            include_dirs=["scrapy_bte"],  # _native.h, shared by all
            optional=not REQUIRED,
        )
    ],
    cmdclass={"build_ext": BuildExt},
)
