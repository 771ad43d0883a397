"""The optional C passes: one place loads them and reports which are in use.

Loops over every character, tag or block run in C modules that ``setup.py``
builds beside the Python module they speed up (``optional=True``: without a
compiler the package installs anyway). Each such Python module keeps a
pure-Python twin of every C pass, named ``*_reference``: it is the fallback
where the C module is missing and what the equality tests compare the C
pass with. :data:`ACCELERATED` (also ``scrapy_bte.ACCELERATED``) tells
which C modules are in use; :func:`warn_if_missing` logs one line when
any is not, and :func:`summary` is what ``scrapy-bte --version`` prints.
"""

from __future__ import annotations

import logging
import os
from dataclasses import dataclass
from importlib import import_module
from pathlib import Path
from types import ModuleType

#: Per C module (dotted name), whether it is built and in use.
ACCELERATED: dict[str, bool] = {}

#: How much slower ``extract()`` runs with every pass on its Python reference, as
#: ``benchmarks/reference_speed.py`` measures it: 3.3x (default method) to 14x on the
#: sample article, 7x to 11x on a 55 KB news page.
REFERENCE_SLOWDOWN = "3 to 10 times"
#: Set once the warning is logged, so worker processes started afterwards do not repeat it.
_WARNED_ENV = "SCRAPY_BTE_NATIVE_WARNED"
#: The repository root when the package is imported from its source tree (where
#: ``setup.py`` builds the C modules in place), else a directory without ``setup.py``.
_SOURCE_ROOT = Path(__file__).resolve().parents[2]

logger = logging.getLogger("scrapy_bte")


@dataclass(frozen=True)
class CPass:
    """One optional C module: ``module`` is None when it is not built."""

    name: str
    module: ModuleType | None

    def use(self, accelerated: bool | None = None) -> ModuleType | None:
        """The C module a call runs, or None for the Python reference.

        ``accelerated``: None runs C when it is built, True insists on C
        (RuntimeError when it is not built), False runs the reference.
        """
        if accelerated is False:
            return None
        if self.module is None and accelerated:
            raise RuntimeError(f"{self.name} is not built")
        return self.module


def load(name: str) -> CPass:
    """Import the C module ``name`` if it was built, and record whether it was."""
    try:
        module: ModuleType | None = import_module(name)
    except ImportError:  # built wherever a C compiler is
        module = None
    ACCELERATED[name] = module is not None
    return CPass(name, module)


def missing() -> list[str]:
    """The C modules that are not in use, short names (``core._scan``), sorted."""
    return sorted(name.split(".", 1)[1] for name, built in ACCELERATED.items() if not built)


def summary() -> str:
    """``native code: 14 of 14 passes`` or which passes run their Python reference."""
    gone = missing()
    text = f"native code: {len(ACCELERATED) - len(gone)} of {len(ACCELERATED)} passes"
    return text + (f"; Python reference for {', '.join(gone)}" if gone else "")


def warn_if_missing() -> None:
    """Log one warning when a C module is not in use (once per process tree).

    Its causes: no C compiler (or a failed compile, which ``setup.py``
    reports) when the package was installed, or a Python started in the
    source tree, which imports the uncompiled sources.
    """
    gone = missing()
    if not gone or os.environ.get(_WARNED_ENV):
        return
    os.environ[_WARNED_ENV] = "1"
    if (_SOURCE_ROOT / "setup.py").is_file():
        cause = (
            f"imported from the source tree {_SOURCE_ROOT} without its compiled modules: run 'pip install -e .' there"
        )
    else:
        cause = "installed without them (no C compiler, or their build failed): install a wheel or a C compiler and reinstall"
    logger.warning(
        "scrapy-bte: %d of %d native passes are not in use (%s), so extraction runs about %s slower; %s",
        len(gone),
        len(ACCELERATED),
        ", ".join(gone),
        REFERENCE_SLOWDOWN,
        cause,
    )
