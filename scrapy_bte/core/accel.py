"""The optional C passes: one place loads them and reports which are in use.

Loops over every character, tag or block run in C modules that ``setup.py``
builds beside the Python module they speed up (``optional=True``: without a
compiler the package installs anyway). Each such Python module keeps a
pure-Python twin of every C pass, named ``*_reference``: it is the fallback
where the C module is missing and what the equality tests compare the C
pass with. :data:`ACCELERATED` (also ``scrapy_bte.ACCELERATED``) tells
which C modules are in use.
"""

from __future__ import annotations

from dataclasses import dataclass
from importlib import import_module
from types import ModuleType

#: Per C module (dotted name), whether it is built and in use.
ACCELERATED: dict[str, bool] = {}


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
