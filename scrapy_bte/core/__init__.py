"""The core: bytes to the document model every method reads.

Decoding (:mod:`.decode`), the document model and its C scanner
(:mod:`.document`), queries over its element skeleton (:mod:`.tree`) and
word counting for scripts without spaces (:mod:`.scripts`).

Imports: :mod:`scrapy_bte.errors` and the standard library, numpy and w3lib
only. Nothing above it (fields, methods, learned model, adapters) and never
Scrapy.
"""
