"""The heuristic extraction methods over one document model.

BTE with its token run encoding (:mod:`.bte`), text density
(:mod:`.density`), the two combined (:mod:`.hybrid`), and the readers'
comment sections every block method can keep or drop (:mod:`.comments`).

Imports: :mod:`scrapy_bte.core` and :mod:`scrapy_bte.errors` only.
"""
