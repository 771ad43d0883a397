"""``scrapy-bte train``, ``train-page-type`` and ``evaluate``: the command line of training.

``train`` fits a block model on labelled set folders and writes its
``.npz`` and ``.json`` (with the command that reproduces it);
``train-page-type`` scores the page-type classifier by site-disjoint folds
and writes it the same way; ``evaluate`` scores methods per set (see
:mod:`scrapy_bte.training.scoring`).
"""

from __future__ import annotations

import argparse
import datetime as _dt
import shlex
import time
from dataclasses import asdict, replace
from pathlib import Path
from typing import Any

import numpy as np

from ..api import LEARNED_METHODS, METHODS
from ..errors import ConfigError
from ..learned import page_type as _page_type
from ..learned.estimators import SoftmaxClassifier
from ..learned.model import lists_path
from ..learned.model import load as load_model
from . import page_types as _page_types
from .data import WORD_POWER, LabelSource, SetData, load_set
from .fit import TrainConfig, train_block_model, training_pages
from .labels import parse_markers
from .progress import Progress
from .scoring import format_table, loso_scores, score_set


def _ints(value: str) -> tuple[int, ...]:
    try:
        sizes = tuple(int(v) for v in value.split(",") if v.strip())
    except ValueError as exc:
        raise argparse.ArgumentTypeError(f"expected comma-separated sizes such as 32,16, got {value!r}") from exc
    if any(h <= 0 for h in sizes):
        raise argparse.ArgumentTypeError("layer sizes must be positive")
    return sizes


def _count(value: str) -> int:
    """A positive whole number (``--members``)."""
    try:
        n = int(value)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {value!r}") from exc
    if n < 1:
        raise argparse.ArgumentTypeError("must be 1 or more")
    return n


def _add_data_options(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--data",
        nargs="+",
        default=[],
        metavar="DIR",
        help="set folders of <id>.html + <id>.txt pairs (e.g. ../shared/datasets/*)",
    )
    p.add_argument("--limit", type=int, default=None, help="at most this many pages per set")
    p.add_argument(
        "--content-selector",
        default=None,
        metavar="CSS",
        help="label blocks inside the elements this selector matches instead of using gold text",
    )
    p.add_argument(
        "--markers",
        default=None,
        metavar="START,END",
        help="label blocks between template marker comments (text a comment contains, "
        "or literal markup starting with '<')",
    )
    p.add_argument(
        "--use-markers",
        action="store_true",
        help="use the default markers (<!-- content start --> / <!-- content end --> and variants)",
    )
    p.add_argument(
        "--body-labels",
        action="store_true",
        help="label headline, byline, captions and comments as boilerplate even where the gold "
        "keeps them (older corpora), so the model learns the article body",
    )
    p.add_argument(
        "--typed-data",
        nargs="+",
        default=[],
        metavar="DIR",
        help="set folders whose gold follows each page type's own convention (WCXB: forum posts, "
        "every card of a listing): labelled from their gold as it is, never moved to the article body",
    )
    p.add_argument(
        "--page-types",
        type=_names,
        default=None,
        metavar="TYPES",
        help="only the --typed-data pages whose <id>.meta.json gives one of these page types, "
        "e.g. listing,collection,service (the lists model)",
    )
    p.add_argument("-q", "--quiet", action="store_true", help="no progress bars")


def _add_train_options(p: argparse.ArgumentParser) -> None:
    d = TrainConfig()
    p.add_argument(
        "--hidden",
        type=_ints,
        default=d.hidden,
        metavar="SIZES",
        help="hidden layers of the second stage, e.g. 32,16 (default: 8; an empty string: logistic)",
    )
    p.add_argument(
        "--stage1-hidden",
        type=_ints,
        default=d.stage1_hidden,
        metavar="SIZES",
        help="hidden layers of the first stage (default: none, logistic)",
    )
    p.add_argument(
        "--members",
        type=_count,
        default=d.members,
        metavar="N",
        help=f"train N models with seeds SEED, SEED+1, ... and average them into one (default {d.members})",
    )
    p.add_argument(
        "--stages",
        type=int,
        choices=(2, 3),
        default=d.stages,
        help=f"2: a second stage on the first's context; 3: and a third on the second's (default {d.stages})",
    )
    p.add_argument("--epochs", type=int, default=d.epochs, help=f"maximum epochs (default {d.epochs})")
    p.add_argument("--seed", type=int, default=d.seed, help=f"random seed (default {d.seed})")
    p.add_argument(
        "--learning-rate", type=float, default=d.learning_rate, help=f"Adam's step size (default {d.learning_rate:g})"
    )
    p.add_argument("--l2", type=float, default=d.l2, help=f"L2 penalty on the weights (default {d.l2:g})")
    p.add_argument("--ngram", action="store_true", help="add the character n-gram score as a feature")
    p.add_argument(
        "--set-balance",
        type=float,
        default=d.set_balance,
        metavar="B",
        help=f"weigh each set by (mean size / its size) ** B: 0 = by pages, 1 = sets equal (default {d.set_balance})",
    )


def _config(args: argparse.Namespace) -> TrainConfig:
    return TrainConfig(
        hidden=args.hidden,
        stage1_hidden=args.stage1_hidden,
        members=args.members,
        stages=args.stages,
        epochs=args.epochs,
        seed=args.seed,
        learning_rate=args.learning_rate,
        l2=args.l2,
        ngram=args.ngram,
        set_balance=args.set_balance,
    )


def _source(args: argparse.Namespace) -> LabelSource:
    return LabelSource(
        args.content_selector, parse_markers(args.markers), args.use_markers, getattr(args, "body_labels", False)
    )


def _load_sets(args: argparse.Namespace) -> list[SetData]:
    typed_data = getattr(args, "typed_data", [])
    if not args.data and not typed_data:
        raise ConfigError("give the labelled set folders with --data, --typed-data or both")
    page_types = getattr(args, "page_types", None)
    if page_types is not None and not typed_data:
        raise ConfigError("--page-types picks pages of the --typed-data folders: give one")
    source = _source(args)
    typed = replace(source, body=False)
    return [load_set(d, source, limit=args.limit, quiet=args.quiet) for d in args.data] + [
        load_set(d, typed, limit=args.limit, quiet=args.quiet, page_types=page_types) for d in typed_data
    ]


def _names(value: str) -> tuple[str, ...]:
    """Comma-separated names (``--page-types``), at least one."""
    names = tuple(n.strip() for n in value.split(",") if n.strip())
    if not names:
        raise argparse.ArgumentTypeError("expected comma-separated names, e.g. listing,collection,service")
    return names


def add_train_parser(subparsers: Any) -> argparse.ArgumentParser:
    """Register ``scrapy-bte train``."""
    p = subparsers.add_parser(
        "train",
        help="train a block model on labelled pages",
        description="Train the learned block model and write MODEL.npz + MODEL.json.",
    )
    _add_data_options(p)
    p.add_argument("-o", "--output", required=True, metavar="MODEL.npz", help="where to write the model")
    _add_train_options(p)
    p.add_argument(
        "--loso", action="store_true", help="also score model and auto leave-one-set-out and record it in the metadata"
    )
    p.add_argument(
        "--lists-model",
        default=None,
        metavar="NAME.npz",
        help="a model file beside --output (trained with --page-types listing,collection,service) that "
        "auto blends in on the pages it reads by the collection or service profile; recorded in the metadata",
    )
    p.set_defaults(func=run_train)
    return p


def add_evaluate_parser(subparsers: Any) -> argparse.ArgumentParser:
    """Register ``scrapy-bte evaluate``."""
    p = subparsers.add_parser(
        "evaluate",
        help="score methods on labelled pages (F1/P/R, block errors, speed)",
        description="Score extraction methods per set. Learned methods use --model "
        "(default: the shipped model) or, with --loso, a model trained "
        "on the other sets for each set.",
    )
    _add_data_options(p)
    p.add_argument(
        "--method",
        default="bte,hybrid,auto",
        help=f"comma-separated methods among {', '.join(METHODS)} (default bte,hybrid,auto)",
    )
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


_FLAGS = (
    ("--limit", "limit"),
    ("--content-selector", "content_selector"),
    ("--markers", "markers"),
    ("--use-markers", "use_markers"),
    ("--body-labels", "body_labels"),
    ("--hidden", "hidden"),
    ("--stage1-hidden", "stage1_hidden"),
    ("--members", "members"),
    ("--stages", "stages"),
    ("--epochs", "epochs"),
    ("--seed", "seed"),
    ("--learning-rate", "learning_rate"),
    ("--l2", "l2"),
    ("--ngram", "ngram"),
    ("--set-balance", "set_balance"),
    ("--loso", "loso"),
    ("--page-types", "page_types"),
    ("--lists-model", "lists_model"),
)


def _command(args: argparse.Namespace) -> str:
    """The ``scrapy-bte train`` command that reproduces this run (options left at their defaults omitted)."""
    defaults = {
        **asdict(TrainConfig()),
        "limit": None,
        "content_selector": None,
        "markers": None,
        "use_markers": False,
        "body_labels": False,
        "loso": False,
    }
    parts = ["scrapy-bte", "train", *(["--data", *args.data] if args.data else []), "-o", args.output]
    if getattr(args, "typed_data", None):
        parts += ["--typed-data", *args.typed_data]
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


def _labels(args: argparse.Namespace, sets: list[SetData]) -> str:
    """Where the labels came from, for the metadata and the closing line."""
    described = _source(args).describe_with(sum(s.hand_labelled for s in sets))
    typed = getattr(args, "typed_data", None)
    return described + (
        f"; {', '.join(Path(d).name for d in typed)} labelled from their gold as it is" if typed else ""
    )


def run_train(args: argparse.Namespace) -> int:
    config = _config(args)
    lists = _lists_model(args)
    sets = _load_sets(args)
    pages = training_pages(sets, config.set_balance)
    if not pages:
        raise ConfigError("no labelled pages in the given sets")
    started = time.perf_counter()
    total = (4 if config.stages < 3 else 7) * config.members + int(config.ngram)
    bar = Progress("training", total, args.quiet)
    steps = iter(range(1, total + 1))
    model = train_block_model(pages, config, lambda msg: bar.update(next(steps), msg))
    train_seconds = time.perf_counter() - started
    known = np.concatenate([p.weight > 0 for p in pages])  # hand-labelled pages may leave blocks unlabelled
    y = np.concatenate([p.y for p in pages])[known]
    pred = np.concatenate([model.predict_document(p, p.X) >= model.threshold for p in pages])[known]
    metrics: dict[str, Any] = {"training_block_error": round(float((pred != y).mean()), 4)}
    if args.loso:
        scores = loso_scores(sets, list(LEARNED_METHODS), config, args.quiet)
        metrics["loso"] = {f"{s.method}/{s.set_name}": s.row() for s in scores}
        print(format_table(scores, True))
    meta = {
        "created": _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds"),
        "command": _command(args),
        "training_sets": [
            {
                "name": s.name,
                "pages": len(s.pages),
                "labelled_pages": len(s.labelled),
                "hand_labelled_pages": s.hand_labelled,
            }
            for s in sets
        ],
        "labels": _labels(args, sets),
        "training_config": {**asdict(config), "word_power": WORD_POWER},
        "blocks": len(y),
        "content_share": round(float(y.mean()), 4),
        "train_seconds": round(train_seconds, 1),
        "metrics": metrics,
        **({"lists_model": lists} if lists is not None else {}),
    }
    Path(args.output).parent.mkdir(parents=True, exist_ok=True)
    model.save(args.output, meta)
    print(
        f"trained on {len(pages)} pages / {len(y)} blocks from {', '.join(s.name for s in sets)} "
        f"({_labels(args, sets)}) in {train_seconds:.0f}s; training block error "
        f"{metrics['training_block_error']:.3f}; wrote {args.output} and {Path(args.output).with_suffix('.json')}"
    )
    return 0


def _lists_model(args: argparse.Namespace) -> str | None:
    """``--lists-model``, checked before training: a loadable model file beside ``--output``."""
    name = getattr(args, "lists_model", None)
    if name is None:
        return None
    if Path(args.output).name == name:
        raise ConfigError("--lists-model must be another file than --output")
    load_model(lists_path(args.output, name))  # a ModelError names what is wrong with either
    return name


def add_train_page_type_parser(subparsers: Any) -> argparse.ArgumentParser:
    """Register ``scrapy-bte train-page-type``."""
    p = subparsers.add_parser(
        "train-page-type",
        help="train the page-type classifier on WCXB pages",
        description="Score the page-type classifier by folds grouped by domain on WCXB (accuracy and "
        "confusion matrix), then fit it on all pages and write MODEL.npz + MODEL.json.",
    )
    p.add_argument("--wcxb", required=True, metavar="DIR", help="the WCXB folder (<id>.html.gz, .txt, .meta.json)")
    p.add_argument(
        "--articles",
        nargs="*",
        default=[],
        metavar="DIR",
        help="set folders of article pages (<id>.html) to add as article examples",
    )
    p.add_argument("--articles-limit", type=int, default=150, help="at most this many pages per article folder")
    p.add_argument("-o", "--output", required=True, metavar="MODEL.npz", help="where to write the model")
    p.add_argument(
        "--hidden", type=_ints, default=(32,), metavar="SIZES", help="hidden layers (default 32; empty: logistic)"
    )
    p.add_argument("--epochs", type=int, default=500, help="training epochs (default 500)")
    p.add_argument("--learning-rate", type=float, default=0.005, help="Adam's step size (default 0.005)")
    p.add_argument("--l2", type=float, default=0.03, help="L2 penalty on the weights (default 0.03)")
    p.add_argument(
        "--balance",
        type=float,
        default=_page_types.BALANCE,
        help="class weights (rows / (classes * class rows)) ** B: 1 = classes equal, 0 = rows equal "
        f"(default {_page_types.BALANCE})",
    )
    p.add_argument("--folds", type=int, default=5, help="site-disjoint folds for the accuracy (default 5)")
    p.add_argument("--seed", type=int, default=0, help="random seed (default 0)")
    p.set_defaults(func=run_train_page_type)
    return p


def run_train_page_type(args: argparse.Namespace) -> int:
    started = time.perf_counter()
    rows = _page_types.wcxb_rows(args.wcxb)
    if args.articles:
        rows = _page_types.join(rows, _page_types.article_rows(args.articles, args.articles_limit))

    def make() -> SoftmaxClassifier:
        return SoftmaxClassifier(
            len(_page_type.PAGE_TYPES),
            args.hidden,
            epochs=args.epochs,
            learning_rate=args.learning_rate,
            l2=args.l2,
            seed=args.seed,
        )

    true, predicted, no_url = _page_types.fold_predictions(
        rows, make, k=args.folds, seed=args.seed, balance=args.balance
    )
    matrix = _page_types.confusion(true, predicted)
    accuracy = float((true == predicted).mean())
    accuracy_no_url = float((true == no_url).mean())
    print(
        f"page-type accuracy on {len(true)} WCXB pages, {args.folds} folds grouped by domain: {accuracy:.3f} "
        f"({accuracy_no_url:.3f} without their URLs)"
    )
    print(_page_types.format_confusion(matrix))
    model = _page_type.PageTypeModel(_page_types.fit(rows, make, balance=args.balance))
    parts = ["scrapy-bte", "train-page-type", "--wcxb", args.wcxb]
    if args.articles:
        parts += ["--articles", *args.articles, "--articles-limit", str(args.articles_limit)]
    parts += ["-o", args.output]
    parts += ["--hidden", ",".join(map(str, args.hidden))]
    for flag, value in (
        ("--epochs", args.epochs),
        ("--learning-rate", args.learning_rate),
        ("--l2", args.l2),
        ("--balance", args.balance),
    ):
        parts += [flag, str(value)]
    meta = {
        "created": _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds"),
        "command": " ".join(shlex.quote(p) for p in parts + ["--folds", str(args.folds), "--seed", str(args.seed)]),
        "pages": {name: int((rows.y == i).sum()) for i, name in enumerate(_page_type.PAGE_TYPES)},
        "wcxb_pages": int(rows.scored.sum()),
        "skipped_article_pages": rows.skipped,
        "metrics": {
            "fold_accuracy": round(accuracy, 4),
            "fold_accuracy_without_url": round(accuracy_no_url, 4),
            "folds": args.folds,
            "confusion": matrix.tolist(),
        },
        "train_seconds": round(time.perf_counter() - started, 1),
    }
    Path(args.output).parent.mkdir(parents=True, exist_ok=True)
    model.save(args.output, meta)
    print(f"wrote {args.output} and {Path(args.output).with_suffix('.json')}")
    return 0
