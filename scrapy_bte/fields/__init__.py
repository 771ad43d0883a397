"""Article fields read from the markup: title, author, date, description,
image, site name, language, canonical URL.

Each field is read from the document model (and its meta tags) in a
documented order of preference, independent of which method picks the
main text.

Imports: :mod:`scrapy_bte.core` and :mod:`scrapy_bte.errors` only.
"""
