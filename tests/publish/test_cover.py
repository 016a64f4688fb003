"""The show's cover: a configured image is published only when it really is a PNG or JPEG."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from click.testing import CliRunner
from PIL import Image
from publish_fakes import make_episode

from mergecast.cli import main
from mergecast.errors import PublishError
from mergecast.publish.cover import cover_suffix, draw_cover
from mergecast.store import Store

FIX = "point it at a 1400×1400 (or larger, square) PNG or JPEG cover image"


def _image(kind: str) -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (1400, 1400), (200, 30, 30)).save(out, format=kind)
    return out.getvalue()


def _publish(tmp_path: Path, image: Path):  # noqa: ANN202 - click's Result
    (tmp_path / "mergecast.toml").write_text(f'[show]\nname = "Widgets"\nimage = "{image}"\n')
    db = tmp_path / "m.db"
    with Store(db) as store:
        store.save_episode(make_episode("2026-03-02", audio=False))
    return CliRunner().invoke(main, ["--config", str(tmp_path / "mergecast.toml"), "--db",
                                     str(db), "publish", "--out", str(tmp_path / "site")])


def test_cli_a_text_file_named_cover_png_is_refused(tmp_path: Path) -> None:
    fake = tmp_path / "cover.png"
    fake.write_text("this is not a picture\n")
    done = _publish(tmp_path, fake)
    assert (done.exit_code, done.stdout) == (1, "")
    assert done.stderr == (
        f"mergecast: expected a PNG or JPEG image, got a file that is not an image for "
        f"'{fake}' in mergecast.toml [show] image; {FIX}\n"
    )
    assert not (tmp_path / "site").exists()


def test_cli_a_real_cover_is_published_under_its_real_type(tmp_path: Path) -> None:
    jpeg = tmp_path / "art.png"  # a JPEG with the wrong name
    jpeg.write_bytes(_image("JPEG"))
    done = _publish(tmp_path, jpeg)
    assert done.exit_code == 0, done.output
    assert (tmp_path / "site" / "cover.jpg").read_bytes() == jpeg.read_bytes()
    assert not (tmp_path / "site" / "cover.png").exists()
    assert "cover.jpg" in (tmp_path / "site" / "feed.xml").read_text()


def test_damaged_and_other_images_are_refused(tmp_path: Path) -> None:
    cut = tmp_path / "cut.png"
    cut.write_bytes(_image("PNG")[:200])
    with pytest.raises(PublishError) as err:
        cover_suffix(cut)
    assert str(err.value).startswith("expected a PNG or JPEG image, got a file that is ")
    gif = tmp_path / "anim.png"
    gif.write_bytes(_image("GIF"))
    with pytest.raises(PublishError) as err:
        cover_suffix(gif)
    assert str(err.value) == (
        f"expected a PNG or JPEG image, got a GIF image for '{gif}' in mergecast.toml "
        f"[show] image; {FIX}"
    )
    with pytest.raises(PublishError) as err:
        cover_suffix(tmp_path / "missing.png")
    assert str(err.value) == (
        f"expected a PNG or JPEG file, got '{tmp_path / 'missing.png'}' in mergecast.toml "
        f"[show] image; {FIX}"
    )


def test_the_drawn_cover_is_a_real_png(tmp_path: Path) -> None:
    (tmp_path / "drawn.png").write_bytes(draw_cover("Widgets"))
    assert cover_suffix(tmp_path / "drawn.png") == ".png"
