"""Which chunkings a parse case is fed with (conformance/PROTOCOL.md §What the runner checks), and request batching.

A chunking is `[]` (whole), `"bytes"` (one byte per chunk) or a strictly increasing list of cut offsets in 1..len-1.
Each one has a label, used in failure lines and in expected-failures keys (`<id>@<label>`):

- `whole`, `bytes`;
- inputs up to 4 KiB: every split point, labelled by its offset (`17`);
- larger inputs: `random-<k>` (k = 0..63), seeded random sets of 1 to 8 cuts; and `window-<t>`: around every delimiter
  occurrence (multipart: `CRLF--boundary`, the first one without CRLF) the window from 80 bytes before it to 80 bytes
  after it; `window-<t>` cuts every window at its t-th byte at once. So each cut within 80 bytes of each delimiter is
  tried, with one full parse per offset instead of one per offset and occurrence. Inputs with many delimiters use
  up to 64 of them (first 16, last 16, 32 seeded others). Non-multipart inputs use 16 seeded random anchor points;
- `--quick`: whole, bytes and 8 seeded random split points (labelled by offset).

The seed is the first 8 bytes (little-endian) of SHA-256 of the case id, into splitmix64: runs are repeatable.
"""

import hashlib
import re

from .cases import SplitMix64

SMALL_INPUT = 4096
RANDOM_CUT_SETS = 64
MAX_CUTS = 8
DELIM_WINDOW = 80
MAX_WINDOWS = 64
OTHER_ANCHORS = 16
QUICK_SPLITS = 8

MAX_CHUNKINGS_PER_REQUEST = 2000
MAX_BYTES_PER_REQUEST = 256 << 20   # sum over a request's chunkings of the input bytes each one parses
MAX_RESPONSE_PER_REQUEST = 32 << 20  # estimated size of the response (one result per chunking)


def seed_for(case_id):
    return int.from_bytes(hashlib.sha256(case_id.encode("utf-8")).digest()[:8], "little")


def boundary_of(content_type):
    m = re.search(r';\s*boundary\s*=\s*("((?:[^"\\]|\\.)*)"|[^;\s]*)', content_type or "", re.I)
    if not m:
        return None
    if m.group(2) is not None:
        return re.sub(r"\\(.)", r"\1", m.group(2))
    return m.group(1)


def delimiter_spans(data, boundary):
    """(start, end) of every delimiter: from the CRLF before `--boundary` (when there is one) to the end of it."""
    needle = b"--" + boundary.encode("utf-8", "surrogateescape")
    out, i = [], data.find(needle)
    while i >= 0:
        out.append((i - 2 if i >= 2 and data[i - 2:i] == b"\r\n" else i, i + len(needle)))
        i = data.find(needle, i + 1)
    return out


def _sample(items, limit, rng):
    if len(items) <= limit:
        return items
    q = limit // 4
    chosen = set(range(q)) | set(range(len(items) - q, len(items)))
    while len(chosen) < limit:
        chosen.add(q + rng.below(len(items) - 2 * q))
    return [items[i] for i in sorted(chosen)]


def chunkings_for(case_id, data, kind, content_type=None, quick=False):
    """[(label, chunking)] for one parse case, `whole` first and `bytes` last."""
    n = len(data)
    if kind == "clone-decode":
        return [("whole", [])]
    rng = SplitMix64(seed_for(case_id))
    out = [("whole", [])]
    if quick:
        if n - 1 <= QUICK_SPLITS:
            singles = range(1, n)
        else:
            picked = set()
            while len(picked) < QUICK_SPLITS:
                picked.add(1 + rng.below(n - 1))
            singles = sorted(picked)
        out.extend((str(c), [c]) for c in singles)
    elif n <= SMALL_INPUT:
        out.extend((str(c), [c]) for c in range(1, n))
    else:
        for k in range(RANDOM_CUT_SETS):
            count = 1 + rng.below(MAX_CUTS)
            out.append(("random-%d" % k, sorted({1 + rng.below(n - 1) for _ in range(count)})))
        boundary = boundary_of(content_type) if kind == "multipart-parse" else None
        spans = delimiter_spans(data, boundary) if boundary else []
        if not spans:
            spans = [(a, a) for a in sorted(1 + rng.below(n - 1) for _ in range(OTHER_ANCHORS))]
        spans = _sample(spans, MAX_WINDOWS, rng)
        width = max(e - s for s, e in spans) + 2 * DELIM_WINDOW + 1
        for t in range(width):
            cuts = sorted({s - DELIM_WINDOW + t for s, e in spans if 1 <= s - DELIM_WINDOW + t <= min(n - 1, e + DELIM_WINDOW)})
            if cuts:
                out.append(("window-%d" % t, cuts))
    if n != 1:  # one byte per chunk of a 1-byte input is `whole` again; of an empty input, zero chunks
        out.append(("bytes", "bytes"))
    return out


def batches(chunkings, n, result_size=100):
    """Split [(label, chunking)] into requests: at most MAX_CHUNKINGS_PER_REQUEST each, bounded parse work and
    response size (`result_size`: estimated bytes of one result), and `bytes` alone in the last request (so a crash
    there cannot take the other chunkings with it)."""
    rest = [c for c in chunkings if c[1] != "bytes"]
    per = max(1, min(MAX_CHUNKINGS_PER_REQUEST, MAX_BYTES_PER_REQUEST // max(1, n),
                     MAX_RESPONSE_PER_REQUEST // max(1, result_size)))
    out = [rest[i:i + per] for i in range(0, len(rest), per)]
    out.extend([c] for c in chunkings if c[1] == "bytes")
    return out
