"""``scrapy-bte train --data DIR`` with hand labels: their precedence over gold text, label-only pages."""

from __future__ import annotations

import json
import os
import re
import shutil
from pathlib import Path

import numpy as np
import pytest

from scrapy_bte.api import parse
from scrapy_bte.cli import main
from scrapy_bte.errors import ConfigError
from scrapy_bte.learned.feature_schema import FEATURE_VERSION
from scrapy_bte.training import label_files
from scrapy_bte.training.data import load_set
from scrapy_bte.training.labels import gold_labels

FIXTURES = Path(__file__).resolve().parent / "fixtures"
PARAGRAPH = "Biologists counting tracks along the riverbank"


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    """``a`` has gold text (its article's paragraphs); ``b`` has none."""
    shutil.copy(FIXTURES / "article1.html", tmp_path / "a.html")
    texts = parse((tmp_path / "a.html").read_bytes()).texts
    start = next(i for i, t in enumerate(texts) if t.startswith("River otters"))
    (tmp_path / "a.txt").write_text("\n".join(texts[start : start + 7]), encoding="utf-8")
    shutil.copy(FIXTURES / "comments.html", tmp_path / "b.html")
    return tmp_path


def texts_of(page: Path) -> list[str]:
    return parse(page.read_bytes()).texts


def test_block_keys_follow_text_and_feature_version():
    assert label_files.block_key("Some text") == label_files.block_key("Some text")
    assert label_files.block_key("Some text") != label_files.block_key("Some text.")
    assert label_files.block_key("Some text") != label_files.block_key("Some text", FEATURE_VERSION + 1)
    assert re.fullmatch(r"[0-9a-f]{24}", label_files.block_key("x"))


def test_label_files_round_trip_and_refuse_garbage(tmp_path):
    page = tmp_path / "p.html"
    page.write_bytes((FIXTURES / "article1.html").read_bytes())
    texts = parse(page.read_bytes()).texts
    keys = [label_files.block_key(t) for t in texts]
    written = label_files.write(page, {keys[0]: True, keys[1]: False})
    assert written == tmp_path / "p.labels.json" and sorted(os.listdir(tmp_path)) == ["p.html", "p.labels.json"]
    saved = label_files.read(page)
    assert saved.current and saved.labels == {keys[0]: True, keys[1]: False}
    y, covered = saved.block_labels(texts)
    assert covered.tolist() == [True, True] + [False] * (len(texts) - 2) and y[:2].tolist() == [True, False]
    written.write_text('{"format": "something else"}')
    with pytest.raises(ConfigError, match=r"p\.labels\.json"):
        label_files.read(page)
    written.write_text("{not json")
    with pytest.raises(ConfigError, match="not JSON"):
        label_files.read(page)


def test_writing_replaces_a_symlink_instead_of_writing_through_it(tmp_path):
    target = tmp_path / "elsewhere.txt"
    target.write_text("untouched")
    page = tmp_path / "p.html"
    page.write_text("<p>x</p>")
    (tmp_path / "p.labels.json").symlink_to(target)
    label_files.write(page, {})
    assert target.read_text() == "untouched" and not (tmp_path / "p.labels.json").is_symlink()


def test_hand_labels_win_over_gold_block_by_block(folder):
    texts = texts_of(folder / "a.html")
    gold = gold_labels(parse((folder / "a.html").read_bytes()), (folder / "a.txt").read_text())
    paragraph = next(i for i, t in enumerate(texts) if t.startswith(PARAGRAPH))
    menu = texts.index("News")
    assert gold[paragraph] and not gold[menu]
    label_files.write(
        folder / "a.html", {label_files.block_key(texts[paragraph]): False, label_files.block_key("News"): True}
    )
    data = load_set(folder, quiet=True)
    assert [p.name for p in data.pages] == ["a"]  # b has neither gold nor labels
    page = data.blocks[0]
    expected = gold.copy()
    expected[paragraph], expected[menu] = False, True
    assert page.y.tolist() == expected.tolist()
    assert (page.weight > 0).all() and page.weight.sum() == pytest.approx(1.0)
    assert data.hand_labelled == 1


def test_a_page_with_only_hand_labels_trains_on_its_labelled_blocks(folder):
    texts = texts_of(folder / "b.html")
    chosen = {0: False, 5: True, 7: True}
    label_files.write(folder / "b.html", {label_files.block_key(texts[i]): v for i, v in chosen.items()})
    data = load_set(folder, quiet=True)
    assert [p.name for p in data.pages] == ["a", "b"] and data.pages[1].gold == ""
    page = data.blocks[1]
    known = np.flatnonzero(page.weight > 0).tolist()
    assert known == sorted(chosen) and page.y[known].tolist() == [chosen[i] for i in known]
    assert page.weight.sum() == pytest.approx(1.0)


def test_labels_of_another_feature_version_are_not_used(folder):
    texts = texts_of(folder / "a.html")
    paragraph = next(i for i, t in enumerate(texts) if t.startswith(PARAGRAPH))
    path = label_files.write(folder / "a.html", {label_files.block_key(texts[paragraph]): False})
    stale = json.loads(path.read_text())
    stale["feature_version"] = FEATURE_VERSION - 1
    stale["labels"] = {label_files.block_key(texts[paragraph], FEATURE_VERSION - 1): False}
    path.write_text(json.dumps(stale))
    data = load_set(folder, quiet=True)
    assert data.blocks[0].y[paragraph] and data.hand_labelled == 0


def test_a_broken_label_file_is_a_clear_error(folder):
    label_files.labels_path(folder / "a.html").write_text("[1, 2]")
    with pytest.raises(ConfigError, match=r"a\.labels\.json is not a scrapy-bte label file"):
        load_set(folder, quiet=True)


def test_train_command_records_hand_labels(folder, tmp_path, capsys):
    texts = texts_of(folder / "b.html")
    label_files.write(folder / "b.html", {label_files.block_key(t): i in (5, 6, 7, 8) for i, t in enumerate(texts)})
    out = tmp_path / "model" / "site.npz"
    assert main(["train", "--data", str(folder), "-o", str(out), "--epochs", "3", "-q"]) == 0
    assert "hand labels (<id>.labels.json of 1 page), then gold text" in capsys.readouterr().out
    meta = json.loads(out.with_suffix(".json").read_text())
    assert meta["training_sets"][0]["hand_labelled_pages"] == 1 and meta["training_sets"][0]["labelled_pages"] == 2
    assert main(["extract", "--model", str(out), str(folder / "b.html")]) in (0, 3)
