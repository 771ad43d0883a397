"""The explain report and the labelling page in real headless Chromium (Debian's, driven by selenium).

Skipped, with the reason, where Chromium or its driver is missing; in CI
(``CI`` set) a missing browser fails instead, since ``.ci/run`` installs it.
"""

from __future__ import annotations

import os
import shutil
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from scrapy_bte.api import parse
from scrapy_bte.explain.collect import explain
from scrapy_bte.explain.commands import model_guess
from scrapy_bte.explain.label_server import LabelServer
from scrapy_bte.explain.render import render
from scrapy_bte.training import label_files

FIXTURES = Path(__file__).resolve().parent / "fixtures"
CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"


HOSTILE = b"""<!DOCTYPE html><html><head><title>A page </title><script>window.pwned = 1</script></title></head>
<body><nav><a href="/">Home</a> <a href="/about">About</a></nav><article>
<p>The council met on Tuesday &lt;script&gt;window.pwned = 3&lt;/script&gt; to discuss the harbour wall,
which the storms of last winter damaged in three places along the eastern pier.</p>
<p>Engineers said &lt;img src=x onerror="window.pwned = 4"&gt; that the repairs would take the summer,
and that the quay would stay closed to cars while the new stones are laid.</p>
</article><footer><ul><li><a href="/p">Privacy</a></li><li><a href="/t">Terms of use</a></li>
<li><a href="/c">Contact</a></li><li><a href="/j">Jobs</a></li></ul></footer></body></html>"""


def _missing() -> str | None:
    try:
        import selenium  # noqa: F401
    except ImportError:
        return "selenium is not installed (pip install -e '.[test]')"
    for path in (CHROMIUM, CHROMEDRIVER):
        if not os.access(path, os.X_OK):
            return f"{path} not found (apt-get install chromium chromium-driver)"
    return None


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    missing = _missing()
    if missing:
        if os.environ.get("CI"):
            pytest.fail(f"browser tests cannot run in CI: {missing}")
        pytest.skip(missing)
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    profile = tempfile.mkdtemp(prefix="bte-chromium-")
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for arg in (
        "--headless=new",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
        "--disable-dev-shm-usage",
        f"--user-data-dir={profile}",
        "--window-size=1280,900",
    ):
        options.add_argument(arg)
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    driver.set_page_load_timeout(20)
    try:
        yield driver
    finally:
        driver.quit()
        shutil.rmtree(profile, ignore_errors=True)


def wait_for(check: Callable[[], Any], timeout: float = 5.0) -> Any:
    deadline = time.monotonic() + timeout
    while True:
        value = check()
        if value or time.monotonic() > deadline:
            return value
        time.sleep(0.05)


def no_alert(driver: Any) -> bool:
    from selenium.common.exceptions import NoAlertPresentException

    try:
        _ = driver.switch_to.alert
    except NoAlertPresentException:
        return True
    return False


def test_report_shows_hostile_text_and_runs_nothing(browser, tmp_path):
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.by import By

    report = tmp_path / "report.html"
    report.write_text(render(explain(HOSTILE, "hostile.html")), encoding="utf-8")
    browser.get(report.as_uri())
    assert browser.execute_script("return typeof window.pwned") == "undefined" and no_alert(browser)
    blocks = browser.find_elements(By.CSS_SELECTOR, "li.block")
    texts = [b.text for b in blocks]
    assert any("<script>window.pwned = 3</script>" in t for t in texts)
    assert any('<img src=x onerror="window.pwned = 4">' in t for t in texts)
    # The style sheet, allowed by its hash, applies: kept and dropped differ, hover outlines a block.
    kept = browser.find_element(By.CSS_SELECTOR, "li.block.kept")
    dropped = browser.find_element(By.CSS_SELECTOR, "li.block.dropped")
    colour = "return getComputedStyle(arguments[0]).backgroundColor"
    assert browser.execute_script(colour, kept) != browser.execute_script(colour, dropped)
    ActionChains(browser).move_to_element(kept).perform()
    assert browser.execute_script("return getComputedStyle(arguments[0]).outlineStyle", kept) == "solid"
    assert "density" in kept.get_attribute("title") and "by " in kept.get_attribute("title")
    assert len(browser.find_elements(By.CSS_SELECTOR, "#figures svg")) == 3
    drawn = "return arguments[0].getBoundingClientRect().width"
    assert browser.execute_script(drawn, browser.find_element(By.CSS_SELECTOR, "svg line.threshold")) > 100
    assert browser.execute_script(drawn, browser.find_element(By.CSS_SELECTOR, "svg rect.span")) > 10

    # The policy holds even if markup slipped through the escaping.
    injected = tmp_path / "injected.html"
    injected.write_text(
        report.read_text(encoding="utf-8").replace(
            "<body>", '<body><script>window.pwned = 9</script><img src="x" onerror="window.pwned = 10">', 1
        ),
        encoding="utf-8",
    )
    browser.get(injected.as_uri())
    assert browser.execute_script("return typeof window.pwned") == "undefined" and no_alert(browser)


LONG_URL = (
    "https://news.example.com/" + "section/sub-section-with-a-long-name/" * 6 + "lead-image-" + "x" * 120 + ".jpg"
)


def test_report_wraps_long_values_at_1300_px(browser, tmp_path):
    from selenium.webdriver.common.by import By

    page = (
        (FIXTURES / "comments.html")
        .read_bytes()
        .replace(
            b"<head>",
            f'<head><meta property="og:image" content="{LONG_URL}"><link rel="canonical" href="{LONG_URL}">'.encode(),
            1,
        )
    )
    report = tmp_path / "report.html"
    report.write_text(render(explain(page, LONG_URL)), encoding="utf-8")
    browser.set_window_size(1300, 900)
    try:
        browser.get(report.as_uri())
        viewport = browser.execute_script("return document.documentElement.clientWidth")
        assert browser.execute_script("return document.documentElement.scrollWidth") <= viewport
        fields = browser.find_element(By.ID, "fields")
        assert LONG_URL in fields.text.replace("\n", "")  # shown whole, over several lines
        right = "return arguments[0].getBoundingClientRect().right"
        column = browser.execute_script("return arguments[0].parentElement", fields)
        assert browser.execute_script(right, fields) <= browser.execute_script(right, column) + 1
        heading = browser.find_element(By.CSS_SELECTOR, "header h1")
        assert browser.execute_script(right, heading) <= viewport
        if os.environ.get("BTE_SCREENSHOT"):  # a picture to look at: BTE_SCREENSHOT=/tmp/wrap.png
            browser.save_screenshot(os.environ["BTE_SCREENSHOT"])
    finally:
        browser.set_window_size(1280, 900)


def test_labelling_page_by_click_and_keyboard(browser, tmp_path):
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.by import By

    folder = tmp_path / "pages"
    folder.mkdir()
    shutil.copy(FIXTURES / "article1.html", folder / "a.html")
    shutil.copy(FIXTURES / "comments.html", folder / "b.html")
    server = LabelServer(folder, model_guess("auto"), 0, quiet=True)
    server.start()
    try:
        browser.get(server.url)
        assert browser.find_element(By.ID, "progress-text").text == "0 of 2 pages labelled"
        browser.find_element(By.ID, "start").click()
        assert wait_for(lambda: browser.current_url.endswith("/page/a.html"))
        blocks = browser.find_elements(By.CSS_SELECTOR, "li.block")
        texts = parse((folder / "a.html").read_bytes()).texts
        assert [b.text for b in blocks] == texts
        guess = [b.get_attribute("class").split()[-1] == "keep" for b in blocks]
        paragraph = next(i for i, t in enumerate(texts) if t.startswith("Biologists counting tracks"))
        assert guess[paragraph] and not guess[0] and not guess[1]

        blocks[0].click()  # a click toggles the menu block to keep
        keys = ActionChains(browser)
        keys.send_keys("j", "x")  # next block, toggle: keep
        keys.send_keys("j" * (paragraph - 1), "d")  # down to the paragraph, drop it
        keys.send_keys("s").perform()
        status = browser.find_element(By.ID, "status")
        assert wait_for(lambda: status.text.startswith("saved")), status.text
        assert browser.find_element(By.ID, "progress-text").text == "1 of 2 pages labelled"

        expected = dict(enumerate(guess)) | {0: True, 1: True, paragraph: False}
        saved = label_files.read(folder / "a.html")
        assert saved.labels == {label_files.block_key(t): expected[i] for i, t in enumerate(texts)}
        assert sorted(p.name for p in folder.iterdir()) == ["a.html", "a.labels.json", "b.html"]

        ActionChains(browser).send_keys("n").perform()  # save again and go on
        assert wait_for(lambda: browser.current_url.endswith("/page/b.html"))
        assert "the model's guess" in browser.find_element(By.ID, "status").text
        assert browser.find_element(By.ID, "progress-text").text == "1 of 2 pages labelled"
    finally:
        server.stop()
