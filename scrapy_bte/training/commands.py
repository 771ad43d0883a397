"""``scrapy-bte train`` and ``scrapy-bte evaluate``: learn and score block models.

Training reads labelled set folders (``<id>.html`` + ``<id>.txt``), builds
each page's document once, labels its blocks (:mod:`scrapy_bte.labels`),
computes features (:mod:`scrapy_bte.features`) and fits the two-stage numpy
block model (:class:`scrapy_bte.model.BlockModel`). Evaluation runs the real :func:`scrapy_bte.extract`
path on every page and reports, per set, the metric's F1/P/R, empty outputs,
the block-level error rate against the labels, and pages per second; with
``--loso`` the learned methods are scored leave-one-set-out (a model trained
on the other sets scores each set), which is how a trained row is reported.
"""

from __future__ import annotations

import argparse
import datetime as _dt
import shlex
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np

from ..api import METHODS, _as_markup, extract_document, parse
from ..methods.bte import document_span
from ..errors import ConfigError
from .evaluation import Page, aggregate, load_dataset, score_page, spearman
from ..learned.features import block_features, context_features
from .labels import page_labels, parse_markers
from ..learned.model import BlockModel, MLPClassifier
from ..learned.ngrams import NgramClassifier

LEARNED_METHODS = ("model", "auto")
#: Exponent of a block's word count in its training weight (see :func:`page_weights`).
WORD_POWER = 0.25


def page_weights(words: np.ndarray, power: float = WORD_POWER) -> np.ndarray:
    """Training weight per block: every page sums to 1, blocks weigh ``words ** power``.

    The metric averages over pages, so each page counts once; within a page
    a long block's errors cost more shingles than a short one's.
    """
    w = np.power(np.maximum(words.astype(np.float64), 0.5), power)
    return (w / max(float(w.sum()), 1e-12)).astype(np.float32)


@dataclass
class PageBlocks:
    """What training keeps of one page: features, labels, weights and the arrays context features read."""

    X: np.ndarray
    y: np.ndarray
    weight: np.ndarray
    words: np.ndarray
    container: np.ndarray
    texts: list[str]


@dataclass
class SetData:
    """One labelled set: its raw pages (for scoring) and the labelled blocks of each."""

    name: str
    pages: list[Page]
    blocks: list[PageBlocks | None]  # None: no labels (no gold, selector or markers matched nothing)

    @property
    def labelled(self) -> list[PageBlocks]:
        return [b for b in self.blocks if b is not None]


class Progress:
    """A one-line progress bar on stderr (on a terminal; otherwise one line when done)."""

    def __init__(self, label: str, total: int, quiet: bool = False) -> None:
        self.label, self.total, self.quiet = label, max(total, 1), quiet
        self.tty = sys.stderr.isatty()
        self.start = time.perf_counter()
        self._last = -1.0

    def update(self, done: int, note: str = "") -> None:
        if self.quiet:
            return
        now = time.perf_counter()
        if done < self.total and (not self.tty or now - self._last < 0.25):
            return
        self._last = now
        filled = int(30 * done / self.total)
        sys.stderr.write(f"\r{self.label:<24} [{'#' * filled}{'-' * (30 - filled)}] {done}/{self.total} "
                         f"{now - self.start:6.1f}s {note}" + ("\x1b[K" if self.tty else ""))
        if done >= self.total:
            sys.stderr.write("\n")
        sys.stderr.flush()


@dataclass(frozen=True)
class LabelSource:
    """Where block labels come from (see :mod:`scrapy_bte.labels`)."""

    css: str | None = None
    markers: tuple[str, str] | None = None
    use_markers: bool = False

    @property
    def needs_markup(self) -> bool:
        return self.css is not None or self.markers is not None or self.use_markers

    def describe(self) -> str:
        if self.css:
            return f"content selector {self.css!r}"
        if self.markers or self.use_markers:
            return f"template markers {self.markers or 'default'} (gold text where a page has none)"
        return "gold text"


def load_set(folder: str | Path, source: LabelSource = LabelSource(), *, limit: int | None = None,
             quiet: bool = False) -> SetData:
    """Read one set folder, build each page's document once, label and featurise it."""
    folder = Path(folder)
    if not folder.is_dir():
        raise ConfigError(f"not a directory: {folder}")
    pages = load_dataset(folder, limit=limit)
    if not pages:
        raise ConfigError(f"no <id>.html + <id>.txt pairs in {folder}")
    bar = Progress(f"features {folder.name}", len(pages), quiet)
    blocks: list[PageBlocks | None] = []
    for i, page in enumerate(pages):
        blocks.append(_page_blocks(page, source))
        bar.update(i + 1)
    return SetData(folder.name, pages, blocks)


def _page_blocks(page: Page, source: LabelSource) -> PageBlocks | None:
    markup = _as_markup(page.html, None, None, None)
    doc = parse(markup)
    if not doc.n_blocks:
        return None
    y = page_labels(doc, markup if source.needs_markup else "", page.gold, css=source.css,
                    markers=source.markers, use_markers=source.use_markers)
    if y is None or not y.any():
        return None
    return PageBlocks(block_features(doc, document_span(doc)), y, page_weights(doc.words), doc.words.copy(),
                      doc.container.copy(), doc.texts)


@dataclass(frozen=True)
class TrainConfig:
    """Hyper-parameters of :func:`train_block_model` (recorded in the model's metadata).

    The defaults are the shipped model's. Both stages are logistic: hidden
    layers ((8,), (16,), (32, 16), (64, 32)) scored 0.005-0.02 lower mean F1
    leave-one-set-out, fitting the training sets' conventions instead of
    what carries to an unseen set.
    """

    hidden: tuple[int, ...] = ()
    stage1_hidden: tuple[int, ...] = ()
    epochs: int = 30
    seed: int = 0
    learning_rate: float = 2e-3
    l2: float = 1e-5
    ngram: bool = False
    threshold: float = 0.5
    set_balance: float = 0.5

    def classifier(self, hidden: tuple[int, ...], seed_offset: int = 0) -> MLPClassifier:
        return MLPClassifier(hidden, epochs=self.epochs, learning_rate=self.learning_rate, l2=self.l2,
                             seed=self.seed + seed_offset)


def training_pages(sets: Sequence[SetData], balance: float) -> list[PageBlocks]:
    """Labelled pages of ``sets``, a set's pages weighted by ``(mean set size / its size) ** balance``.

    Pages weigh the same within a set; across sets, ``balance=0`` lets the
    largest set dominate and ``1`` gives every set equal weight. Half-way
    (0.5) scored best leave-one-set-out: diversity of sites matters more
    than volume.
    """
    sizes = [len(s.labelled) for s in sets if s.labelled]
    if not sizes:
        return []
    mean = float(np.mean(sizes))
    out: list[PageBlocks] = []
    for s in sets:
        if s.labelled:
            factor = (mean / len(s.labelled)) ** balance
            out += [replace(p, weight=p.weight * np.float32(factor)) for p in s.labelled]
    return out


def _stack(pages: Sequence[PageBlocks], extra: Sequence[np.ndarray] | None = None) -> tuple[np.ndarray, ...]:
    X = np.concatenate([p.X if extra is None else np.column_stack((p.X, e)) for p, e in
                        zip(pages, extra if extra is not None else [None] * len(pages))])
    y = np.concatenate([p.y for p in pages])
    w = np.concatenate([p.weight for p in pages])
    g = np.concatenate([np.full(len(p.y), i, dtype=np.int32) for i, p in enumerate(pages)])
    return X, y, w, g


def train_block_model(pages: Sequence[PageBlocks], config: TrainConfig = TrainConfig(),
                      progress: Callable[[str], None] | None = None) -> BlockModel:
    """Fit the two-stage block model (see :class:`~scrapy_bte.model.BlockModel`).

    Stage 2 is trained on *out-of-fold* stage-1 probabilities (two folds by
    page), so it learns how far to trust stage 1 on pages stage 1 never saw.
    """
    say = progress or (lambda _msg: None)
    pages = list(pages)
    if not pages:
        raise ConfigError("no labelled pages to train on")
    ngram = None
    if config.ngram:
        say("n-gram stage")
        texts = [t for p in pages for t in p.texts]
        ngram = NgramClassifier().fit(texts, np.concatenate([p.y for p in pages]),
                                      np.concatenate([p.weight for p in pages]))
        pages = [PageBlocks(np.column_stack((p.X, ngram.block_scores(p.texts))), p.y, p.weight, p.words,
                            p.container, p.texts) for p in pages]
    rng = np.random.default_rng(config.seed)
    fold = rng.integers(0, 2, len(pages))
    context: list[np.ndarray] = [np.empty(0)] * len(pages)
    for f in (0, 1):
        say(f"stage 1, fold {f + 1}/2")
        inside = [p for p, k in zip(pages, fold) if k != f]
        if not inside:
            inside = pages
        clf = config.classifier(config.stage1_hidden, f + 1).fit(*_stack(inside))
        for i in np.flatnonzero(fold == f):
            p = pages[i]
            context[i] = context_features(clf.predict_proba(p.X)[:, 1], p)
    say("stage 1")
    stage1 = config.classifier(config.stage1_hidden).fit(*_stack(pages))
    say("stage 2")
    stage2 = config.classifier(config.hidden, 3).fit(*_stack(pages, context))
    return BlockModel(stage1, stage2, threshold=config.threshold, ngram=ngram)


# -- scoring -------------------------------------------------------------------

@dataclass
class MethodScore:
    """One method on one set: the metric, block errors, confidence ranking and speed."""

    method: str
    set_name: str
    f1: float
    precision: float
    recall: float
    pages: int
    empty: int
    block_error: float
    seconds: float
    confidences: list[float]
    page_f1: list[float]

    @property
    def pages_per_s(self) -> float:
        return self.pages / self.seconds if self.seconds else float("inf")

    def row(self) -> dict[str, Any]:
        return {"f1": round(self.f1, 4), "precision": round(self.precision, 4), "recall": round(self.recall, 4),
                "pages": self.pages, "empty": self.empty, "block_error": round(self.block_error, 4),
                "pages_per_s": round(self.pages_per_s, 1)}


def score_set(data: SetData, method: str, model_path: str | None = None, quiet: bool = False) -> MethodScore:
    """Run ``method`` through the real extraction path on every page of a set.

    Timing covers parsing and extraction (what :func:`scrapy_bte.extract`
    does after decoding's input checks); the block error rate compares the
    kept blocks with the labels of the pages that have labels.
    """
    options = {"model_path": model_path} if method in LEARNED_METHODS and model_path else {}
    scores, conf, errors, blocks = [], [], 0, 0
    seconds = 0.0
    bar = Progress(f"{method} on {data.name}", len(data.pages), quiet)
    for i, (page, labelled) in enumerate(zip(data.pages, data.blocks)):
        start = time.perf_counter()
        doc = parse(page.html)
        result = extract_document(doc, method=method, **options)
        seconds += time.perf_counter() - start
        scores.append(score_page(result.text, page.gold))
        conf.append(result.confidence)
        if labelled is not None and len(labelled.y) == doc.n_blocks:
            kept = np.zeros(doc.n_blocks, dtype=bool)
            kept[result.kept_blocks] = True
            errors += int((kept != labelled.y).sum())
            blocks += doc.n_blocks
        bar.update(i + 1)
    agg = aggregate(scores)
    return MethodScore(method, data.name, agg.f1, agg.precision, agg.recall, agg.pages, agg.empty,
                       errors / blocks if blocks else float("nan"), seconds, conf,
                       [s.f1 for s in scores if not s.gold_empty])


def loso_scores(sets: Sequence[SetData], methods: Sequence[str], config: TrainConfig,
                quiet: bool = False) -> list[MethodScore]:
    """Every set scored by models trained on the other sets (learned methods) or as is (heuristics)."""
    out: list[MethodScore] = []
    with tempfile.TemporaryDirectory(prefix="scrapy-bte-loso-") as tmp:
        for held in sets:
            path = None
            if any(m in LEARNED_METHODS for m in methods):
                train_pages = training_pages([s for s in sets if s is not held], config.set_balance)
                if not train_pages:
                    raise ConfigError("leave-one-set-out needs at least two sets with labels")
                if not quiet:
                    sys.stderr.write(f"training without {held.name} ({len(train_pages)} pages)\n")
                model = train_block_model(train_pages, config)
                path = str(Path(tmp) / f"without-{held.name}.npz")
                model.save(path, {"training_sets": [s.name for s in sets if s is not held]})
            for method in methods:
                out.append(score_set(held, method, path, quiet))
    return out


def format_table(scores: Sequence[MethodScore], loso: bool) -> str:
    """Markdown table: one row per method and set, then each method's mean and Spearman."""
    lines = ["| method | set | F1 | P | R | empty | block error | pages/s |", "|---|---|---:|---:|---:|---:|---:|---:|"]
    methods = list(dict.fromkeys(s.method for s in scores))
    for m in methods:
        label = f"{m} (loso)" if loso and m in LEARNED_METHODS else m
        rows = [s for s in scores if s.method == m]
        for s in rows:
            lines.append(f"| {label} | {s.set_name} | {s.f1:.3f} | {s.precision:.3f} | {s.recall:.3f} | {s.empty} "
                         f"| {s.block_error:.3f} | {s.pages_per_s:.0f} |")
        pages = sum(s.pages for s in rows)
        seconds = sum(s.seconds for s in rows)
        rho = spearman([c for s in rows for c in s.confidences[: len(s.page_f1)]],
                       [f for s in rows for f in s.page_f1]) if pages > 1 else float("nan")
        lines.append(f"| {label} | **mean** | {np.mean([s.f1 for s in rows]):.3f} | | | | "
                     f"| {pages / seconds if seconds else 0:.0f} |")
        lines.append(f"| {label} | ρ(confidence, page F1) | {rho:.2f} | | | | | |")
    return "\n".join(lines)


# -- command line -----------------------------------------------------------------

def _ints(value: str) -> tuple[int, ...]:
    try:
        sizes = tuple(int(v) for v in value.split(",") if v.strip())
    except ValueError as exc:
        raise argparse.ArgumentTypeError(f"expected comma-separated sizes such as 32,16, got {value!r}") from exc
    if any(h <= 0 for h in sizes):
        raise argparse.ArgumentTypeError("layer sizes must be positive")
    return sizes


def _add_data_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--data", nargs="+", required=True, metavar="DIR",
                   help="set folders of <id>.html + <id>.txt pairs (e.g. ../shared/datasets/*)")
    p.add_argument("--limit", type=int, default=None, help="at most this many pages per set")
    p.add_argument("--content-selector", default=None, metavar="CSS",
                   help="label blocks inside the elements this selector matches instead of using gold text")
    p.add_argument("--markers", default=None, metavar="START,END",
                   help="label blocks between template marker comments (text a comment contains, "
                        "or literal markup starting with '<')")
    p.add_argument("--use-markers", action="store_true",
                   help="use the default markers (<!-- content start --> / <!-- content end --> and variants)")
    p.add_argument("-q", "--quiet", action="store_true", help="no progress bars")


def _add_train_options(p: argparse.ArgumentParser) -> None:
    d = TrainConfig()
    p.add_argument("--hidden", type=_ints, default=d.hidden, metavar="SIZES",
                   help="hidden layers of the second stage, e.g. 32,16 (default: none, logistic)")
    p.add_argument("--stage1-hidden", type=_ints, default=d.stage1_hidden, metavar="SIZES",
                   help="hidden layers of the first stage (default: none, logistic)")
    p.add_argument("--epochs", type=int, default=d.epochs, help=f"maximum epochs (default {d.epochs})")
    p.add_argument("--seed", type=int, default=d.seed, help=f"random seed (default {d.seed})")
    p.add_argument("--learning-rate", type=float, default=d.learning_rate)
    p.add_argument("--l2", type=float, default=d.l2)
    p.add_argument("--ngram", action="store_true", help="add the character n-gram score as a feature")
    p.add_argument("--set-balance", type=float, default=d.set_balance, metavar="B",
                   help="weigh each set by (mean size / its size) ** B: 0 = by pages, 1 = sets equal "
                        f"(default {d.set_balance})")


def _config(args: argparse.Namespace) -> TrainConfig:
    return TrainConfig(hidden=args.hidden, stage1_hidden=args.stage1_hidden, epochs=args.epochs, seed=args.seed,
                       learning_rate=args.learning_rate, l2=args.l2, ngram=args.ngram, set_balance=args.set_balance)


def _source(args: argparse.Namespace) -> LabelSource:
    return LabelSource(args.content_selector, parse_markers(args.markers), args.use_markers)


def _load_sets(args: argparse.Namespace) -> list[SetData]:
    source = _source(args)
    return [load_set(d, source, limit=args.limit, quiet=args.quiet) for d in args.data]


def add_train_parser(subparsers: Any) -> argparse.ArgumentParser:
    """Register ``scrapy-bte train``."""
    p = subparsers.add_parser("train", help="train a block model on labelled pages",
                              description="Train the learned block model and write MODEL.npz + MODEL.json.")
    _add_data_options(p)
    p.add_argument("-o", "--output", required=True, metavar="MODEL.npz", help="where to write the model")
    _add_train_options(p)
    p.add_argument("--loso", action="store_true",
                   help="also score model and auto leave-one-set-out and record it in the metadata")
    p.set_defaults(func=run_train)
    return p


def add_evaluate_parser(subparsers: Any) -> argparse.ArgumentParser:
    """Register ``scrapy-bte evaluate``."""
    p = subparsers.add_parser("evaluate", help="score methods on labelled pages (F1/P/R, block errors, speed)",
                              description="Score extraction methods per set. Learned methods use --model "
                                          "(default: the shipped model) or, with --loso, a model trained "
                                          "on the other sets for each set.")
    _add_data_options(p)
    p.add_argument("--method", default="bte,hybrid,auto",
                   help=f"comma-separated methods among {', '.join(METHODS)} (default bte,hybrid,auto)")
    p.add_argument("--model", default=None, help="model .npz for the model/auto methods")
    p.add_argument("--loso", action="store_true", help="learned methods leave-one-set-out (trains one model per set)")
    _add_train_options(p)
    p.set_defaults(func=run_evaluate)
    return p


def _methods(value: str) -> list[str]:
    methods = [m.strip() for m in value.split(",") if m.strip()]
    unknown = [m for m in methods if m not in METHODS]
    if unknown or not methods:
        raise ConfigError(f"unknown method(s) {unknown or value!r}; choose among {', '.join(METHODS)}")
    return methods


def run_evaluate(args: argparse.Namespace) -> int:
    methods = _methods(args.method)
    sets = _load_sets(args)
    if args.loso:
        if len(sets) < 2:
            raise ConfigError("--loso needs at least two --data sets")
        scores = loso_scores(sets, methods, _config(args), args.quiet)
    else:
        scores = [score_set(s, m, args.model, args.quiet) for s in sets for m in methods]
        scores.sort(key=lambda s: methods.index(s.method))
    print(format_table(scores, args.loso))
    return 0


_FLAGS = (("--limit", "limit"), ("--content-selector", "content_selector"), ("--markers", "markers"),
          ("--use-markers", "use_markers"), ("--hidden", "hidden"), ("--stage1-hidden", "stage1_hidden"),
          ("--epochs", "epochs"), ("--seed", "seed"), ("--learning-rate", "learning_rate"), ("--l2", "l2"),
          ("--ngram", "ngram"), ("--set-balance", "set_balance"), ("--loso", "loso"))


def _command(args: argparse.Namespace) -> str:
    """The ``scrapy-bte train`` command that reproduces this run (options left at their defaults omitted)."""
    defaults = {**asdict(TrainConfig()), "limit": None, "content_selector": None, "markers": None,
                "use_markers": False, "loso": False}
    parts = ["scrapy-bte", "train", "--data", *args.data, "-o", args.output]
    for flag, attr in _FLAGS:
        value = getattr(args, attr, None)
        if value == defaults.get(attr) or value is None or value is False:
            continue
        if value is True:
            parts.append(flag)
        elif isinstance(value, tuple):
            parts += [flag, ",".join(map(str, value))]
        else:
            parts += [flag, str(value)]
    return " ".join(shlex.quote(p) for p in parts)


def run_train(args: argparse.Namespace) -> int:
    config = _config(args)
    sets = _load_sets(args)
    pages = training_pages(sets, config.set_balance)
    if not pages:
        raise ConfigError("no labelled pages in the given sets")
    started = time.perf_counter()
    bar = Progress("training", 4 + int(config.ngram), args.quiet)
    steps = iter(range(1, 6))
    model = train_block_model(pages, config, lambda msg: bar.update(next(steps), msg))
    train_seconds = time.perf_counter() - started
    y = np.concatenate([p.y for p in pages])
    pred = np.concatenate([model.predict_document(p, p.X) >= model.threshold for p in pages])
    metrics: dict[str, Any] = {"training_block_error": round(float((pred != y).mean()), 4)}
    if args.loso:
        scores = loso_scores(sets, list(LEARNED_METHODS), config, args.quiet)
        metrics["loso"] = {f"{s.method}/{s.set_name}": s.row() for s in scores}
        print(format_table(scores, True))
    meta = {
        "created": _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds"),
        "command": _command(args),
        "training_sets": [{"name": s.name, "pages": len(s.pages), "labelled_pages": len(s.labelled)} for s in sets],
        "labels": _source(args).describe(),
        "training_config": {**asdict(config), "word_power": WORD_POWER},
        "blocks": int(len(y)),
        "content_share": round(float(y.mean()), 4),
        "train_seconds": round(train_seconds, 1),
        "metrics": metrics,
    }
    Path(args.output).parent.mkdir(parents=True, exist_ok=True)
    model.save(args.output, meta)
    print(f"trained on {len(pages)} pages / {len(y)} blocks from {', '.join(s.name for s in sets)} "
          f"({_source(args).describe()}) in {train_seconds:.0f}s; training block error "
          f"{metrics['training_block_error']:.3f}; wrote {args.output} and {Path(args.output).with_suffix('.json')}")
    return 0
