"""Native parity: each C pass gives what its Python reference gives.

One file per pass, named after the Python module the pass serves (``test_document.py``
for ``core._scan``, ``test_marks.py`` for ``core._marks``, ...); hypothesis and the
shared pages of ``cases.py`` supply the inputs. ``.ci/test_wheel.py`` and cibuildwheel run
this folder against an installed wheel.
"""
