"""tools/licences.py, the licence check of `make lint`: the policy, the expression logic
and the worker boundary, on real metadata folders and module trees in tmp_path."""

from __future__ import annotations

import importlib.metadata as md
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tools"))
import licences  # noqa: E402

POLICY = licences.Policy.load()


@pytest.mark.parametrize(("expression", "core", "with_worker"), [
    ("MIT", True, True),
    ("Apache-2.0 OR BSD-2-Clause", True, True),
    ("BSD-3-Clause AND 0BSD AND MIT AND Zlib AND CC0-1.0", True, True),
    ("GPL-3.0-or-later", False, True),
    ("MIT AND GPL-2.0-or-later", False, True),
    ("(MIT OR GPL-3.0-only) AND Apache-2.0", True, True),
    ("GPL-2.0-or-later WITH Classpath-exception-2.0", False, True),
    ("AGPL-3.0-only", False, False),
    ("LicenseRef-Proprietary OR MIT", True, True),
    ("MIT AND", False, False),
])
def test_spdx_expressions(expression, core, with_worker):
    assert licences.satisfies(expression, POLICY.core) is core
    assert licences.satisfies(expression, POLICY.core | POLICY.worker) is with_worker


def dist(tmp_path: Path, name: str, **fields: str) -> md.Distribution:
    folder = tmp_path / f"{name}-1.0.dist-info"
    folder.mkdir()
    lines = ["Metadata-Version: 2.4", f"Name: {name}", "Version: 1.0"]
    lines += [f"{k.replace('_', '-')}: {v}" for k, v in fields.items()]
    (folder / "METADATA").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return md.PathDistribution(folder)


def test_gpl_outside_the_worker_and_unknown_licences_fail(tmp_path):
    found = {
        "ok-lib": dist(tmp_path, "ok-lib", License_Expression="MIT"),
        "gpl-lib": dist(tmp_path, "gpl-lib", License_Expression="GPL-3.0-or-later"),
        "mutagen": dist(tmp_path, "mutagen", License_Expression="GPL-2.0-or-later"),
        "agpl-lib": dist(tmp_path, "agpl-lib", License="AGPL-3.0-only"),
        "silent": dist(tmp_path, "silent"),
        "classified": dist(tmp_path, "classified",
                           Classifier="License :: OSI Approved :: BSD License"),
    }
    assert licences.licence_problems(found, POLICY) == [
        "agpl-lib 1.0 is AGPL-3.0-only, which tools/licences.toml does not allow; choose "
        "another library, or argue it in docs/licensing.md and add the licence there",
        "gpl-lib 1.0 is GPL-3.0-or-later: it may run only in the voice worker process; list it "
        "under [worker] distributions and import it only from the worker modules, or choose a "
        "library under a core licence",
        "silent 1.0 declares no licence; read its licence and add the SPDX id it means to "
        "[aliases] in tools/licences.toml",
    ]


def test_imports_of_gpl_code_outside_the_worker_are_found(tmp_path):
    pkg = tmp_path / "mergecast"
    (pkg / "voice").mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "voice" / "__init__.py").write_text("")
    (pkg / "voice" / "worker.py").write_text("import piper\nfrom .tags import tagged\n")
    (pkg / "voice" / "tags.py").write_text("from mutagen.id3 import ID3\n")
    (pkg / "voice" / "render.py").write_text(
        "import importlib\nfrom .tags import tagged\n\n\ndef f():\n"
        "    return importlib.import_module('piper')\n")
    (pkg / "pipeline.py").write_text("from .voice import worker\nimport mutagen.mp3\n")
    assert licences.boundary_problems(POLICY, pkg) == [
        "mergecast/pipeline.py:1 imports mergecast.voice.worker, a module of the voice "
        "worker's process; talk to it through mergecast.voice.process",
        "mergecast/pipeline.py:2 imports mutagen.mp3, which only the voice worker may load "
        "(tools/licences.toml [worker]); ask the worker instead",
        "mergecast/voice/render.py:2 imports mergecast.voice.tags, a module of the voice "
        "worker's process; talk to it through mergecast.voice.process",
        "mergecast/voice/render.py:6 imports piper, which only the voice worker may load "
        "(tools/licences.toml [worker]); ask the worker instead",
    ]


def test_the_installed_dependencies_and_the_package_pass(capsys):
    assert licences.main([]) == 0
    assert "GPL code only in the voice worker" in capsys.readouterr().out
    dists, missing = licences.runtime_closure()
    assert missing == [] and {"piper-tts", "mutagen", "numpy"} <= set(dists)
    assert "pytest" not in dists  # test extras are not shipped to users
