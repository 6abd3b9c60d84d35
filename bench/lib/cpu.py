"""The CPU a result comes from, as every bench result file records it.

CPUs of one vendor often share a model name ("Intel(R) Xeon(R) Processor" covers several generations whose native
searches differ by 2x or more), so the label adds the family and model numbers from /proc/cpuinfo.
"""

from __future__ import annotations

from pathlib import Path


def cpu_info() -> tuple[str, list[str]]:
    """(label, flags): "<model name> (family F model M)" and the first CPU's flag list; ("?", []) off Linux."""
    fields: dict[str, str] = {}
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            key, sep, value = line.partition(":")
            key = key.strip()
            if not sep:
                if fields:
                    break  # the first CPU's block is enough
                continue
            fields.setdefault(key, value.strip())
    except OSError:
        return "?", []
    label = fields.get("model name", "?")
    if "cpu family" in fields and "model" in fields:
        label += f" (family {fields['cpu family']} model {fields['model']})"
    return label, fields.get("flags", "").split()
