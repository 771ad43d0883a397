"""The benchmark metric on small inline texts (no dataset access)."""

from __future__ import annotations

import math
from collections import Counter

import pytest

from scrapy_bte.training.evaluation import (
    PageScore,
    aggregate,
    load_dataset,
    rank,
    score_page,
    shingles,
    spearman,
)

GOLD = "The quick brown fox jumps over the lazy dog, again and again."


def test_shingles_are_four_token_multisets() -> None:
    assert shingles("a b c d e") == Counter({("a", "b", "c", "d"): 1, ("b", "c", "d", "e"): 1})
    assert shingles("x y z w x y z w")[("x", "y", "z", "w")] == 2


def test_shingles_of_short_and_empty_texts() -> None:
    assert shingles("Hello, world!") == Counter({("Hello", "world"): 1})
    assert shingles(" ... ") == Counter()
    assert shingles("") == Counter()


def test_tokens_are_unicode_words() -> None:
    assert shingles("Größe über naïve café") == Counter({("Größe", "über", "naïve", "café"): 1})


def test_perfect_match_scores_one() -> None:
    score = score_page(GOLD, GOLD)
    assert (score.precision, score.recall, score.fp, score.fn) == (1.0, 1.0, 0, 0)
    assert aggregate([score]).f1 == 1.0


def test_punctuation_and_layout_are_ignored() -> None:
    score = score_page("The quick brown fox\njumps over the lazy dog again and again", GOLD)
    assert score.f1 == 1.0


def test_disjoint_texts_score_zero() -> None:
    score = score_page("Completely unrelated words about something else", GOLD)
    assert score.tp == 0 and score.precision == 0.0 and score.recall == 0.0
    assert not score.empty
    result = aggregate([score])
    assert (result.f1, result.precision, result.recall, result.empty) == (0.0, 0.0, 0.0, 0)


def test_partial_overlap_counts() -> None:
    score = score_page("a b c d e f", "c d e f g h")
    # output shingles: abcd bcde cdef ; gold: cdef defg efgh
    assert (score.tp, score.fp, score.fn) == (1, 2, 2)
    assert score.precision == pytest.approx(1 / 3) and score.recall == pytest.approx(1 / 3)


def test_repeated_shingles_count_as_multiset() -> None:
    score = score_page("a b c d a b c d", "a b c d")
    # output: abcd x2, bcda, cdab, dabc ; gold: abcd x1
    assert (score.tp, score.fp, score.fn) == (1, 4, 0)


def test_empty_output_is_left_out_of_precision_only() -> None:
    good = score_page(GOLD, GOLD)
    empty = score_page("", GOLD)
    assert empty.empty and empty.recall == 0.0
    result = aggregate([good, empty])
    assert result.precision == 1.0
    assert result.recall == 0.5
    assert result.empty == 1 and result.pages == 2
    assert result.f1 == pytest.approx(2 * 0.5 / 1.5)


def test_punctuation_only_output_is_empty() -> None:
    assert score_page("  -- | --  ", GOLD).empty


def test_empty_gold_is_skipped_from_both_averages() -> None:
    skipped = score_page("some output text here", "")
    assert skipped.gold_empty
    result = aggregate([score_page(GOLD, GOLD), skipped])
    assert (result.f1, result.pages, result.skipped) == (1.0, 1, 1)


def test_short_texts_compare_as_one_shingle() -> None:
    assert score_page("Hello world", "hello world").tp == 0  # case matters
    assert score_page("Hello, world", "Hello world").f1 == 1.0
    short = score_page("Hello world", "Hello world and more words")
    assert short.tp == 0 and short.fn == 2


def test_aggregate_of_nothing_is_zero() -> None:
    assert aggregate([]).f1 == 0.0
    assert aggregate(iter([score_page(GOLD, GOLD)])).f1 == 1.0


def test_aggregate_averages_pages_not_shingles() -> None:
    long_good = score_page(GOLD * 20, GOLD * 20)
    short_bad = PageScore(tp=0, fp=1, fn=1, precision=0.0, recall=0.0, empty=False)
    result = aggregate([long_good, short_bad])
    assert result.precision == 0.5 and result.recall == 0.5


def test_rank_averages_ties() -> None:
    assert rank([10, 20, 20, 5]).tolist() == [2.0, 3.5, 3.5, 1.0]


def test_spearman_with_ties_matches_hand_computation() -> None:
    # ranks x = [1, 2.5, 2.5, 4], ranks y = [1, 3, 2, 4]
    # centred: [-1.5, 0, 0, 1.5] and [-1.5, .5, -.5, 1.5] -> 4.5 / sqrt(4.5 * 5)
    assert spearman([1, 2, 2, 3], [1, 3, 2, 4]) == pytest.approx(3 / math.sqrt(10))


def test_spearman_monotone_and_degenerate() -> None:
    assert spearman([1, 2, 3, 4], [10, 100, 1000, 10**4]) == pytest.approx(1.0)
    assert spearman([1, 2, 3], [3, 2, 1]) == pytest.approx(-1.0)
    assert math.isnan(spearman([1, 1, 1], [1, 2, 3]))
    assert math.isnan(spearman([1], [1]))
    with pytest.raises(ValueError):
        spearman([1, 2], [1])


def test_load_dataset_reads_pairs_as_bytes(tmp_path) -> None:
    folder = tmp_path / "myset"
    folder.mkdir()
    (folder / "b.html").write_bytes("<p>caf\xe9</p>".encode("latin-1"))
    (folder / "b.txt").write_text("café\nsecond block\n", encoding="utf-8")
    (folder / "a.html").write_bytes(b"<p>a</p>")
    (folder / "a.txt").write_text("a", encoding="utf-8")
    (folder / "orphan.html").write_bytes(b"<p>no gold</p>")
    pages = load_dataset(folder)
    assert [p.name for p in pages] == ["a", "b"]
    assert pages[1].set_name == "myset"
    assert pages[1].html == b"<p>caf\xe9</p>"
    assert pages[1].gold == "café\nsecond block\n"
    assert [p.name for p in load_dataset(folder, limit=1)] == ["a"]
