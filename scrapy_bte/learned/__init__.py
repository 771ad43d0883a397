"""The learned block classifier and the ``model`` and ``auto`` methods.

Block features and their C passes (:mod:`.features`), the numpy
estimators, the block model and its files, the character n-gram stage and
the shipped weights (``models/default.npz`` + ``.json``).

Imports: :mod:`scrapy_bte.methods` (BTE spans and the ``hybrid`` verdict
are features), :mod:`scrapy_bte.core` and :mod:`scrapy_bte.errors`.
"""
