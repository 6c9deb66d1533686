#!/usr/bin/env python3
"""Checks that ARCHITECTURE.md is true to the tree: every path it names (in backticks, from the
repository's root) exists, every bare file name it names exists somewhere under Sources/ or
Tests/, and every target in Package.swift is drawn. Exits 1 with the list of what is missing."""

import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
text = (ROOT / "ARCHITECTURE.md").read_text()
missing = []
checked = 0
names = {p.name for d in ("Sources", "Tests", "scripts", "tests") for p in (ROOT / d).rglob("*")}
for token in sorted(set(re.findall(r"`([^`\s]+)`", text))):
    if re.match(r"^(Sources|Tests|scripts|tests)/", token):
        checked += 1
        if not (ROOT / token.rstrip("/")).exists():
            missing.append(f"path {token}")
    elif re.fullmatch(r"[\w+.-]+\.(swift|js|json|py|sh|html|css)", token):
        checked += 1
        if token not in names:
            missing.append(f"file {token}")
targets = re.findall(r'\.(?:target|executableTarget)\(\s*name: "(\w+)"', (ROOT / "Package.swift").read_text())
for target in targets:
    if target not in text:
        missing.append(f"target {target} is not drawn")
if missing:
    print("ARCHITECTURE.md names what the tree does not have:\n  " + "\n  ".join(missing), file=sys.stderr)
    sys.exit(1)
print(f"ARCHITECTURE.md: {checked} paths and files and {len(targets)} targets, all found")
