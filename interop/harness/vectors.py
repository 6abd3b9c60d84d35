"""Saving live captures as shared vectors: vectors/<multipart|urlencoded>/accept/cap-live-<producer>-<case>.

A capture's boundary differs per run, so a vector is written only when none with that id exists (the id is the
producer and the case, nothing random). The expectation is the model's (interop/harness/forms.py: what the producer
was told to send, through its profile and the MP/UE rules), written only after every formwire implementation present
decoded the capture to exactly it. Captures that must be rejected are not saved (vectors/*/reject/ is not ours).
"""
from __future__ import annotations

import base64
import json
import os

BASE_RULES_MP = ["MP-P-01", "MP-H-07", "MP-H-10", "MP-F-03"]
BASE_RULES_UE = ["UE-P-04", "UE-P-06", "UE-P-07", "UE-P-08"]


def _body(data: bytes) -> dict:
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return {"base64": base64.b64encode(data).decode("ascii")}
    if any(ord(c) < 0x20 and c not in "\r\n\t" for c in text) or "\x7f" in text:
        return {"base64": base64.b64encode(data).decode("ascii")}
    return {"text": text}


def save(root: str, prod, case: str, ctype: str, body: bytes, expected: dict, exp, version: str) -> str | None:
    vid = f"cap-live-{prod.id}-{case}"
    urlencoded = case.startswith("ue-")
    d = os.path.join(root, "vectors", "urlencoded" if urlencoded else "multipart", "accept")
    path = os.path.join(d, vid + ".json")
    if os.path.exists(path) or not os.path.isdir(d):
        return None
    quirks = sorted(exp.quirks)
    desc = f"live capture: {prod.label}, form '{case}'"
    if quirks:
        desc += f"; producer quirks: {', '.join(quirks)} (interop/DISAGREEMENTS.md)"
    rules = sorted(set((BASE_RULES_UE if urlencoded else BASE_RULES_MP) + exp.rules()))
    out = {"id": vid, "kind": "urlencoded-parse" if urlencoded else "multipart-parse", "rules": rules,
           "description": desc.replace("\n", " "), "source": f"capture: {version} (interop/run)"}
    if urlencoded:
        raw = vid + ".txt"
        out["input"] = {"file": raw}
        out["expect"] = {"pairs": expected["pairs"]}
    else:
        raw = vid + ".http"
        out["content_type"] = ctype
        out["input"] = {"file": raw}
        parts = []
        for e in expected["entries"]:
            p = {"name": e["name"], "filename": e["filename"], "content_type": e["content_type"]}
            if e["filename"] is not None:
                p["type"] = e["type"]
            p["body"] = _body(e["body"])
            parts.append(p)
        out["expect"] = {"parts": parts}
    with open(os.path.join(d, raw), "wb") as f:
        f.write(body)
    with open(path, "w", encoding="utf-8") as f:
        f.write(json.dumps(out, ensure_ascii=False, indent=1) + "\n")
    return vid
