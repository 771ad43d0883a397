"""SimHash fingerprints and the banded near-duplicate index."""

from __future__ import annotations

import os
import random
import subprocess
import sys

import pytest

from scrapy_bte.core.fingerprint import (
    DEFAULT_DISTANCE,
    MIN_WORDS,
    NearDuplicateIndex,
    distance,
    fingerprint,
    from_hex,
    simhash,
    to_hex,
    word_count,
)

_VOCAB = (
    "harbour council ferry timetable bridge river engineers budget winter repairs volunteers museum "
    "station library school teachers parents survey market farmers weather storm flood road traffic "
    "cyclists report minister hospital nurses patients village festival music theatre fishing boats"
).split()


def story(seed: int, words: int = 400) -> str:
    """A text of sentences drawn from a small vocabulary (seeded, so tests are repeatable)."""
    rng = random.Random(seed)
    sentences = []
    while sum(len(s.split()) for s in sentences) < words:
        sentences.append(" ".join(rng.choice(_VOCAB) for _ in range(rng.randint(8, 18))).capitalize() + ".")
    return "\n".join(" ".join(sentences[i : i + 4]) for i in range(0, len(sentences), 4))


def test_fingerprint_is_sixteen_hex_digits_and_round_trips():
    text = story(1)
    value = simhash(text)
    assert value is not None and 0 <= value < 2**64
    hexed = fingerprint(text)
    assert hexed == to_hex(value) and len(hexed) == 16 and int(hexed, 16) == value
    assert from_hex(hexed) == value
    with pytest.raises(ValueError):
        from_hex("12345678901234567")


def test_fingerprint_ignores_case_punctuation_and_spacing():
    text = story(2)
    assert simhash(text) == simhash(text.upper().replace(".", " !  ,"))


def test_fingerprint_is_the_same_in_another_process_with_another_hash_seed():
    text = story(3)
    code = f"from scrapy_bte.core.fingerprint import fingerprint; print(fingerprint({text!r}))"
    env = {**os.environ, "PYTHONHASHSEED": "12345"}
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == fingerprint(text)


def test_near_duplicates_are_close_and_different_texts_far():
    text = story(4, words=600)
    edited = text.replace("harbour", "harbor", 1)
    footer = text + "\nShare this story with your friends"
    dated = "Updated 12 March 2024, 14:05\n" + text
    base = simhash(text)
    for variant in (edited, footer, dated):
        assert distance(base, simhash(variant)) <= DEFAULT_DISTANCE
    others = [simhash(story(seed, words=600)) for seed in range(10, 30)]
    assert min(distance(base, other) for other in others) > 3 * DEFAULT_DISTANCE


def test_short_and_empty_texts_have_no_fingerprint():
    assert simhash("") is None and fingerprint("") is None
    assert fingerprint("Page not found. Try the search box above.") is None
    assert word_count("one two three") == 3
    # Scripts without spaces: every letter is a word, as the document model counts them.
    chinese = "港口委员会今天批准了修复旧桥的预算工程将在冬季开始"
    assert word_count(chinese) == len(chinese) >= MIN_WORDS
    assert fingerprint(chinese) is not None


@pytest.mark.parametrize("max_distance", [0, 1, 3, 5, 7])
def test_banded_index_finds_what_a_scan_finds(max_distance):
    rng = random.Random(max_distance)
    index = NearDuplicateIndex(max_distance)
    seen: list[int] = []
    for _ in range(1500):
        if seen and rng.random() < 0.4:
            value = rng.choice(seen)
            for bit in rng.sample(range(64), rng.randint(0, max_distance + 2)):
                value ^= 1 << bit
        else:
            value = rng.getrandbits(64)
        expected = any(distance(value, old) <= max_distance for old in seen)
        found = index.check(value)
        assert (found is not None) == expected
        if found is not None:
            assert distance(found, value) <= max_distance
        else:
            seen.append(value)
    assert len(index) == len(seen)


def test_index_refuses_distances_it_cannot_band():
    with pytest.raises(ValueError):
        NearDuplicateIndex(16)


def test_extraction_carries_the_fingerprint_of_its_text():
    from scrapy_bte import Extraction, extract

    html = (
        "<html><body><nav><a href='/'>Home</a></nav><article>"
        + "".join(f"<p>{line}</p>" for line in story(5).splitlines())
        + "</article></body></html>"
    )
    result = extract(html)
    assert result.fingerprint == fingerprint(result.text) is not None
    assert result.to_dict()["fingerprint"] == result.fingerprint
    assert Extraction.from_dict(result.to_dict()) == result
    assert result.scores()["fingerprint"] == result.fingerprint
    assert extract("<p>Too short.</p>").fingerprint is None


def test_the_fingerprint_is_computed_when_first_read_and_a_stored_one_is_kept():
    from scrapy_bte import Extraction, extract

    result = extract("<html><body><article>" + "".join(f"<p>{s}</p>" for s in story(5).splitlines()) + "</article>")
    assert "fingerprint" not in vars(result)  # not computed by extract()
    first = result.fingerprint
    assert vars(result)["fingerprint"] == first == fingerprint(result.text)
    # A record's fingerprint is taken as written (the one computed where the page was read) ...
    record = {**result.to_dict(), "fingerprint": "00000000000000ff"}
    assert Extraction.from_dict(record).fingerprint == "00000000000000ff"
    assert Extraction.from_dict({**record, "fingerprint": None}).fingerprint is None
    # ... and a record without one gets its text's.
    del record["fingerprint"]
    assert Extraction.from_dict(record).fingerprint == first
