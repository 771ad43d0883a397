"""Take the README's screenshots of the explain report and the labelling page.

    python docs/screenshots.py

Uses the same headless Chromium as the browser tests (Debian's ``chromium``
and ``chromium-driver``) on the bundled sample article, and writes
``docs/explain-report.png`` and ``docs/label-page.png``.
"""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By

from scrapy_bte.explain.collect import explain
from scrapy_bte.explain.commands import model_guess
from scrapy_bte.explain.label_server import LabelServer
from scrapy_bte.explain.render import render

DOCS = Path(__file__).resolve().parent
SAMPLE = DOCS.parent / "scrapy_bte" / "samples" / "article.html"


def browser(profile: str, width: int, height: int) -> webdriver.Chrome:
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for arg in (
        "--headless=new",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
        "--hide-scrollbars",
        f"--user-data-dir={profile}",
        f"--window-size={width},{height}",
    ):
        options.add_argument(arg)
    return webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)


def main() -> None:
    work = Path(tempfile.mkdtemp(prefix="bte-shots-"))
    try:
        report = work / "report.html"
        report.write_text(render(explain(SAMPLE.read_bytes(), SAMPLE.name)), encoding="utf-8")
        driver = browser(str(work / "profile-report"), 1400, 1500)
        try:
            driver.get(report.as_uri())
            driver.save_screenshot(str(DOCS / "explain-report.png"))
        finally:
            driver.quit()

        pages = work / "pages"
        pages.mkdir()
        shutil.copy(SAMPLE, pages / "article.html")
        server = LabelServer(pages, model_guess(), 0, quiet=True)
        server.start()
        driver = browser(str(work / "profile-label"), 1100, 900)
        try:
            driver.get(server.url + "page/article.html")
            blocks = driver.find_elements(By.CSS_SELECTOR, "li.block")
            ActionChains(driver).send_keys("j" * min(3, len(blocks) - 1)).perform()
            driver.save_screenshot(str(DOCS / "label-page.png"))
        finally:
            driver.quit()
            server.stop()
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print(f"wrote {DOCS / 'explain-report.png'} and {DOCS / 'label-page.png'}")


if __name__ == "__main__":
    main()
