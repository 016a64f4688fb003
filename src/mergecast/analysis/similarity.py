"""TF-IDF over titles and cleaned bodies, and sub-quadratic candidate pairs.

Each document keeps only its TOP_TERMS heaviest terms (renormalised), so a cosine costs
at most TOP_TERMS lookups. Candidate pairs come from an inverted index over each
document's INDEX_TERMS heaviest terms, skipping terms so common that their posting list
passes MAX_POSTINGS: pairs that share only common words are not similar anyway, and this
keeps a 10,000-change day linear rather than 50 million comparisons.
"""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping, Sequence

TITLE_WEIGHT = 3  # a title word counts as much as three body words
TOP_TERMS = 40
INDEX_TERMS = 8
MAX_POSTINGS = 30

Vector = dict[str, float]


def tfidf(docs: Mapping[str, Counter[str]]) -> dict[str, Vector]:
    """Sparse unit vectors keyed like `docs`, sublinear tf and smoothed idf."""
    df: Counter[str] = Counter()
    for terms in docs.values():
        df.update(terms.keys())
    n = len(docs)
    idf = {t: math.log((n + 1) / (d + 1)) + 1.0 for t, d in df.items()}
    out: dict[str, Vector] = {}
    for key, terms in docs.items():
        weights = {t: (1.0 + math.log(c)) * idf[t] for t, c in terms.items()}
        top = sorted(weights.items(), key=lambda kv: (-kv[1], kv[0]))[:TOP_TERMS]
        norm = math.sqrt(sum(w * w for _, w in top)) or 1.0
        out[key] = {t: w / norm for t, w in top}
    return out


def cosine(a: Vector, b: Vector) -> float:
    common = a.keys() & b.keys()  # set intersection runs in C; most pairs share few terms
    return sum(a[t] * b[t] for t in common) if common else 0.0


def centroid(vectors: Iterable[Vector]) -> Vector:
    total: dict[str, float] = defaultdict(float)
    for v in vectors:
        for t, w in v.items():
            total[t] += w
    top = sorted(total.items(), key=lambda kv: (-kv[1], kv[0]))[:TOP_TERMS]
    norm = math.sqrt(sum(w * w for _, w in top)) or 1.0
    return {t: w / norm for t, w in top}


def candidate_pairs(keys: Sequence[str], vectors: Mapping[str, Vector]) -> list[tuple[str, str]]:
    """Pairs (in `keys` order) that share one of their heaviest, not-too-common terms."""
    postings: dict[str, list[int]] = defaultdict(list)
    for i, key in enumerate(keys):
        # vectors keep their terms heaviest first (tfidf and centroid insert them so)
        for t in list(vectors[key])[:INDEX_TERMS]:
            postings[t].append(i)
    pairs: set[tuple[int, int]] = set()
    for members in postings.values():
        if len(members) < 2 or len(members) > MAX_POSTINGS:
            continue
        for x in range(len(members)):
            for y in range(x + 1, len(members)):
                pairs.add((members[x], members[y]))
    return [(keys[i], keys[j]) for i, j in sorted(pairs)]


def shared_terms(a: Vector, b: Vector, k: int = 3) -> list[str]:
    """The terms that contribute most to a pair's similarity (for `why` strings)."""
    common = [(a[t] * b[t], t) for t in a if t in b]
    common.sort(key=lambda x: (-x[0], x[1]))
    return [t for _, t in common[:k]]
