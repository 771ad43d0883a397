"""The core: bytes to the document model every method reads.

Decoding (:mod:`.decode`), the document model and its C scanner
(:mod:`.document`), the text only screen readers read, left out before
it (:mod:`.hidden`), queries over its element skeleton (:mod:`.tree`),
the head's ``<meta>`` tags read by key (:mod:`.meta`), word counting
for scripts without spaces (:mod:`.scripts`), the
near-duplicate fingerprint of a text (:mod:`.fingerprint`) and the one
loader of the optional C passes (:mod:`.accel`, ``scrapy_bte.ACCELERATED``).

Imports: :mod:`scrapy_bte.errors` and the standard library, numpy and w3lib
only. Nothing above it (fields, methods, learned model, adapters) and never
Scrapy.
"""
