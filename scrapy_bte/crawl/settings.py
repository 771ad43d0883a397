"""Every ``BTE_*`` Scrapy setting: defaults, one-line docs and validation.

The Scrapy components never read ``crawler.settings`` themselves: the
crawler's :class:`~scrapy_bte.crawl.runtime.BTERuntime` (one per crawler) calls
:meth:`BTEConfig.from_crawler`, which parses and validates all settings at
once, so a typo fails the crawl at start-up with a message naming the
setting instead of surfacing on the first page (or never).
"""

from __future__ import annotations

import difflib
import json
import logging
import os
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from scrapy.exceptions import NotConfigured

from ..api import LEARNED_METHODS, METHODS
from ..errors import ConfigError
from ..fields.record import DEFAULT_ITEM_FIELDS, FIELD_NAMES, ITEM_FIELDS
from ..pool import suggested_max_pending
from ..pool.cpus import usable_cpus
from ..result import FLAT_SCORE_FIELDS

if TYPE_CHECKING:
    from scrapy.crawler import Crawler
    from scrapy.settings import BaseSettings

logger = logging.getLogger(__name__)

EXTRACT_MODES = ("items", "responses")
"""Values accepted by ``BTE_EXTRACT``."""


# Arguments the middleware passes to ``extract`` itself; BTE_OPTIONS may not
# override them (it would silently break the middleware's contract).
_RESERVED_OPTIONS = frozenset({"html", "method", "url", "encoding", "content_type", "fields", "page_type"})


#: Default ``BTE_WORKER_NICE``: a worker yields a shared core to the crawl.
DEFAULT_WORKER_NICE = 10


def default_workers(concurrent_requests: int | None = None, nice: int = DEFAULT_WORKER_NICE) -> int:
    """One worker per usable CPU (affinity mask and cgroup CPU quota).

    Workers at a lower CPU priority than the crawl (``nice`` > 0) take only
    the CPU time Scrapy leaves idle, so they get every CPU; at the crawl's
    own priority one CPU stays free for Scrapy's reactor thread. Capped at
    ``CONCURRENT_REQUESTS``: more pages than that are never in flight, so
    extra workers would only hold memory.
    """
    workers = usable_cpus() if nice > 0 else max(1, usable_cpus() - 1)
    return min(workers, concurrent_requests) if concurrent_requests else workers


@dataclass(frozen=True)
class SettingSpec:
    """One ``BTE_*`` setting: its default (as documented) and what it does."""

    name: str
    default: Any
    doc: str
    default_doc: str | None = None  # shown instead of ``repr(default)``


SETTINGS: tuple[SettingSpec, ...] = (
    SettingSpec(
        "BTE_ENABLED", True, "Master switch; `False` disables the add-on and every component (`NotConfigured`)."
    ),
    SettingSpec(
        "BTE_METHOD",
        "auto",
        "Extraction method passed to `extract()`: one of `auto`, `hybrid`, `bte`, `density`, `model` (`hybrid` runs about 1.8 times as fast, with less accurate text).",
    ),
    SettingSpec(
        "BTE_COMMENTS",
        None,
        "Readers' comments never go into the text (it is the article body); `True` also writes them, one per line, to the item's `comments` field (free-form items and classes that declare it). Not for `BTE_METHOD = 'bte'`.",
    ),
    SettingSpec(
        "BTE_MODEL_PATH",
        None,
        "Path of a block-classifier model file for `BTE_METHOD` `auto` or `model` (refused with the others); "
        "`None` uses the model shipped with the package.",
    ),
    SettingSpec(
        "BTE_WORKERS",
        None,
        "Extraction worker processes; `0` extracts inline in the reactor thread (blocks it: debugging and tiny crawls only).",
        "`None` = usable CPUs (affinity mask and cgroup CPU quota; at most `CONCURRENT_REQUESTS`), minus one when `BTE_WORKER_NICE = 0`",
    ),
    SettingSpec(
        "BTE_WORKER_NICE",
        DEFAULT_WORKER_NICE,
        "How much lower the workers' CPU priority is than the crawl process's (`os.nice` inside each worker, 0-19). Busy workers then yield a shared core to Scrapy, so its reactor is not slowed and the default can run a worker on every CPU; `0` runs them at the crawl's priority (and the default workers leave one CPU free).",
    ),
    SettingSpec(
        "BTE_TIMEOUT",
        10.0,
        "Seconds one page may take in a worker before it is killed and the page gets an `error` (not enforced when `BTE_WORKERS = 0`).",
    ),
    SettingSpec(
        "BTE_WORKER_MAX_MEMORY",
        2**30,
        "Heap bytes one worker process may use (`RLIMIT_DATA`, set inside the worker); a page that needs more gets an `error`, its worker is replaced and `bte/memory_errors` counts it. `None` or `0` = no cap (not enforced when `BTE_WORKERS = 0`).",
        "`1073741824` (1 GiB)",
    ),
    SettingSpec(
        "BTE_MAX_PENDING",
        None,
        "Pages queued or running in the worker pool at most; past it, extraction waits for a free slot.",
        "`None` = `CONCURRENT_REQUESTS` + 4 × workers",
    ),
    SettingSpec(
        "BTE_MAX_BYTES",
        10 * 1024 * 1024,
        "Bodies (and items' own HTML, `BTE_HTML_FIELD`) larger than this many bytes are not extracted "
        "(`bte/skipped/too_large`).",
        "`10485760` (10 MiB)",
    ),
    SettingSpec(
        "BTE_EXTRACT",
        "items",
        "Which responses are extracted: `'items'` only those whose callback yields an item that needs text (in the spider middleware, at the first such item); `'responses'` every HTML response, before its callback runs (callbacks can read `response.meta['bte']`). A request with `meta={'bte_extract': True}` is extracted before its callback in either mode.",
    ),
    SettingSpec(
        "BTE_MIN_WORDS",
        0,
        "Drop items whose main text has fewer words (item pipeline: `DropItem` logged at DEBUG, `bte/dropped/too_short`); items of skipped or failed pages are kept, with their reason. Responses are never dropped, so links are still followed; `0` = off.",
    ),
    SettingSpec("BTE_TEXT_FIELD", "text", "Item field that receives the main text."),
    SettingSpec(
        "BTE_SCORES_FIELD",
        "bte",
        "Item field that receives the score dict; `None` = no scores (ignored when `BTE_FLAT_SCORES` is on). "
        "It, `BTE_TEXT_FIELD` and `BTE_HTML_FIELD` must differ from each other and from the `BTE_FIELDS`.",
    ),
    SettingSpec(
        "BTE_FLAT_SCORES",
        False,
        "Write scores as top-level fields `bte_score`, `bte_density`, `bte_text_ratio`, `bte_confidence`, `bte_method`, `bte_title`, `bte_words`, `bte_fingerprint`, `bte_error` (for CSV).",
    ),
    SettingSpec(
        "BTE_FIELDS",
        list(DEFAULT_ITEM_FIELDS),
        "Fields written as top-level item fields under their own names: the article fields read from the page's"
        " markup, any of "
        + ", ".join(f"`{name}`" for name in FIELD_NAMES)
        + ", and `page_type` (the kind of page: article, forum, product, collection, listing, documentation or"
        " service; `auto` and `model` classify every page, so there listing it costs nothing; with `bte`, `hybrid`"
        " or `density` the classifier runs only when this lists `page_type`, a third of `bte`'s time and a quarter"
        " of `hybrid`'s, and is left out otherwise). A list, or a comma-separated string on the"
        " command line; `[]` writes none. A field the spider already set is never overwritten, and an item class with"
        " fixed fields gets only those it declares.",
        "`['title', 'author', 'date', 'description', 'language', 'image', 'page_type']`",
    ),
    SettingSpec(
        "BTE_HTML_FIELD",
        None,
        "Item field holding raw HTML (str or bytes) to extract from in the item pipeline, instead of the response; "
        "any other value is skipped with its reason (`bte/skipped/html_not_text`).",
    ),
    SettingSpec(
        "BTE_DROP_HTML_FIELD", False, "Remove `BTE_HTML_FIELD` from items after extraction so raw HTML is not exported."
    ),
    SettingSpec(
        "BTE_DEDUPLICATE",
        False,
        "Drop items whose text is a near-duplicate of an earlier item's in this crawl process: fingerprints within `BTE_DEDUPLICATE_DISTANCE` bits (item pipeline: `DropItem` logged at DEBUG, `bte/dropped/duplicate`). Texts under 20 words are never compared. Per process: not shared between scrapy-redis processes.",
    ),
    SettingSpec(
        "BTE_DEDUPLICATE_DISTANCE",
        5,
        "Hamming distance, in bits of the 64-bit `fingerprint`, at most which `BTE_DEDUPLICATE` counts two texts as near-duplicates (0 = the same fingerprint; at most 15).",
    ),
    SettingSpec(
        "BTE_OPTIONS",
        {},
        "Extra keyword options passed to `extract(**options)` (a dict, or a JSON object string on the command line).",
    ),
    SettingSpec(
        "BTE_GC_FREEZE",
        True,
        "When the spider opens, move the objects loaded so far (Scrapy, numpy, the model) to the garbage collector's permanent generation (`gc.freeze()`), so full collections during the crawl do not scan them: each would stall the reactor for tens of milliseconds.",
    ),
)

DEFAULTS: dict[str, Any] = {spec.name: spec.default for spec in SETTINGS}
DEFAULTS_WORKER_MAX_MEMORY: int = DEFAULTS["BTE_WORKER_MAX_MEMORY"]


def settings_table() -> str:
    """The README's Markdown settings table, generated so docs never drift from code."""
    rows = ["| Setting | Default | Description |", "| --- | --- | --- |"]
    for spec in SETTINGS:
        default = spec.default_doc or f"`{spec.default!r}`"
        rows.append(f"| `{spec.name}` | {default} | {spec.doc} |")
    return "\n".join(rows)


# -- parsers: each names the setting in its error ---------------------------


def as_bool(name: str, value: Any) -> bool:
    """Parse a boolean setting the way Scrapy does, but reject anything unclear."""
    if isinstance(value, bool):
        return value
    if isinstance(value, int) and value in (0, 1):
        return bool(value)
    if isinstance(value, str):
        low = value.strip().lower()
        if low in ("1", "true", "yes", "on"):
            return True
        if low in ("0", "false", "no", "off", ""):
            return False
    raise ConfigError(f"{name} must be a boolean, got {value!r}")


def _int(name: str, value: Any, minimum: int) -> int:
    number: int | None = None
    if isinstance(value, int) and not isinstance(value, bool):
        number = value
    elif isinstance(value, float) and value.is_integer():
        number = int(value)
    elif isinstance(value, str):
        try:
            number = int(value.strip())
        except ValueError:
            number = None
    if number is None:
        raise ConfigError(f"{name} must be an integer, got {value!r}")
    if number < minimum:
        raise ConfigError(f"{name} must be >= {minimum}, got {number}")
    return number


def _memory_cap(name: str, value: Any) -> int | None:
    """Bytes, or None for no cap (``None``, ``0``)."""
    if value is None or (isinstance(value, str) and value.strip().lower() in ("", "none")):
        return None
    number = _int(name, value, 0)
    if number == 0:
        return None
    from ..pool import MIN_WORKER_MEMORY

    if number < MIN_WORKER_MEMORY:
        raise ConfigError(
            f"{name} must be 0 (no cap) or at least {MIN_WORKER_MEMORY} bytes"
            f" (a worker needs that much before its first page), got {number}"
        )
    return number


def _positive_float(name: str, value: Any) -> float:
    try:
        if isinstance(value, bool):
            raise ValueError
        number = float(value)
    except (TypeError, ValueError):
        raise ConfigError(f"{name} must be a number of seconds, got {value!r}") from None
    if not number > 0 or number == float("inf"):
        raise ConfigError(f"{name} must be a positive finite number, got {value!r}")
    return number


def _field(name: str, value: Any, *, optional: bool) -> str | None:
    if value is None or (optional and value == ""):
        if optional:
            return None
        raise ConfigError(f"{name} must be a field name, got {value!r}")
    if not isinstance(value, str) or not value.strip():
        raise ConfigError(f"{name} must be a non-empty field name, got {value!r}")
    return value


def _options(name: str, value: Any) -> dict[str, Any]:
    if value is None:
        return {}
    if isinstance(value, str):
        try:
            value = json.loads(value) if value.strip() else {}
        except ValueError as exc:
            raise ConfigError(f"{name} must be a dict or a JSON object string: {exc}") from None
    if not isinstance(value, dict):
        raise ConfigError(f"{name} must be a dict, got {type(value).__name__}")
    options = dict(value)
    for key in options:
        if not isinstance(key, str) or not key.isidentifier():
            raise ConfigError(f"{name} keys must be keyword names, got {key!r}")
    reserved = sorted(_RESERVED_OPTIONS.intersection(options))
    if reserved:
        raise ConfigError(
            f"{name} may not set {', '.join(reserved)}: the middleware passes them itself"
            " (use BTE_METHOD for the method)"
        )
    return options


def _comments(name: str, value: Any, method: str) -> bool | None:
    if value is None or (isinstance(value, str) and value.strip().lower() in ("", "none", "auto")):
        return None
    if isinstance(value, str) and value.strip().lower() in ("keep", "drop"):
        keep = value.strip().lower() == "keep"
    else:
        try:
            keep = as_bool(name, value)
        except ConfigError:
            raise ConfigError(f"{name} must be True, False or None (or keep/drop/auto), got {value!r}") from None
    if method == "bte":
        raise ConfigError(f"{name} needs a block method (auto, model, hybrid, density), not BTE_METHOD='bte'")
    return keep


def _fields(name: str, value: Any) -> tuple[str, ...]:
    if value is None:
        return ()
    if isinstance(value, str):
        value = [part.strip() for part in value.split(",") if part.strip()]
    if not isinstance(value, (list, tuple)) or not all(isinstance(v, str) for v in value):
        raise ConfigError(f"{name} must be a list of field names, got {value!r}")
    unknown = sorted(set(value) - set(ITEM_FIELDS))
    if unknown:
        raise ConfigError(f"{name}: unknown field(s) {', '.join(unknown)}; known: {', '.join(ITEM_FIELDS)}")
    return tuple(name for name in ITEM_FIELDS if name in value)


def _model_path(name: str, value: Any) -> str | None:
    if value is None or value == "":
        return None
    if not isinstance(value, (str, os.PathLike)):
        raise ConfigError(f"{name} must be a file path, got {value!r}")
    path = os.fspath(value)
    if not os.path.isfile(path):
        raise ConfigError(f"{name}: model file not found: {path}")
    return path


def unknown_settings(names: Iterable[str]) -> list[str]:
    """One line per ``BTE_*`` name among ``names`` that no setting has, with the nearest one that
    does: Scrapy keeps any name, so ``BTE_WORKER = 4`` would otherwise leave the default in force
    without a word."""
    lines = []
    for name in sorted(n for n in names if isinstance(n, str) and n.startswith("BTE_") and n not in DEFAULTS):
        near = difflib.get_close_matches(name, DEFAULTS, n=1)
        lines.append(f"{name} is no scrapy-bte setting" + (f" (did you mean {near[0]}?)" if near else ""))
    return lines


@dataclass(frozen=True)
class BTEConfig:
    """The validated ``BTE_*`` settings of one crawl."""

    enabled: bool
    method: str
    model_path: str | None
    workers: int
    timeout: float
    max_pending: int
    max_bytes: int
    min_words: int
    text_field: str
    scores_field: str | None
    flat_scores: bool
    html_field: str | None
    drop_html_field: bool
    options: dict[str, Any]
    gc_freeze: bool = True
    comments: bool | None = None
    extract: str = "items"
    deduplicate: bool = False
    deduplicate_distance: int = 5
    worker_max_memory: int | None = DEFAULTS_WORKER_MAX_MEMORY
    worker_nice: int = DEFAULT_WORKER_NICE
    fields: tuple[str, ...] = DEFAULT_ITEM_FIELDS

    @classmethod
    def from_settings(cls, settings: BaseSettings | dict[str, Any]) -> BTEConfig:
        """Parse and validate; raises :class:`ConfigError` naming the bad setting."""

        def get(name: str) -> Any:
            # ``settings.get`` cannot tell "unset" from an explicit None, and
            # None is meaningful for some settings (e.g. BTE_SCORES_FIELD).
            if name not in settings:
                return DEFAULTS[name]
            value = settings[name]
            return DEFAULTS[name] if value is None and name not in _NONE_IS_VALID else value

        method = get("BTE_METHOD")
        if method not in METHODS:
            raise ConfigError(f"BTE_METHOD must be one of {', '.join(METHODS)}, got {method!r}")
        concurrency = _int("CONCURRENT_REQUESTS", settings.get("CONCURRENT_REQUESTS") or 16, 1)
        workers_value = get("BTE_WORKERS")
        worker_nice = _int("BTE_WORKER_NICE", get("BTE_WORKER_NICE"), 0)
        if worker_nice > 19:
            raise ConfigError(f"BTE_WORKER_NICE must be <= 19, got {worker_nice}")
        if workers_value is None:
            workers = default_workers(concurrency, worker_nice)
        else:
            workers = _int("BTE_WORKERS", workers_value, 0)
        pending_value = get("BTE_MAX_PENDING")
        if pending_value is None:
            max_pending = suggested_max_pending(max(1, workers), concurrency)
        else:
            max_pending = _int("BTE_MAX_PENDING", pending_value, 1)
        text_field = str(_field("BTE_TEXT_FIELD", get("BTE_TEXT_FIELD"), optional=False))
        scores_field = _field("BTE_SCORES_FIELD", get("BTE_SCORES_FIELD"), optional=True)
        html_field = _field("BTE_HTML_FIELD", get("BTE_HTML_FIELD"), optional=True)
        if html_field is not None and html_field in (text_field, scores_field):
            raise ConfigError(f"BTE_HTML_FIELD ({html_field!r}) must differ from BTE_TEXT_FIELD and BTE_SCORES_FIELD")
        if scores_field is not None and scores_field == text_field:
            raise ConfigError(f"BTE_SCORES_FIELD ({scores_field!r}) must differ from BTE_TEXT_FIELD")
        extract = get("BTE_EXTRACT")
        if extract not in EXTRACT_MODES:
            raise ConfigError(f"BTE_EXTRACT must be one of {', '.join(EXTRACT_MODES)}, got {extract!r}")
        flat_scores = as_bool("BTE_FLAT_SCORES", get("BTE_FLAT_SCORES"))
        min_words = _int("BTE_MIN_WORDS", get("BTE_MIN_WORDS"), 0)
        deduplicate = as_bool("BTE_DEDUPLICATE", get("BTE_DEDUPLICATE"))
        distance = _int("BTE_DEDUPLICATE_DISTANCE", get("BTE_DEDUPLICATE_DISTANCE"), 0)
        if distance > 15:
            raise ConfigError(f"BTE_DEDUPLICATE_DISTANCE must be <= 15, got {distance}")
        if (min_words or deduplicate) and scores_field is None and not flat_scores:
            # The pipeline reads words and fingerprint from the item's scores.
            raise ConfigError(
                "BTE_MIN_WORDS and BTE_DEDUPLICATE need scores on items: set BTE_SCORES_FIELD or BTE_FLAT_SCORES"
            )
        model_path = _model_path("BTE_MODEL_PATH", get("BTE_MODEL_PATH"))
        if model_path is not None and method not in LEARNED_METHODS:
            raise ConfigError(
                f"BTE_MODEL_PATH is the block model of BTE_METHOD 'auto' or 'model'; BTE_METHOD is {method!r}"
            )
        fields = _fields("BTE_FIELDS", get("BTE_FIELDS"))
        taken = set(fields) | (set(FLAT_SCORE_FIELDS.values()) if flat_scores else set())
        for setting, name in (
            ("BTE_TEXT_FIELD", text_field),
            ("BTE_SCORES_FIELD", scores_field),
            ("BTE_HTML_FIELD", html_field),
        ):
            if name in taken:  # one field written twice: the scores over the title, or the title over the text
                raise ConfigError(f"{setting} ({name!r}) is also a field scrapy-bte writes (BTE_FIELDS, flat scores)")
        return cls(
            enabled=as_bool("BTE_ENABLED", get("BTE_ENABLED")),
            method=method,
            model_path=model_path,
            workers=workers,
            timeout=_positive_float("BTE_TIMEOUT", get("BTE_TIMEOUT")),
            max_pending=max_pending,
            max_bytes=_int("BTE_MAX_BYTES", get("BTE_MAX_BYTES"), 1),
            min_words=min_words,
            text_field=text_field,
            scores_field=scores_field,
            flat_scores=flat_scores,
            html_field=html_field,
            drop_html_field=as_bool("BTE_DROP_HTML_FIELD", get("BTE_DROP_HTML_FIELD")),
            options=_options("BTE_OPTIONS", get("BTE_OPTIONS")),
            gc_freeze=as_bool("BTE_GC_FREEZE", get("BTE_GC_FREEZE")),
            fields=fields,
            comments=_comments("BTE_COMMENTS", get("BTE_COMMENTS"), method),
            extract=extract,
            deduplicate=deduplicate,
            deduplicate_distance=distance,
            worker_max_memory=_memory_cap("BTE_WORKER_MAX_MEMORY", get("BTE_WORKER_MAX_MEMORY")),
            worker_nice=worker_nice,
        )

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> BTEConfig:
        """The crawler's config (its runtime keeps it for every component).

        Raises ``NotConfigured`` when ``BTE_ENABLED`` is false, so a component
        listed by hand disables itself the Scrapy way.
        """
        config = cls.from_settings(crawler.settings)
        for line in unknown_settings(crawler.settings):
            logger.warning("%s; it is ignored", line)
        if not config.enabled:
            raise NotConfigured("BTE_ENABLED is False")
        return config

    def extract_options(self) -> dict[str, Any]:
        """Keyword options for ``extract()`` / the worker pool besides the method."""
        options = dict(self.options)
        if self.model_path is not None:
            options.setdefault("model_path", self.model_path)
        if self.comments is not None:
            options.setdefault("comments", self.comments)
        options["fields"] = tuple(name for name in self.fields if name in FIELD_NAMES)  # the ones read from markup
        options["page_type"] = "page_type" in self.fields
        return options

    def wanted_fields(self) -> tuple[str, ...]:
        """Item fields the components write; fixed-field item classes must declare them."""
        fields = [self.text_field]
        if self.flat_scores:
            fields.extend(FLAT_SCORE_FIELDS.values())
        elif self.scores_field is not None:
            fields.append(self.scores_field)
        return tuple(fields)


# Settings for which an explicit None is a valid value (not "use the default").
_NONE_IS_VALID = frozenset(
    {
        "BTE_WORKER_MAX_MEMORY",
        "BTE_COMMENTS",
        "BTE_FIELDS",
        "BTE_MODEL_PATH",
        "BTE_HTML_FIELD",
        "BTE_SCORES_FIELD",
        "BTE_WORKERS",
        "BTE_MAX_PENDING",
    }
)

__all__ = [
    "DEFAULTS",
    "DEFAULT_ITEM_FIELDS",
    "EXTRACT_MODES",
    "FLAT_SCORE_FIELDS",
    "ITEM_FIELDS",
    "SETTINGS",
    "BTEConfig",
    "SettingSpec",
    "default_workers",
    "settings_table",
]
