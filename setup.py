"""Build hook for the optional C passes; metadata lives in pyproject.toml.

Each C module speeds up one Python module that keeps a pure-Python reference
of the same pass. Without a C compiler the package installs anyway and runs
the references (``scrapy_bte.ACCELERATED`` tells which C passes are in use,
and importing the package logs one warning when any is missing). A module
that fails to compile is reported here, in a block of warnings at the end of
the build (``pip`` shows it with ``-v``; ``python -m build`` always); with
``SCRAPY_BTE_REQUIRE_ACCEL=1`` (CI, wheel builds) such a failure fails the
build instead.
"""

from __future__ import annotations

import os
import sys

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

REQUIRED = os.environ.get("SCRAPY_BTE_REQUIRE_ACCEL", "") not in ("", "0")

# (module, sources, headers it includes besides _native.h, extra GCC/Clang flags).
# No fused multiply-add where results must round as numpy's separate products and sums.
_NO_FMA = ["-ffp-contract=off"]
MODULES: list[tuple[str, list[str], list[str], list[str]]] = [
    ("scrapy_bte.core._scan", ["scrapy_bte/core/_scan.c"], ["scrapy_bte/core/_scan_impl.h"], []),
    ("scrapy_bte.core._entities", ["scrapy_bte/core/_entities.c"], [], []),
    ("scrapy_bte.core._tree", ["scrapy_bte/core/_tree.c"], [], []),
    ("scrapy_bte.core._fingerprint", ["scrapy_bte/core/_fingerprint.c"], [], []),
    ("scrapy_bte.evidence._hints", ["scrapy_bte/evidence/_hints.c"], [], []),
    ("scrapy_bte.evidence._labels", ["scrapy_bte/evidence/_labels.c"], [], []),
    ("scrapy_bte.fields._marks", ["scrapy_bte/fields/_marks.c"], [], []),
    ("scrapy_bte.fields._langid", ["scrapy_bte/fields/_langid.c"], [], []),
    ("scrapy_bte.methods._bte", ["scrapy_bte/methods/_bte.c"], [], []),
    ("scrapy_bte.methods._em", ["scrapy_bte/methods/_em.c"], [], []),
    ("scrapy_bte.learned._textstats", ["scrapy_bte/learned/_textstats.c"], [], []),
    ("scrapy_bte.learned._auto", ["scrapy_bte/learned/_auto.c"], [], _NO_FMA),
    # -O3 vectorises the row loop; each value is still one float32 subtraction and one division.
    ("scrapy_bte.learned._mlp", ["scrapy_bte/learned/_mlp.c"], [], ["-O3", *_NO_FMA]),
    ("scrapy_bte.learned._features", ["scrapy_bte/learned/_features.c"], [], []),
]
_EXTRA = {name: extra for name, _, _, extra in MODULES}
# Flags per compiler family. MSVC's default /fp:precise contracts nothing, as -ffp-contract=off.
_GCC_FLAGS = ["-O2", "-Wall", "-Wextra"]
_MSVC_FLAGS = ["/O2", "/W3", "/fp:precise"]


class BuildExt(build_ext):
    """build_ext with per-compiler flags and a loud report of every C module that failed."""

    def build_extensions(self) -> None:
        self.failed: list[tuple[str, str]] = []
        msvc = self.compiler.compiler_type == "msvc"
        for ext in self.extensions:
            ext.extra_compile_args = _MSVC_FLAGS if msvc else _GCC_FLAGS + _EXTRA[ext.name]
            ext.optional = not REQUIRED
        super().build_extensions()
        if self.failed:
            lines = "\n".join(f"  {name}: {error}" for name, error in self.failed)
            self.warn(
                f"\n{'=' * 72}\nWARNING: {len(self.failed)} of {len(self.extensions)} scrapy-bte C modules "
                f"failed to build:\n{lines}\nscrapy-bte works without them but runs their pure-Python references, "
                f"several times slower.\n{'=' * 72}"
            )

    def build_extension(self, ext: Extension) -> None:
        try:
            super().build_extension(ext)
        except Exception as e:  # compile and link errors of every compiler family
            print(f"WARNING: building the C module {ext.name} failed: {e}", file=sys.stderr)
            self.failed.append((ext.name, str(e).splitlines()[0] if str(e) else type(e).__name__))
            raise


setup(
    ext_modules=[
        Extension(
            name,
            sources=sources,
            depends=[*depends, "scrapy_bte/_native.h"],
            include_dirs=["scrapy_bte"],  # _native.h, shared by all
            optional=not REQUIRED,
        )
        for name, sources, depends, _ in MODULES
    ],
    cmdclass={"build_ext": BuildExt},
)
