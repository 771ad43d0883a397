"""See why, and teach it: the explain report and the labelling server.

``scrapy-bte explain`` renders one page's blocks, the rule behind each,
the density figure and Finn's tag curve into a self-contained HTML file;
``scrapy-bte label`` serves a local page for labelling blocks by hand.
Both show page text only as escaped text.

Imports: :mod:`scrapy_bte.training`, :mod:`scrapy_bte.api` and what lies
below them; never Scrapy (the command line must run without it).
"""
