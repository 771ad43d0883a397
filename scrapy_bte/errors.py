"""The package's exception types.

Callers catch :class:`BTEError` to handle every failure the package raises on
purpose; anything else escaping from :func:`scrapy_bte.extract` is a bug.
"""

from __future__ import annotations


class BTEError(Exception):
    """Base class of every error scrapy-bte raises deliberately."""


class ExtractionError(BTEError):
    """The input cannot be turned into a document (wrong type, too large, binary)."""


class ModelError(BTEError):
    """A model file is missing, malformed, unsafe or of another feature version."""


class ConfigError(BTEError, ValueError):
    """An option or setting has a value outside its documented range."""
