"""The one data model: frozen dataclasses shared by every stage.

Sources convert vendor data into these at once; no later stage sees a raw dict.
`to_dict` / `from_dict` (from `codec`) give a stable JSON form used by the store, `--json`
output and `episode.json`.

One module per stage: `changes` (what sources yield), `digest` (analysis), `plan`
(what the writer decides), `script` (what it says and the voice makes of it), `episode`
(what the publisher ships). Import from here.
"""

from ..codec import from_dict, to_dict
from .changes import (
    Change,
    EpisodeKind,
    FileChange,
    FileStatus,
    Forge,
    Person,
    Revert,
    State,
    ThemeKind,
    Trailer,
    VoiceKind,
    Window,
    WriterKind,
)
from .digest import (
    Area,
    ChainStep,
    Continuity,
    Counts,
    Credit,
    Digest,
    Duplicate,
    FollowUp,
    Ref,
    RevertChain,
    RevertPair,
    Stack,
    Theme,
)
from .episode import Developer, Episode, LedgerEntry, ThemeRef
from .plan import (
    Action,
    Claim,
    DuplicatePlan,
    Plan,
    Roundup,
    Scope,
    Signal,
    ThemePlan,
    Watch,
)
from .script import ESTIMATE_WPM, SECTION_KINDS, Audio, Chapter, Cue, Script, Section, Sentence

__all__ = [
    "Action",
    "Area",
    "Audio",
    "ChainStep",
    "Change",
    "Chapter",
    "Claim",
    "Continuity",
    "Counts",
    "Credit",
    "Cue",
    "Developer",
    "Digest",
    "Duplicate",
    "DuplicatePlan",
    "ESTIMATE_WPM",
    "Episode",
    "EpisodeKind",
    "FileChange",
    "FileStatus",
    "FollowUp",
    "Forge",
    "LedgerEntry",
    "Person",
    "Plan",
    "Ref",
    "Revert",
    "RevertChain",
    "RevertPair",
    "Roundup",
    "SECTION_KINDS",
    "Script",
    "Section",
    "Sentence",
    "Scope",
    "Signal",
    "Stack",
    "State",
    "Theme",
    "ThemeKind",
    "ThemePlan",
    "ThemeRef",
    "Trailer",
    "VoiceKind",
    "Watch",
    "Window",
    "WriterKind",
    "from_dict",
    "to_dict",
]
