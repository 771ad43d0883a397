"""The learned block classifier: the ``model`` and ``auto`` methods.

Block features and their C passes (:mod:`.features`), the numpy
estimators (:mod:`.estimators`), the two-stage block model and its files
(:mod:`.model`, shipped weights in ``models/default.npz`` + ``.json``), the
character n-gram stage (:mod:`.ngrams`) and the selection policy of
``model`` and ``auto`` (:mod:`.auto`).

Imports: :mod:`scrapy_bte.methods` (BTE spans and the ``hybrid`` verdict
are features), :mod:`scrapy_bte.core` and :mod:`scrapy_bte.errors`.
"""
