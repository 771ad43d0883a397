"""The core: bytes to the document model every method reads.

Decoding (:mod:`.decode`), the document model and its C scanner
(:mod:`.document`), word counting for scripts without spaces
(:mod:`.scripts`) and the loader of the optional C passes.

Imports: :mod:`scrapy_bte.errors` and the standard library, numpy and w3lib
only. Nothing above it (methods, learned model, adapters) and never Scrapy.
"""
