"""Learning and scoring block models: ``scrapy-bte train`` and ``evaluate``.

Labelled set folders are read, their blocks labelled from gold text, a
selector or template markers, the two-stage model fitted, and methods
scored with the article-extraction-benchmark metric.

Imports: :mod:`scrapy_bte.api` (scoring runs the real extraction path),
:mod:`scrapy_bte.learned`, :mod:`scrapy_bte.methods`, :mod:`scrapy_bte.core`,
:mod:`scrapy_bte.errors`. Never Scrapy; lxml only for CSS selector labels.
"""
