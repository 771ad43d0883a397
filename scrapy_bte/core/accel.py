"""The optional C passes: one place loads them and reports which are in use.

Loops over every character, tag or block run in C, in the one extension
module ``scrapy_bte._native`` that ``setup.py`` builds from the C sources
beside the Python modules they speed up (``optional=True``: without a
compiler the package installs anyway). It has one submodule per such Python
module, named after it (``_native.document`` for ``core/document.py``).
Each such Python module keeps a pure-Python twin of every C pass, named
``*_reference``: it is the fallback where the extension is missing and what
the equality tests compare the C pass with. :data:`ACCELERATED` (also
``scrapy_bte.ACCELERATED``) tells which passes are built;
:func:`warn_if_missing` logs one line when any is not, and :func:`summary`
is what ``scrapy-bte --version`` prints.

One switch chooses between the two everywhere: the environment variable
``SCRAPY_BTE_NATIVE``, read once at import (``0``, ``false``, ``no`` or
``off``: the Python references; unset or anything else: the C passes where
built), and in a running process :func:`use_native` or the context manager
:func:`native`. Every dispatch asks :func:`native_enabled` when it is called.
The switch is the process's own: worker processes (``scrapy_bte.pool``) read
the environment variable when they start.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from importlib import import_module
from pathlib import Path
from types import ModuleType

#: Per Python module with C passes (``core.document``, ``learned.features``, ...), whether
#: its submodule of ``scrapy_bte._native`` is built (its passes then run unless the switch is off).
ACCELERATED: dict[str, bool] = {}

#: How much slower ``extract()`` runs with every pass on its Python reference, as
#: ``benchmarks/reference_speed.py`` measures it: 3.3x (default method) to 14x on the
#: sample article, 7x to 11x on a 55 KB news page.
REFERENCE_SLOWDOWN = "3 to 10 times"
#: The switch between the C passes and the Python references (see the module docstring).
NATIVE_ENV = "SCRAPY_BTE_NATIVE"
#: Set once the warning is logged, so worker processes started afterwards do not repeat it.
_WARNED_ENV = "SCRAPY_BTE_NATIVE_WARNED"
#: The repository root when the package is imported from its source tree (where
#: ``setup.py`` builds the extension in place), else a directory without ``setup.py``.
_SOURCE_ROOT = Path(__file__).resolve().parents[2]

logger = logging.getLogger("scrapy_bte")


def _native() -> ModuleType | None:
    """The extension module ``scrapy_bte._native`` of this copy of the package, or None when it is not built.

    Only the one beside these sources: an editable install's import hook would
    otherwise find another checkout's build for a copy of the package without one.
    """
    try:
        module = import_module("scrapy_bte._native")
    except ImportError:  # built wherever a C compiler is
        return None
    where = getattr(module, "__file__", None)
    return module if where and Path(where).resolve().parent == Path(__file__).resolve().parents[1] else None


_NATIVE = _native()


@dataclass(frozen=True)
class CPass:
    """The C passes of one Python module: ``module`` (its submodule of ``scrapy_bte._native``) is None when not built."""

    name: str
    module: ModuleType | None

    def use(self) -> ModuleType | None:
        """The submodule a call runs now: None (the Python reference) when it is not built or the switch is off."""
        return self.module if _enabled else None


def _from_environment() -> bool:
    return os.environ.get(NATIVE_ENV, "").strip().lower() not in ("0", "false", "no", "off")


_enabled = _from_environment()


def native_built() -> bool:
    """Whether the extension ``scrapy_bte._native`` is built (beside this copy of the package)."""
    return _NATIVE is not None


def native_enabled() -> bool:
    """Whether the switch asks for the C passes (they run where built)."""
    return _enabled


def use_native(flag: bool) -> None:
    """Turn the C passes on (``True``) or off (``False``: every pass runs its Python reference)
    in this process, from the next call on.

    ``True`` where the extension is not built raises RuntimeError: the C passes cannot run.
    """
    global _enabled
    if flag and _NATIVE is None:
        raise RuntimeError("the native extension scrapy_bte._native is not built")
    _enabled = bool(flag)


@contextmanager
def native(flag: bool = True) -> Iterator[None]:
    """:func:`use_native` for a ``with`` block, then the switch as it was.

    ``with native(False):`` runs the Python references; ``with native():`` insists on the C
    passes (RuntimeError where they are not built).
    """
    global _enabled
    before = _enabled
    use_native(flag)
    try:
        yield
    finally:
        _enabled = before


def load(name: str) -> CPass:
    """The C passes of the Python module ``name`` (``core.document``): its submodule of
    ``scrapy_bte._native``, named after the module's last part, if the extension is built.
    Records in :data:`ACCELERATED` whether it is."""
    module: ModuleType | None = getattr(_NATIVE, name.rsplit(".", 1)[-1], None)
    ACCELERATED[name] = module is not None
    return CPass(name, module)


def missing() -> list[str]:
    """The Python modules whose C passes are not in use (``core.document``), sorted."""
    return sorted(name for name, built in ACCELERATED.items() if not built)


def summary() -> str:
    """``native code: 11 of 11 passes``, which passes run their Python reference, or that the switch is off."""
    gone = missing()
    built = f"{len(ACCELERATED) - len(gone)} of {len(ACCELERATED)} passes"
    if not _enabled:
        return f"native code: off ({NATIVE_ENV}=0), {built} built"
    return f"native code: {built}" + (f"; Python reference for {', '.join(gone)}" if gone else "")


def warn_if_missing() -> None:
    """Log one warning when the native passes are not in use (once per process tree).

    Its causes: no C compiler (or a failed compile, which ``setup.py``
    reports) when the package was installed, or a Python started in the
    source tree, which imports the uncompiled sources.
    """
    gone = missing()
    if not gone or not _enabled or os.environ.get(_WARNED_ENV):  # nothing missing, or the references asked for
        return
    os.environ[_WARNED_ENV] = "1"
    if (_SOURCE_ROOT / "setup.py").is_file():
        cause = (
            f"imported from the source tree {_SOURCE_ROOT} without its compiled extension: run 'pip install -e .' there"
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
