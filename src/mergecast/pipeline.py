"""The pipeline, top to bottom: collect → analyse → write → speak → publish.

Each stage function takes the loaded Config and the Store and returns models; the CLI
calls exactly one of them per command.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

from . import config as config_mod
from .config import Config


def load_config(path: Path | None, db: Path | None = None) -> Config:
    """Load mergecast.toml once; --db overrides [store] path."""
    cfg = config_mod.load(path)
    if db is not None:
        cfg = dataclasses.replace(cfg, store=config_mod.StoreConfig(path=db))
    return cfg


def media_dir(cfg: Config, episode_id: str) -> Path:
    """Where an episode's rendered media lives before publishing (beside the store)."""
    return cfg.store.path.parent / "media" / episode_id


# ---- stage: collect (ingest)

# ---- stage: analyse (digest)

# ---- stage: write (script)

# ---- stage: speak (voice)

# ---- stage: publish

# ---- the daily job (run, backfill, weekly)
