"""Which chunkings a parse case is fed with (conformance/PROTOCOL.md §What the runner checks), and request batching.

A chunking is `[]` (whole), `"bytes"` (one byte per chunk) or a strictly increasing list of cut offsets in 1..len-1.
Its label (used in failure lines and in expected-failures keys `<id>@<label>`) is `whole`, `bytes`, or the offsets
joined by commas (`17`, `3,90,91`).
"""

import hashlib
import re

from .cases import SplitMix64

SMALL_INPUT = 4096          # up to this size: every split point
RANDOM_CUT_SETS = 64        # larger inputs: this many seeded random cut sets of 1..8 cuts
MAX_CUTS = 8
DELIM_WINDOW = 80           # every single cut within this many bytes of a delimiter occurrence
MAX_DELIM_OCCURRENCES = 32  # at most this many occurrences get windows (first 8, last 8, 16 seeded others)
OTHER_ANCHORS = 16          # non-multipart large inputs: windows around this many seeded random points
QUICK_SPLITS = 8

MAX_CHUNKINGS_PER_REQUEST = 2000
MAX_BYTES_PER_REQUEST = 256 << 20   # sum over a request's chunkings of the bytes each one parses


def label(chunking):
    if chunking == []:
        return "whole"
    if chunking == "bytes":
        return "bytes"
    return ",".join(str(c) for c in chunking)


def seed_for(case_id):
    return int.from_bytes(hashlib.sha256(case_id.encode("utf-8")).digest()[:8], "little")


def boundary_of(content_type):
    m = re.search(r';\s*boundary\s*=\s*("((?:[^"\\]|\\.)*)"|[^;\s]*)', content_type or "", re.I)
    if not m:
        return None
    if m.group(2) is not None:
        return re.sub(r"\\(.)", r"\1", m.group(2))
    return m.group(1)


def _windows(anchors, n):
    cuts = set()
    for a in anchors:
        for c in range(max(1, a - DELIM_WINDOW), min(n - 1, a + DELIM_WINDOW) + 1):
            cuts.add(c)
    return sorted(cuts)


def chunkings_for(case_id, data, kind, content_type=None, quick=False):
    """The chunkings to run for one parse case, `whole` first and `bytes` last."""
    n = len(data)
    if kind == "clone-decode":
        return [[]]
    rng = SplitMix64(seed_for(case_id))
    out = [[]]
    if quick:
        if n - 1 <= QUICK_SPLITS:
            singles = list(range(1, n))
        else:
            picked = set()
            while len(picked) < QUICK_SPLITS:
                picked.add(1 + rng.below(n - 1))
            singles = sorted(picked)
        out.extend([c] for c in singles)
    elif n <= SMALL_INPUT:
        out.extend([c] for c in range(1, n))
    else:
        seen = set()
        for _ in range(RANDOM_CUT_SETS):
            k = 1 + rng.below(MAX_CUTS)
            cuts = tuple(sorted({1 + rng.below(n - 1) for _ in range(k)}))
            if cuts not in seen:
                seen.add(cuts)
                out.append(list(cuts))
        anchors = []
        boundary = boundary_of(content_type) if kind == "multipart-parse" else None
        if boundary:
            # "--" + boundary finds the first delimiter (no CRLF before it) and every "\r\n--boundary" after it.
            needle = b"--" + boundary.encode("utf-8", "surrogateescape")
            occ, i = [], data.find(needle)
            while i >= 0:
                occ.append(i)
                i = data.find(needle, i + 1)
            if len(occ) > MAX_DELIM_OCCURRENCES:
                middle = occ[8:-8]
                chosen = set(occ[:8] + occ[-8:])
                while len(chosen) < MAX_DELIM_OCCURRENCES:
                    chosen.add(middle[rng.below(len(middle))])
                occ = sorted(chosen)
            for i in occ:
                anchors.extend((max(0, i - 2), i + len(needle)))  # from the CRLF before "--" to the end of B
        else:
            anchors = [1 + rng.below(n - 1) for _ in range(OTHER_ANCHORS)]
        for c in _windows(anchors, n):
            if (c,) not in seen:
                seen.add((c,))
                out.append([c])
    if n > 1:
        out.append("bytes")
    elif n == 1:
        pass  # one byte per chunk is the same as whole
    else:
        out.append("bytes")  # empty input fed as zero chunks
    return out


def batches(chunkings, n):
    """Split chunkings into requests: at most MAX_CHUNKINGS_PER_REQUEST each, bounded parse work, and `bytes`
    always alone in the last request (so a crash there cannot take the other chunkings with it)."""
    rest = [c for c in chunkings if c != "bytes"]
    per = max(1, min(MAX_CHUNKINGS_PER_REQUEST, MAX_BYTES_PER_REQUEST // max(1, n)))
    out = [rest[i:i + per] for i in range(0, len(rest), per)]
    if "bytes" in chunkings:
        out.append(["bytes"])
    return out
