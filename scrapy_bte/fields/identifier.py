"""Importing this module loads the language identifier's model.

The worker pool's fork server imports it once, so every worker starts with
the model in memory (shared, copy-on-write) instead of loading it, about a
second, on its first page without a declared language: inside that page's
time limit.
"""

from __future__ import annotations

from .language import identifier

IDENTIFIER = identifier()
