"""Learning and scoring block models: ``scrapy-bte train`` and ``evaluate``.

Labelled set folders are read and featurised (:mod:`.data`), their blocks
labelled from gold text, a selector or template markers (:mod:`.labels`),
the two-stage model fitted (:mod:`.fit`), methods scored per set
(:mod:`.scoring`) with the article-extraction-benchmark metric
(:mod:`.evaluation`); :mod:`.commands` is the command line.

Imports: :mod:`scrapy_bte.api` (scoring runs the real extraction path),
:mod:`scrapy_bte.learned`, :mod:`scrapy_bte.methods`, :mod:`scrapy_bte.core`,
:mod:`scrapy_bte.errors`. Never Scrapy; lxml only for CSS selector labels.
"""
