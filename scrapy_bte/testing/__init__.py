"""Helpers that the test suite and the benchmark scripts share.

:mod:`.torture` holds the hostile, broken and huge pages ``extract()`` must
survive (generated, plus the small hand-written pages and fuzzer
regressions in ``torture/``) and the output contract every result meets;
:mod:`.redis_server` starts a throwaway ``redis-server``. Both live in the
package, not under ``tests/``, so the benchmarks import them like the rest
of the package, and they serve anyone who wants to put their own pipeline
around ``extract()`` through the same inputs.

Imports: :mod:`scrapy_bte.api` (through ``scrapy_bte.extract``),
:mod:`scrapy_bte.result`, :mod:`scrapy_bte.errors`. Never Scrapy.
"""
