"""Fitting the staged block model on labelled pages."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

import numpy as np

from ..errors import ConfigError
from ..learned.estimators import MLPClassifier, averaged
from ..learned.features import context_features
from ..learned.model import BlockModel
from ..learned.ngrams import NgramClassifier
from .data import PageBlocks, SetData


@dataclass(frozen=True)
class TrainConfig:
    """Hyper-parameters of :func:`train_block_model` (recorded in the model's metadata).

    The defaults are the shipped model's. The first stage is logistic; the
    second, which reads the first stage's probabilities around each block,
    has one hidden layer of 8 units. Trained on the older sets alone, hidden
    layers ((8,), (16,), (32, 16), (64, 32)) had scored 0.005-0.02 lower mean
    F1 leave-one-set-out, fitting the training sets' conventions; with WCXB's
    pages of seven types in the training data, 8 units in the second stage
    carry to unseen sites and sets. WCXB by site folds 0.8722 -> 0.8788
    (every page type up; seed 1: 0.8766); older sets leave-one-set-out, mean
    0.9109 -> 0.9133 (seed 1: 0.9125), mercury +0.008, CleanEval -0.002
    (seed 1: -0.009, the one set that loses on both seeds). 16 units: WCXB
    0.8762, CleanEval -0.024; 32 units: 0.8753; 16 in the first stage: 0.8726.
    The keep threshold is 0.65, not 0.5:
    trained on body labels, the model's doubtful blocks at the article's
    edges are furniture more often than body. Leave-one-set-out on mercury
    (the model never saw a modern page): F1 0.926 at 0.6 (precision 0.910),
    0.936 at 0.65 (0.920), 0.934 at 0.7 (0.929); the shipped model on the
    older sets moves by -0.005 (Readability's set) to +0.000 between 0.6
    and 0.65. The value was picked after seeing those mercury scores.
    """

    hidden: tuple[int, ...] = (8,)
    stage1_hidden: tuple[int, ...] = ()
    epochs: int = 30
    seed: int = 0
    learning_rate: float = 2e-3
    l2: float = 1e-5
    ngram: bool = False
    threshold: float = 0.65
    set_balance: float = 0.5
    #: Two-stage models trained with seeds ``seed``, ``seed + 1``, ... (each with its own folds
    #: for stage 2) and averaged into one (:func:`~scrapy_bte.learned.estimators.averaged`: the
    #: mean of their log-odds per stage; the shipped stage 2 is three members of 8 units, 24 in
    #: all). A single model's scores move with its seed: WCXB by site folds 0.8861, 0.8877 and
    #: 0.8877 for seeds 0-2, 0.8849, 0.8861 and 0.8862 for seeds 10-12. The average of three
    #: is above each of its members: 0.8900 (listing +0.020 and forum +0.005 over seed 0;
    #: service -0.0015, the only type down) and 0.8877. Five members (seeds 0-4): 0.8893;
    #: three second stages over one shared first stage: 0.8872; three members of 16 units:
    #: 0.8866 (collection -0.026); stage 2 on five-fold stage-1 context: 0.8891; three members
    #: with l2 1e-4: 0.8884, with learning rate 1e-3: 0.8883. Cost: the second stage's products
    #: are 24 units wide instead of 8.
    members: int = 3
    #: Stages of each member: 2, or 3 for a third stage (8 units) that reads the context of the
    #: second stage's probabilities too (trained, as stage 2 on stage 1's, on out-of-fold stage-2
    #: probabilities, two folds by page). Three stages, three members each: WCXB by site folds
    #: 0.8909 against 0.8900 (product 0.694 to 0.709, listing 0.770 to 0.765); the older sets
    #: leave-one-set-out 0.9148 against 0.9136 (CleanEval +0.009, CleanPortalEval -0.004); a
    #: logistic third stage: WCXB 0.8889, older sets 0.9147 (mercury -0.004). Not the default:
    #: ``predict_document`` takes 1.6 times as long (about 100 microseconds more a WCXB page, 2-3 %
    #: of ``extract()``) for a gain inside what retraining with other seeds moves.
    stages: int = 2

    def classifier(self, hidden: tuple[int, ...], seed_offset: int = 0) -> MLPClassifier:
        return MLPClassifier(
            hidden, epochs=self.epochs, learning_rate=self.learning_rate, l2=self.l2, seed=self.seed + seed_offset
        )


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
    X = np.concatenate(
        [p.X for p in pages] if extra is None else [np.column_stack(pe) for pe in zip((p.X for p in pages), extra)]
    )
    y = np.concatenate([p.y for p in pages])
    w = np.concatenate([p.weight for p in pages])
    g = np.concatenate([np.full(len(p.y), i, dtype=np.int32) for i, p in enumerate(pages)])
    return X, y, w, g


def train_block_model(
    pages: Sequence[PageBlocks], config: TrainConfig = TrainConfig(), progress: Callable[[str], None] | None = None
) -> BlockModel:
    """Fit the two-stage block model (see :class:`~scrapy_bte.learned.model.BlockModel`).

    Stage 2 is trained on *out-of-fold* stage-1 probabilities (two folds by
    page), so it learns how far to trust stage 1 on pages stage 1 never saw.
    With ``config.members`` above one, each member has its own seed and folds,
    and the members' stages are averaged into one model of the same shape.
    """
    say = progress or (lambda _msg: None)
    pages = list(pages)
    if not pages:
        raise ConfigError("no labelled pages to train on")
    if config.members < 1:
        raise ConfigError(f"members must be 1 or more, not {config.members}")
    if config.stages not in (2, 3):
        raise ConfigError(f"stages must be 2 or 3, not {config.stages}")
    ngram = None
    if config.ngram:
        say("n-gram stage")
        texts = [t for p in pages for t in p.texts]
        ngram = NgramClassifier().fit(
            texts, np.concatenate([p.y for p in pages]), np.concatenate([p.weight for p in pages])
        )
        pages = [
            PageBlocks(
                np.column_stack((p.X, ngram.block_scores(p.texts))), p.y, p.weight, p.words, p.container, p.texts
            )
            for p in pages
        ]
    stages = [_fit_stages(pages, replace(config, seed=config.seed + j), say) for j in range(config.members)]
    merged = [averaged([s[k] for s in stages]) for k in range(config.stages)]
    return BlockModel(
        merged[0],
        merged[1],
        stage3=merged[2] if config.stages > 2 else None,
        threshold=config.threshold,
        ngram=ngram,
    )


def _fit_stages(pages: list[PageBlocks], config: TrainConfig, say: Callable[[str], None]) -> list[MLPClassifier]:
    """One member's stages; each stage after the first on *out-of-fold* probabilities of the
    stage before it (two folds by page), so it learns how far to trust them on pages that stage never saw."""
    member = f"seed {config.seed}: " if config.members > 1 else ""
    rng = np.random.default_rng(config.seed)
    fold = rng.integers(0, 2, len(pages))
    context: list[np.ndarray] = [np.empty(0)] * len(pages)
    for f in (0, 1):
        say(f"{member}stage 1, fold {f + 1}/2")
        inside = [p for p, k in zip(pages, fold) if k != f]
        if not inside:
            inside = pages
        clf = config.classifier(config.stage1_hidden, f + 1).fit(*_stack(inside))
        for i in np.flatnonzero(fold == f):
            p = pages[i]
            context[i] = context_features(clf.predict_proba(p.X)[:, 1], p)
    say(f"{member}stage 1")
    stage1 = config.classifier(config.stage1_hidden).fit(*_stack(pages))
    say(f"{member}stage 2")
    stage2 = config.classifier(config.hidden, 3).fit(*_stack(pages, context))
    if config.stages < 3:
        return [stage1, stage2]
    # Stage 3 reads stage 1's context and that of stage 2's out-of-fold probabilities, on folds of
    # their own (stage 2's inputs here are the out-of-fold stage-1 contexts above).
    fold = np.random.default_rng(config.seed + 100).integers(0, 2, len(pages))
    both: list[np.ndarray] = [np.empty(0)] * len(pages)
    for f in (0, 1):
        say(f"{member}stage 2, fold {f + 1}/2")
        inside_ids = [i for i, k in enumerate(fold) if k != f] or list(range(len(pages)))
        clf = config.classifier(config.hidden, 5 + f).fit(
            *_stack([pages[i] for i in inside_ids], [context[i] for i in inside_ids])
        )
        for i in np.flatnonzero(fold == f):
            p = pages[i]
            both[i] = np.column_stack((context[i], context_features(clf.positive_proba(p.X, context[i]), p)))
    say(f"{member}stage 3")
    stage3 = config.classifier(config.hidden, 7).fit(*_stack(pages, both))
    return [stage1, stage2, stage3]
