"""Episode ids and area slugs can never leave the output folder (see also tests/fuzz)."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest
from click.testing import CliRunner
from publish_fakes import make_episode

from mergecast.cli import main
from mergecast.errors import PublishError
from mergecast.publish.paths import area_slugs, check_episode_id, safe_join, slugify
from mergecast.store import Store

ESCAPES = ["..", "../x", "a/../../b", "/etc/passwd", "//host/share", "C:\\x", "a\\..\\b",
           "\u2025", "\uff0e\uff0e", "\u2024\u2024/x", "..\u2215x", "x\x00y", " x", "-rf", "~",
           "", ".", ".hidden/../..", "%2e%2e"]


@pytest.mark.parametrize("part", ESCAPES)
def test_safe_join_refuses_anything_but_plain_segments(part: str, tmp_path: Path) -> None:
    with pytest.raises(PublishError, match="is not a plain ASCII name"):
        safe_join(tmp_path, "episodes", part)


def test_safe_join_allows_plain_names(tmp_path: Path) -> None:
    assert safe_join(tmp_path, "episodes", "2026-08-11", "index.html") == (
        tmp_path / "episodes" / "2026-08-11" / "index.html")


@pytest.mark.parametrize("episode_id", [
    "../2026-08-11", "2026-08-11/..", "/2026-08-11", "2026-08-11\n", "２０２６-０８-１１",
    "\u0662\u0660\u0662\u0666-08-11", "2026-W1", "2026-w01", "2026-08-11 ", "2026\u200b-08-11"])
def test_episode_ids_must_be_ascii_dates_or_weeks(episode_id: str) -> None:
    with pytest.raises(PublishError, match="expected an episode id as YYYY-MM-DD or YYYY-Www"):
        check_episode_id(episode_id)


def test_area_slugs_from_hostile_labels_are_plain_and_distinct() -> None:
    names = ["../../../etc/passwd", "/abs/path", "\u2025\u2215\u2025\u2215evil", "CON",
             "\uff0e\uff0e\uff0fdots", "<script>x</script>", "Dynamo", "dynamo", "..", ""]
    slugs = area_slugs(names)
    assert len(set(slugs.values())) == len(names)
    for slug in slugs.values():
        assert safe_join(Path("/out"), "areas", slug).parent == Path("/out/areas")
    assert slugify("../../../etc/passwd") == "etc-passwd"
    assert slugify("\uff24\uff59\uff4e\uff41\uff4d\uff4f") == "dynamo"  # full-width folds


def test_publish_refuses_a_hostile_episode_id_from_the_store(tmp_path: Path) -> None:
    db = tmp_path / "state" / "x.db"
    with Store(db) as store:
        store.save_episode(make_episode("2026-03-02"))
        store.save_episode(dataclasses.replace(make_episode("2026-03-03"), id="../../evil"))
    out = tmp_path / "out" / "site"
    result = CliRunner().invoke(main, ["--db", str(db), "publish", "--out", str(out)])
    assert result.exit_code != 0
    assert "'../../evil'" in result.output and "expected an episode id" in result.output
    assert not out.exists() and not (tmp_path / "evil").exists()
    assert list((tmp_path / "out").glob("*")) == []  # nothing: its lock is kept with the store
