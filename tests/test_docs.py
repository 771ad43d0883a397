"""The documentation matches the code: generated blocks, field descriptions, the README's commands.

``docs/gen.py`` writes the generated blocks (tables from the code, examples
from real command output); here each block in README.md and docs/ must equal
what it writes now, so a new setting, a new field or a changed output fails
until ``python docs/gen.py`` is run. The example crawl's item is checked in
``tests/test_example_project.py``, which runs that crawl anyway.
"""

from __future__ import annotations

import dataclasses
import importlib.util
import re
import shlex
from pathlib import Path

import pytest

from scrapy_bte.fields.record import FIELD_NAMES
from scrapy_bte.result import Extraction

ROOT = Path(__file__).resolve().parent.parent
_spec = importlib.util.spec_from_file_location("docs_gen", ROOT / "docs" / "gen.py")
assert _spec is not None and _spec.loader is not None
gen = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(gen)

FAST_BLOCKS = [(name, path) for name, (paths, _) in gen.BLOCKS.items() if name not in gen.SLOW_BLOCKS for path in paths]


@pytest.fixture(scope="module")
def generated() -> dict[str, str]:
    return {name: gen.BLOCKS[name][1]() for name in {name for name, _ in FAST_BLOCKS}}


@pytest.mark.parametrize(("name", "path"), FAST_BLOCKS, ids=[f"{p}:{n}" for n, p in FAST_BLOCKS])
def test_generated_block_matches_the_code(generated: dict[str, str], name: str, path: str) -> None:
    assert gen.current(path, name) == generated[name], f"{path}: {name} is out of date; run python docs/gen.py"


def test_every_result_attribute_and_article_field_is_described() -> None:
    attributes = {name for name, _ in gen.extraction_attributes()}
    assert {field.name for field in dataclasses.fields(Extraction)} | {"fingerprint"} <= attributes
    undescribed = attributes - set(gen.EXTRACTION_DOCS) - set(FIELD_NAMES)
    assert not undescribed, f"add them to EXTRACTION_DOCS in docs/gen.py: {sorted(undescribed)}"
    assert set(gen.ARTICLE_FIELD_DOCS) == set(FIELD_NAMES)
    table = gen.extraction_table()
    assert all(f"| `{name}` |" in table for name in attributes)


def test_settings_table_has_every_setting_once() -> None:
    from scrapy_bte.crawl.settings import SETTINGS

    table = gen.current("docs/settings.md", "settings")
    for spec in SETTINGS:
        assert table.count(f"| `{spec.name}` |") == 1


def test_every_component_path_in_the_docs_loads_its_class() -> None:
    """A path to an add-on component that the README, docs/, the example project or the changelog gives works."""
    from scrapy.utils.misc import load_object

    import scrapy_bte

    names = ("Addon", "BTEDownloaderMiddleware", "BTESpiderMiddleware", "BTEItemPipeline")
    pattern = re.compile(rf"scrapy_bte(?:\.\w+)*\.(?:{'|'.join(names)})\b")
    files = [ROOT / "README.md", ROOT / "CHANGELOG.md", *(ROOT / "docs").glob("*.md")]
    files += (ROOT / "example_project").rglob("*.py")
    found = {match.group(0) for path in files for match in pattern.finditer(path.read_text(encoding="utf-8"))}
    assert {f"scrapy_bte.{name}" for name in names} <= found
    for path in sorted(found):
        assert load_object(path) is getattr(scrapy_bte, path.rpartition(".")[2]), path


def _commands(markdown: str) -> list[str]:
    return re.findall(r"```bash\n(.*?)\n```", markdown, re.S)


def test_readme_commands_work_in_sequence_and_match_ci() -> None:
    first, second = _commands((ROOT / "README.md").read_text(encoding="utf-8"))[:2]
    # The first command must leave the shell where it started: any cd runs in a subshell.
    top_level = re.sub(r"\([^()]*\)", "", first)
    assert "cd " not in top_level, first
    assert "scrapy crawl news" in first
    # The second is what CI runs: the same extras, then the same test command.
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    install, _, test = second.partition(" && ")
    extras = re.search(r'-e "\.\[([^]]+)\]"', install)
    ci_extras = re.search(r'pip install --quiet -e "\.\[([^]]+)\]"', ci)
    assert extras and ci_extras and extras.group(1) == ci_extras.group(1)
    assert shlex.split(test) == ["python", "-m", "pytest", "-q"]
    assert re.search(r"^python -m pytest -q$", ci, re.M)
    assert "mkdocs build --strict" in ci


@pytest.mark.parametrize("model", ["default", "lists"])
def test_training_docs_give_the_command_each_shipped_block_model_was_trained_with(model: str) -> None:
    """docs/training.md reproduces the shipped block models: its commands are the ones their metadata records."""
    import json

    meta = json.loads((ROOT / "scrapy_bte" / "learned" / "models" / f"{model}.json").read_text(encoding="utf-8"))
    assert meta["command"] in _commands((ROOT / "docs" / "training.md").read_text(encoding="utf-8"))[0].splitlines()


def test_every_docs_page_is_in_the_navigation() -> None:
    nav = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    pages = {path.name for path in (ROOT / "docs").glob("*.md")}
    assert pages == set(re.findall(r"^  - [^:]+: (\S+\.md)$", nav, re.M))
