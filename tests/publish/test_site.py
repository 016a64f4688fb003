"""The site: layout, page content, hostile text, safe paths, incremental publishing."""

from __future__ import annotations

import dataclasses
import datetime as dt
import json
import re
import xml.etree.ElementTree as ET
from html.parser import HTMLParser
from pathlib import Path

import feedparser
import pytest
from publish_fakes import HOSTILE_CLEAN, IDENTITY, SHOW, make_episode, series, write_media

from mergecast.errors import PublishError
from mergecast.models import Developer, Duplicate, Episode, LedgerEntry, Section, Sentence
from mergecast.publish import publish_site
from mergecast.publish.paths import area_slugs, safe_join, slugify


def _publish(tmp_path: Path, episodes: list[Episode]) -> Path:
    publish_site(episodes, tmp_path / "site", SHOW, identity=IDENTITY, media=write_media(tmp_path / "media", episodes))
    return tmp_path / "site"


class _Page(HTMLParser):
    """Collects what a browser would build: elements, attributes, script bodies, text."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.scripts: list[str] = []
        self.text: list[str] = []
        self._in_script = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))
        self._in_script = tag == "script"

    def handle_endtag(self, tag: str) -> None:
        self._in_script = False

    def handle_data(self, data: str) -> None:
        (self.scripts if self._in_script else self.text).append(data)


def _parse(path: Path) -> _Page:
    page = _Page()
    page.feed(path.read_text(encoding="utf-8"))
    return page


def test_layout_and_episode_files(tmp_path: Path) -> None:
    episodes = series(7) + [make_episode("2026-03-09", audio=False)]
    site = _publish(tmp_path, episodes)
    for rel in ("index.html", "feed.xml", "weekly/feed.xml", "areas/dynamo/feed.xml",
                "sitemap.xml", "cover.png", "assets/style.css", "assets/player.js"):
        assert (site / rel).is_file(), rel
    for ep in episodes:
        folder = site / "episodes" / ep.id
        names = {"index.html", "transcript.vtt", "chapters.json", "episode.json"}
        assert names | ({"episode.mp3"} if ep.audio.audio_bytes else set()) == {
            p.name for p in folder.iterdir()}
    data = json.loads((site / "episodes/2026-03-04/episode.json").read_text())
    assert data["title"] == "Widgets news for 2026-03-04"
    assert data["sections"][2]["cites"] == [101, 102, 103, 104]
    assert (data["duration_seconds"], data["duration_iso"]) == (170.0, "PT2M50S")
    assert data["audio_bytes"] == (site / "episodes/2026-03-04/episode.mp3").stat().st_size
    assert data["published_at"] == "2026-03-04T13:00:00+00:00"
    assert data["url"] == "https://casts.example.org/widgets/episodes/2026-03-04/"
    text_only = json.loads((site / "episodes/2026-03-09/episode.json").read_text())
    assert text_only["audio_bytes"] is None
    chapters = json.loads((site / "episodes/2026-03-04/chapters.json").read_text())
    assert chapters["version"] == "1.2.0" and chapters["chapters"][1]["title"] == "The signal"
    vtt = (site / "episodes/2026-03-04/transcript.vtt").read_text()
    assert vtt.startswith("WEBVTT\n\n1\n00:00:00.000 --> 00:00:28.283\n<v Host>Good day")
    locs = [el.text for el in ET.parse(site / "sitemap.xml").getroot().iter(
        "{http://www.sitemaps.org/schemas/sitemap/0.9}loc")]
    assert locs[0] == SHOW.base_url and len(locs) == len(episodes) + 1


def test_episode_page_says_everything_the_issue_lists(tmp_path: Path) -> None:
    episodes = series(14)
    site = _publish(tmp_path, episodes)
    html = (site / "episodes/2026-03-08/index.html").read_text()
    page = _parse(site / "episodes/2026-03-08/index.html")
    text = " ".join(" ".join(page.text).split())
    assert '<html lang="en">' in html
    assert "Widgets news for 2026-03-08" in text and "8 March 2026" in text
    assert "2 min 50 s" in text
    assert ("This episode is a short developer briefing from Widgets. It explains recent "
            "repository work in plain language.") in text
    assert '<audio id="player" controls preload="metadata" src="episode.mp3">' in html
    seeks = [a for t, a in page.tags if t == "a" and "seek" in (a.get("class") or "")]
    assert [a["href"] for a in seeks][:4] == [  # the chapters, then section headings
        "episode.mp3#t=0.00", "episode.mp3#t=28.33", "episode.mp3#t=85.00",
        "episode.mp3#t=141.67"]
    assert [a["data-start"] for a in seeks][4:] == ["28.33", "85.00", "141.67"]
    hrefs = {a.get("href") for t, a in page.tags if t == "a"}
    assert {f"https://github.com/acme/widgets/pull/{n}" for n in range(101, 106)} <= hrefs
    cues = [a for t, a in page.tags if t == "span" and a.get("class") == "cue"]
    assert len(cues) == 6 and all("data-start" in c for c in cues)
    # Nearby: the eight closest by date, weekly recap included (published the same Sunday),
    # newest first; 03-04 and 03-12 are equally far, the earlier one wins.
    nearby = html.split('id="nearby-h"')[1]
    listed = re.findall(r'href="\.\./([^/]+)/index.html"', nearby)
    assert listed == ["2026-03-11", "2026-03-10", "2026-03-09", "2026-W10",
                      "2026-03-07", "2026-03-06", "2026-03-05", "2026-03-04"]
    meta = {a.get("name") or a.get("property"): a.get("content") for t, a in page.tags
            if t == "meta"}
    assert meta["description"] == episodes[6].script.summary
    assert meta["og:title"] == "Widgets news for 2026-03-08"
    assert meta["og:audio"] == "https://casts.example.org/widgets/episodes/2026-03-08/episode.mp3"
    ld = json.loads(page.scripts[0])
    assert ld["@type"] == "PodcastEpisode"
    assert ld["description"] == episodes[6].script.summary
    assert ld["timeRequired"] == "PT2M50S"
    assert ld["abstract"].startswith("Good day, and welcome to Widgets for 2026-03-08. "
                                     "The signal today is speed.… First theme:")


def test_hostile_text_is_inert_in_pages_and_feeds(tmp_path: Path) -> None:
    bad = make_episode("2026-03-05", hostile=True, areas=("<script>x</script>", "../../etc"))
    episodes = [*series(3, weekly=False), bad]
    site = _publish(tmp_path, episodes)
    for rel in ("episodes/2026-03-05/index.html", "index.html", "episodes/2026-03-04/index.html"):
        html = (site / rel).read_text()
        page = _parse(site / rel)
        assert not {t for t, _ in page.tags} & {"iframe", "object", "svg"}, rel
        assert [a["src"] for t, a in page.tags if t == "img"] in (
            ["cover.png"], ["../../cover.png"]), rel
        assert [a.get("src") for t, a in page.tags if t == "script" and a.get("src")] in (
            ["assets/site.js"], ["../../assets/site.js", "../../assets/player.js"])
        assert len([t for t, _ in page.tags if t == "script"]) <= 3
        for forbidden in ("\x00", "\x01", "\u202e", "\u200b", "\ufeff", "javascript:",
                          "<img src=x"):
            assert forbidden not in html, (rel, forbidden)
        assert all(not k.startswith("on") for _, a in page.tags for k in a), rel
    html = (site / "episodes/2026-03-05/index.html").read_text()
    page = _parse(site / "episodes/2026-03-05/index.html")
    assert "&lt;script&gt;alert(&#34;pwned&#34;)&lt;/script&gt;" in html
    assert HOSTILE_CLEAN in " ".join(page.text)
    ld_raw = page.scripts[0]
    assert "</" not in ld_raw and "<!--" not in ld_raw
    assert json.loads(ld_raw)["name"] == f"Widgets news for 2026-03-05 {HOSTILE_CLEAN}"
    hrefs = [a.get("href") for t, a in page.tags if t == "a"]
    assert "https://github.com/acme/widgets/pull/105" not in hrefs  # its URL was javascript:
    for rel in ("feed.xml", "areas/script-x-script/feed.xml", "areas/etc/feed.xml",
                "sitemap.xml"):
        ET.parse(site / rel)  # well-formed XML 1.0
    parsed = feedparser.parse((site / "feed.xml").read_bytes())
    assert parsed.bozo == 0
    entry = next(e for e in parsed.entries if "2026-03-05" in e.link)
    assert entry.title == f"Widgets news for 2026-03-05 {HOSTILE_CLEAN}"
    assert "<script>" not in entry.description  # sanitised by feedparser *and* escaped by us
    assert "&lt;script&gt;" in (site / "feed.xml").read_text()
    vtt = (site / "episodes/2026-03-05/transcript.vtt").read_text()
    assert "<script>" not in vtt and "\x00" not in vtt and "&lt;script&gt;" in vtt
    assert not (tmp_path / "etc").exists() and (site / "areas/etc/feed.xml").is_file()


def test_paths_cannot_escape_the_site(tmp_path: Path) -> None:
    for bad in ("../../x", "/etc/passwd", "2026-03-0\u0661", "２０２６-03-01", "2026-03-01/../.."):
        ep = dataclasses.replace(make_episode("2026-03-01"), id=bad)
        with pytest.raises(PublishError, match="expected an episode id as YYYY-MM-DD or YYYY-Www"):
            publish_site([ep], tmp_path / "site", SHOW, identity=IDENTITY, media=lambda i: tmp_path)
    assert not (tmp_path / "site").exists()
    assert list(tmp_path.iterdir()) == []
    with pytest.raises(PublishError, match="is not a plain ASCII name"):
        safe_join(tmp_path, "episodes", "..")
    assert slugify("../../Dynamo / Inductor") == "dynamo-inductor"
    assert slugify("ＭＰＳ") == "mps"
    assert re.fullmatch(r"area-[0-9a-f]{8}", slugify("编译器"))
    assert len(set(area_slugs(["C++", "C--", "c"]).values())) == 3


def test_refuses_to_replace_a_folder_it_does_not_own(tmp_path: Path) -> None:
    (tmp_path / "site").mkdir()
    (tmp_path / "site" / "thesis.tex").write_text("precious")
    with pytest.raises(PublishError) as err:
        publish_site(series(1), tmp_path / "site", SHOW, identity=IDENTITY, media=lambda i: tmp_path)
    assert str(err.value) == (
        f"{tmp_path / 'site'} is not empty and is not a mergecast site "
        "(no .mergecast-manifest.json); pass --out with a new or empty folder")
    assert (tmp_path / "site" / "thesis.tex").read_text() == "precious"


def test_missing_audio_file_fails_before_touching_the_site(tmp_path: Path) -> None:
    site = _publish(tmp_path, series(2, weekly=False))
    before = (site / "feed.xml").read_bytes()
    new = make_episode("2026-03-04")
    with pytest.raises(PublishError, match=r"episode 2026-03-04 has audio but .* is missing"):
        publish_site([*series(2, weekly=False), new], site, SHOW,
                     identity=IDENTITY, media=lambda i: tmp_path / "nowhere" / i)
    assert (site / "feed.xml").read_bytes() == before
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []


def test_incremental_publish_renders_only_what_changed(tmp_path: Path) -> None:
    episodes = series(20)
    media = write_media(tmp_path / "media", episodes)
    site = tmp_path / "site"
    first = publish_site(episodes, site, SHOW, identity=IDENTITY, media=media)
    assert len(first.rendered) == len(episodes) and first.files_linked == 0
    inode = (site / "episodes/2026-03-03/index.html").stat().st_ino

    again = publish_site(episodes, site, SHOW, identity=IDENTITY, media=media)
    assert again.rendered == ()
    assert (site / "episodes/2026-03-03/index.html").stat().st_ino == inode

    i = next(n for n, e in enumerate(episodes) if e.id == "2026-03-10")
    changed = list(episodes)
    changed[i] = dataclasses.replace(
        episodes[i], script=dataclasses.replace(episodes[i].script, summary="A new summary."))
    report = publish_site(changed, site, SHOW, identity=IDENTITY, media=media)
    assert report.rendered == ("2026-03-10",)
    assert "A new summary." in (site / "episodes/2026-03-10/index.html").read_text()
    assert (site / "episodes/2026-03-03/index.html").stat().st_ino == inode

    newest = make_episode(dt.date(2026, 3, 22))
    grown = [*changed, newest]
    report = publish_site(grown, site, SHOW, identity=IDENTITY, media=write_media(tmp_path / "media", grown))
    # The new page plus the neighbours whose "Nearby episodes" list now includes it.
    assert report.rendered[-1] == "2026-03-22"
    assert 2 <= len(report.rendered) <= 9
    assert "2026-03-03" not in report.rendered
    assert feedparser.parse((site / "feed.xml").read_bytes()).entries[0].title == (
        "Widgets news for 2026-03-22")



def test_weekly_page_links_the_weeks_dailies(tmp_path: Path) -> None:
    days = [make_episode(dt.date(2026, 3, 9) + dt.timedelta(days=n), title=f"Daily <{n}> news")
            for n in range(14)]
    weekly = dataclasses.replace(make_episode("2026-W11"),
                                 related=("2026-03-09", "2026-03-11", "2026-03-01"))
    site = _publish(tmp_path, [*days, weekly])
    page = site / "episodes" / "2026-W11" / "index.html"

    def related_section() -> str:
        html = page.read_text(encoding="utf-8")
        part = html[html.index('id="related-h"'):]
        return part[: part.index("</nav>")]

    section = related_section()
    assert re.search(r"This week(&#39;|')s episodes", section)
    hrefs = re.findall(r'href="([^"]+)"', section)
    assert hrefs == ["../2026-03-09/index.html", "../2026-03-11/index.html"]  # oldest first; unknown ids skipped
    assert "Daily &lt;0&gt; news" in section and "Daily &lt;2&gt; news" in section
    daily = (site / "episodes" / "2026-03-10" / "index.html").read_text(encoding="utf-8")
    assert 'id="related-h"' not in daily

    # 2026-03-09 is too far from the recap to be among its nearby episodes, so only the
    # related list can notice its new title: the recap page must still be rendered again.
    renamed = dataclasses.replace(days[0], script=dataclasses.replace(
        days[0].script, title="Renamed daily"))
    report = publish_site([renamed, *days[1:], weekly], tmp_path / "site", SHOW,
                          identity=IDENTITY, media=write_media(tmp_path / "media", [*days, weekly]))
    assert "2026-W11" in report.rendered
    assert "Renamed daily" in related_section()


def _ledger_episode() -> Episode:
    ep = make_episode("2026-03-02")
    pull = "https://github.com/acme/widgets/pull/"
    ledger = (
        LedgerEntry(101, None, "Faster builds, part 1", f"{pull}101", "Faster builds ", True),
        LedgerEntry(104, None, "Parser <fix>", f"{pull}104", "Faster builds ", True),
        LedgerEntry(None, "3f2a9c1d5e77", "Bump the CI image", None, "CI", False),
        LedgerEntry(120, None, "Docs typo", "javascript:alert(1)", "Docs", False),
    )
    told = Section("duplicates", "Duplicated effort", (
        Sentence("PRs 104 and 120 both fix the same crash.", "Same crash.", (104, 120)),))
    script = dataclasses.replace(ep.script, sections=(*ep.script.sections, told))
    same = Duplicate((104, 120), "both fix issue #99 (the empty-input crash)")
    untold = Duplicate((101, 105), "similar titles")  # found, but not in the episode
    return dataclasses.replace(
        ep, script=script, ledger=ledger,
        credits=(Developer("ada", "https://github.com/ada"), Developer("bob")),
        duplicates=(same, untold, dataclasses.replace(same, prs=(120, 104))))


def test_show_notes_list_every_change_with_coverage_and_duplicates(tmp_path: Path) -> None:
    site = _publish(tmp_path, [_ledger_episode()])
    html = (site / "episodes/2026-03-02/index.html").read_text()
    notes = html[html.index('id="notes-h"'):html.index('id="dup-h"')]
    assert '<p class="coverage">4 changes: 2 told, 2 listed</p>' in notes
    groups = re.findall(r"<h3>(.*?)</h3>", notes)
    assert groups == ["Faster builds ", "CI", "Docs"]
    assert 'href="https://github.com/acme/widgets/pull/101"' in notes
    assert "Parser &lt;fix&gt;" in notes
    assert '<span class="ref">3f2a9c1</span> Bump the CI image' in notes
    assert '<span class="ref">#120</span> Docs typo' in notes  # unsafe URL: not linked
    assert notes.count('class="told"') == 2 and notes.count('class="listed"') == 2
    assert '<a href="https://github.com/ada" rel="nofollow noopener">ada</a>, bob' in notes
    dup = html[html.index('id="dup-h"'):]
    assert re.findall(r"<li>(.*?)</li>", dup) == [
        '<a href="https://github.com/acme/widgets/pull/104" rel="nofollow noopener">#104</a> '
        "and #120: both fix issue #99 (the empty-input crash)"]  # told, once, unsafe URL not linked
    assert 'id="themes-h"' not in html  # the ledger replaces the themes list


def test_pages_label_the_writer_offer_subscribe_buttons_and_work_from_disk(
        tmp_path: Path) -> None:
    long_title = "BaseCheckpointManagerForDistributedTraining resumes sharded state"
    episodes = [*series(2, weekly=False), make_episode("2026-03-04", title=long_title)]
    site = _publish(tmp_path, episodes)
    page = _parse(site / "episodes/2026-03-04/index.html")
    html = (site / "episodes/2026-03-04/index.html").read_text()
    assert ("Written by mergecast&#39;s template writer (no language model) from the "
            "repository&#39;s activity; every fact was checked against that data. Voiced by "
            "the piper neural voice.") in html
    assert "<h1>Base<wbr>Checkpoint<wbr>Manager<wbr>For<wbr>Distributed<wbr>Training resumes" \
        in html
    links = {(a.get("class"), a.get("href")) for t, a in page.tags if t == "a"}
    feed = "https://casts.example.org/widgets/feed.xml"
    assert {("btn app", "podcast://casts.example.org/widgets/feed.xml"),
            ("btn app", "overcast://x-callback-url/add?url="
                        "https%3A%2F%2Fcasts.example.org%2Fwidgets%2Ffeed.xml"),
            ("btn app", "pktc://subscribe/casts.example.org/widgets/feed.xml"),
            ("btn copy", feed), ("btn rssfile", "../../feed.xml"),
            ("btn share", "https://casts.example.org/widgets/episodes/2026-03-04/"),
            ("brand", "../../index.html")} <= links
    assert ("img", {"class": "cover", "src": "../../cover.png", "alt": "Widgets Daily cover art",
                    "width": "72", "height": "72"}) in page.tags
    # Every link between pages names a file, so the site also works opened from disk.
    for rel in ("index.html", "episodes/2026-03-04/index.html"):
        for _, attrs in (x for x in _parse(site / rel).tags if x[0] == "a"):
            href = attrs.get("href") or ""
            if "://" not in href and not href.startswith(("#", "mailto:")):
                target = (site / rel).parent / href.split("#")[0]
                assert target.is_file(), (rel, href)
    index = (site / "index.html").read_text()
    assert index.count("template writer</span>") == 3


def test_show_page_folds_area_spellings_and_keeps_every_feed(tmp_path: Path) -> None:
    spellings = [("graph trainer", "RL"), ("GraphTrainer", "rl"), ("graphtrainer",),
                 ("Graph_Trainer", "C++"), ("C",)]
    episodes = [make_episode(dt.date(2026, 3, 2) + dt.timedelta(days=n), areas=a)
                for n, a in enumerate(spellings)]
    site = _publish(tmp_path, episodes)
    index = (site / "index.html").read_text()
    chips = re.findall(r'<a href="(areas/[^"]+)"[^>]*>([^<]+) <span class="n">(\d+)</span>',
                       index)
    assert chips == [("areas/graph-trainer/feed.xml", "GraphTrainer", "4"),
                     ("areas/rl/feed.xml", "RL", "2"), ("areas/c/feed.xml", "C", "1"),
                     ("areas/c-fc2b42/feed.xml", "C++", "1")]  # as before: "C" had "c"
    # Each spelling's feed from before the folding still answers, with the whole area.
    titles = {e.script.title for e in episodes[:4]}
    feeds = sorted(p.parent.name for p in (site / "areas").glob("graph*/feed.xml"))
    assert feeds == ["graph-trainer", "graph-trainer-4773c6", "graphtrainer", "graphtrainer-c5ffe3"]
    for slug in feeds:
        parsed = feedparser.parse((site / "areas" / slug / "feed.xml").read_bytes())
        assert {e.title for e in parsed.entries} == titles


def test_a_theme_lists_each_pr_once(tmp_path: Path) -> None:
    ep = make_episode("2026-03-02")
    theme = dataclasses.replace(ep.themes[0], prs=(101, 102, 101, 102))
    site = _publish(tmp_path, [dataclasses.replace(ep, themes=(theme,))])
    html = (site / "episodes/2026-03-02/index.html").read_text()
    prs = html[html.index('<p class="prs">'):].split("</p>")[0]
    assert re.findall(r">#(\d+)<", prs) == ["101", "102"]


def test_a_sentence_a_model_worded_is_marked_on_the_page_and_in_episode_json(
        tmp_path: Path) -> None:
    plain = make_episode("2026-03-04")
    script = plain.script
    theme = script.sections[1]
    worded = Sentence("A model worded this one about faster builds.", "A model worded this one.",
                      origin="llm")
    sections = (script.sections[0], dataclasses.replace(theme, sentences=(
        worded, *theme.sentences)), *script.sections[2:])
    episode = dataclasses.replace(plain, script=dataclasses.replace(
        script, sections=sections, writer="llm"))
    site = _publish(tmp_path, [episode])
    html = (site / "episodes/2026-03-04/index.html").read_text()
    marked = re.findall(r'<span class="cue llm" title="([^"]+)"[^>]*>([^<]*)', html)
    assert marked == [("Worded by a language model, checked against the data",
                       "A model worded this one about faster builds.")]
    assert html.count('class="cue"') + 1 == sum(len(s.sentences) for s in sections)
    data = json.loads((site / "episodes/2026-03-04/episode.json").read_text())
    origins = [x["origin"] for s in data["sections"] for x in s["sentences"]]
    assert origins.count("llm") == 1 and set(origins) == {"llm", "template"}
