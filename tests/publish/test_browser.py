"""A real browser (Debian's Chromium via Playwright) plays, seeks and stays un-injected."""

from __future__ import annotations

import datetime as dt
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from publish_fakes import IDENTITY, SHOW, make_episode, series, write_media

from mergecast.publish import publish_site

CHROMIUM = Path("/usr/bin/chromium")
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]

pytestmark = pytest.mark.slow


@pytest.fixture
def served(tmp_path: Path) -> Iterator[str]:
    if not CHROMIUM.exists():
        if os.environ.get("CI"):
            pytest.fail(f"{CHROMIUM} is missing in CI; install the chromium package")
        pytest.skip(f"{CHROMIUM} is not installed (apt-get install chromium)")
    episodes = [*series(4, weekly=False),
                make_episode("2026-03-06", hostile=True, seconds=6.0,
                             areas=("<script>x</script>",))]
    site = tmp_path / "site"
    publish_site(episodes, site, SHOW, identity=IDENTITY, media=write_media(tmp_path / "media", episodes))
    proc = subprocess.Popen(
        [sys.executable, "-u", "-m", "mergecast.cli", "serve", "--out", str(site), "--port", "0"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=tmp_path)
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        assert line.startswith(f"serving {site} at http://127.0.0.1:"), line + proc.stderr.read()
        yield line.split(" at ", 1)[1].split()[0]
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def test_episode_page_plays_seeks_and_stays_inert(served: str, tmp_path: Path) -> None:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=ARGS)
        try:
            page = browser.new_page(viewport={"width": 1000, "height": 1300})
            dialogs: list[str] = []
            page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
            errors: list[str] = []
            page.on("pageerror", lambda e: errors.append(str(e)))
            page.goto(served + "episodes/2026-03-06/", wait_until="load")

            page.wait_for_function(
                "() => { const a = document.getElementById('player');"
                " return a && isFinite(a.duration) && a.duration > 0; }", timeout=15000)
            duration = page.evaluate("document.getElementById('player').duration")
            assert 5.5 < duration < 6.6

            chapter = page.locator(".chapters a.seek").nth(2)
            target = float(chapter.get_attribute("data-start") or "nan")
            assert target > 2
            chapter.click()
            page.wait_for_function(
                f"() => document.getElementById('player').currentTime >= {target - 0.2}",
                timeout=10000)
            assert page.url.endswith("/episodes/2026-03-06/")  # JS seeked; no navigation

            page.locator(".cue[data-start]").nth(1).click()
            page.wait_for_function(
                "() => document.getElementById('player').currentTime < 2.5", timeout=10000)

            injected = page.evaluate("""() => ({
                imgs: document.querySelectorAll('img[src="x"], img[onerror]').length,
                inline: [...document.scripts].filter(
                    s => !s.src && s.type !== 'application/ld+json').length,
                scripts: document.scripts.length,
                pwned: typeof window.pwned,
                handlers: [...document.querySelectorAll('*')].filter(
                    el => [...el.attributes].some(a => a.name.startsWith('on'))).length,
                jsLinks: [...document.links].filter(a => a.protocol === 'javascript:').length,
            })""")
            assert injected == {"imgs": 0, "inline": 0, "scripts": 3, "pwned": "undefined",
                                "handlers": 0, "jsLinks": 0}
            assert 'alert("pwned")' in page.locator("h1").inner_text()
            assert dialogs == [] and errors == []
            page.evaluate("window.scrollTo(0, 0)")
            page.screenshot(path=str(tmp_path / "episode.png"), full_page=True)
            assert (tmp_path / "episode.png").stat().st_size > 10_000
        finally:
            browser.close()


LONG_TITLE = "BaseCheckpointManager learns to resume sharded optimizer state across restarts"
AREAS = [("graph trainer", "RL"), ("GraphTrainer", "rl", "Float8"), ("graphtrainer", "CI"),
         ("Distributed", "Compile", "Docs"), ("Experiments", "MoE", "Tokenizer"),
         ("Data loading", "Checkpointing")]

# Every word of the element on one line: it wrapped at word boundaries (or not at all).
_SPLIT_WORDS = """(sel) => {
  const el = document.querySelector(sel);
  const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
  const chars = [];  // [character, the top of its line] across every text node
  let node;
  while ((node = walker.nextNode())) {
    for (let i = 0; i < node.data.length; i++) {
      const r = document.createRange();
      r.setStart(node, i); r.setEnd(node, i + 1);
      const rect = r.getClientRects()[0];
      chars.push([node.data[i], rect ? Math.round(rect.top) : null]);
    }
  }
  const split = [], lines = new Set();
  let word = [];
  for (const [c, top] of [...chars, [" ", null]]) {
    if (/\\s/.test(c)) {
      const tops = new Set(word.map(w => w[1]).filter(t => t !== null));
      tops.forEach(t => lines.add(t));
      if (tops.size > 1) split.push(word.map(w => w[0]).join(""));
      word = [];
    } else {
      word.push([c, top]);
    }
  }
  return {split, lines: lines.size};
}"""


def test_phone_width_pages_from_disk(tmp_path: Path) -> None:
    if not CHROMIUM.exists():
        pytest.skip(f"{CHROMIUM} is not installed (apt-get install chromium)")
    from playwright.sync_api import sync_playwright

    episodes = [make_episode(dt.date(2026, 3, 2) + dt.timedelta(days=n), areas=AREAS[n % 6],
                             title=LONG_TITLE if n == 7 else None) for n in range(8)]
    site = tmp_path / "site"
    publish_site(episodes, site, SHOW, identity=IDENTITY,
                 media=write_media(tmp_path / "media", episodes))
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=ARGS)
        try:
            page = browser.new_page(viewport={"width": 390, "height": 844})
            page.goto((site / "index.html").as_uri(), wait_until="load")
            assert page.evaluate("document.documentElement.scrollWidth") <= 390
            buttons = page.locator(".show .subscribe a.btn")
            assert buttons.all_inner_texts() == [
                "Apple Podcasts", "Overcast", "Pocket Casts", "Copy feed URL", "RSS", "Share"]
            for box in (b.bounding_box() for b in buttons.all()):
                assert box and box["x"] >= 0 and box["x"] + box["width"] <= 390
                assert box["y"] + box["height"] <= 844  # in the first screen
            first = page.locator(".episodes li").first.bounding_box()
            assert first and first["y"] + 60 < 844  # the list starts in the first screen
            chips = page.locator(".chips li")
            assert chips.count() == 12  # 14 spellings, 12 areas once folded
            assert sum(c.is_visible() for c in chips.all()) == 4
            page.locator("label.all").click()
            assert sum(c.is_visible() for c in chips.all()) == 12
            page.screenshot(path=str(tmp_path / "show-390.png"), full_page=True)
            page.locator(".show a.btn.copy").click()  # copies, or shows the URL to copy
            status = page.locator(".show .status")
            page.wait_for_function("() => document.querySelector('.show .status').textContent")
            assert status.inner_text() in (
                "Feed URL copied: paste it into your podcast app.",
                "https://casts.example.org/widgets/feed.xml")
            assert page.url == (site / "index.html").as_uri()

            page.locator(".episodes h3 a").first.click()
            page.wait_for_load_state("load")
            assert page.url == (site / "episodes" / "2026-03-09" / "index.html").as_uri()
            assert page.locator("h1").inner_text() == LONG_TITLE
            words = page.evaluate(_SPLIT_WORDS, "h1")
            assert words["split"] == [] and words["lines"] >= 2, words
            assert page.evaluate("document.documentElement.scrollWidth") <= 390
            assert page.locator(".episode .subscribe a.btn.app").count() == 3
            assert all(b.is_visible() for b in page.locator(".episode .subscribe a.btn").all())
            page.screenshot(path=str(tmp_path / "episode-390.png"), full_page=True)
            page.locator(".brand").click()
            page.wait_for_load_state("load")
            assert page.url == (site / "index.html").as_uri()

            wide = browser.new_page(viewport={"width": 1280, "height": 900})
            for rel in ("index.html", "episodes/2026-03-09/index.html"):
                wide.goto((site / rel).as_uri(), wait_until="load")
                assert wide.evaluate("document.documentElement.scrollWidth") <= 1280
                wide.screenshot(path=str(tmp_path / f"{rel.replace('/', '-')}-1280.png"))
                if rel == "index.html":  # a wide screen has room for twelve areas
                    assert sum(c.is_visible() for c in wide.locator(".chips li").all()) == 12
        finally:
            browser.close()


HOSTILE_CORPUS = Path(__file__).resolve().parents[1] / "data" / "hostile" / "prs.json"


def _serve(site: Path, cwd: Path) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-u", "-m", "mergecast.cli", "serve", "--out", str(site), "--port", "0"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=cwd)


def test_pipeline_page_from_the_hostile_corpus_stays_inert(tmp_path: Path) -> None:
    if not CHROMIUM.exists():
        pytest.skip(f"{CHROMIUM} is not installed (apt-get install chromium)")
    from playwright.sync_api import sync_playwright

    site = tmp_path / "site"
    built = subprocess.run(
        [sys.executable, "-m", "mergecast.cli", "--db", str(tmp_path / "x.db"), "run",
         "--gh-json", str(HOSTILE_CORPUS), "--repo-name", "o/r", "--date", "2026-08-11",
         "--out", str(site), "--voice", "none"],
        capture_output=True, text=True, cwd=tmp_path, timeout=300, check=False)
    assert built.returncode == 0, built.stderr
    areas = sorted(p.parent.name for p in (site / "areas").glob("*/feed.xml"))
    proc = _serve(site, tmp_path)
    try:
        assert proc.stdout is not None
        base = proc.stdout.readline().split(" at ", 1)[1].split()[0]
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=ARGS)
            try:
                page = browser.new_page()
                dialogs: list[str] = []
                page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
                urls = [base, base + "episodes/2026-08-11/"]
                urls += [base + f"areas/{a}/" for a in areas
                         if (site / "areas" / a / "index.html").exists()]
                for url in urls:
                    page.goto(url, wait_until="load")
                    page.wait_for_timeout(200)  # let any injected onload/onerror fire
                    injected = page.evaluate("""() => ({
                        foreign: document.querySelectorAll(
                            'iframe, svg, object, embed, img[src="x"], img[onerror]').length,
                        inline: [...document.scripts].filter(
                            s => !s.src && s.type !== 'application/ld+json').length,
                        handlers: [...document.querySelectorAll('*')].filter(
                            el => [...el.attributes].some(a => a.name.startsWith('on'))).length,
                        jsLinks: [...document.querySelectorAll('[href], [src]')].filter(
                            el => /^\\s*(javascript|data):/i.test(
                                el.getAttribute('href') || el.getAttribute('src') || '')).length,
                    })""")
                    assert injected == {"foreign": 0, "inline": 0, "handlers": 0,
                                        "jsLinks": 0}, url
                assert dialogs == []
                text = page.goto(base + "episodes/2026-08-11/") and page.inner_text("body")
                assert "alert" in text  # the hostile text is shown, as text
            finally:
                browser.close()
    finally:
        proc.terminate()
        proc.wait(timeout=10)
