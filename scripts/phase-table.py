"""The end of scripts/test.sh: how long each phase took (the builds beside everything else, and their
ratio: issue 53 asks the test phases to take at most half the builds' time), and the Swift and
pytest cases that passed and failed, summed up on the last line.

    python3 scripts/phase-table.py LOG_DIR   # LOG_DIR: `phases` (NAME|KIND|START|END) and the runs' logs
"""
import re
import sys
from pathlib import Path

log = Path(sys.argv[1])
rows = []
for line in (log / "phases").read_text().splitlines() if (log / "phases").exists() else []:
    name, kind, start, end = line.rsplit("|", 3)
    rows.append((name.split(" (")[0], kind, float(end) - float(start)))
if not rows:
    sys.exit(0)
width = max([len(name) for name, _, _ in rows] + [len("ratio of the test phases to the builds")])
print()
print("== phases")
print(f"{'phase'.ljust(width)}  {'kind':5}  {'seconds':>8}")
for name, kind, seconds in rows:
    print(f"{name.ljust(width)}  {kind:5}  {seconds:8.1f}")
builds = sum(s for _, k, s in rows if k == "build")
tests = sum(s for _, k, s in rows if k == "test")
setup = sum(s for _, k, s in rows if k == "setup")
print(f"{'builds'.ljust(width)}  {'':5}  {builds:8.1f}")
print(f"{'everything else (setup apart)'.ljust(width)}  {'':5}  {tests:8.1f}")
if setup:
    print(f"{'setup (installs)'.ljust(width)}  {'':5}  {setup:8.1f}")
if builds > 0:
    print(f"{'ratio of the test phases to the builds'.ljust(width)}  {'':5}  {tests / builds:8.2f}")

passed = failed = 0
swift = (log / "swift-test.log").read_text(errors="replace") if (log / "swift-test.log").exists() else ""
m = re.search(r"Test run with (\d+) tests? in \d+ suites? (passed|failed)", swift)
if m:
    total = int(m.group(1))
    failures = len(set(re.findall(r"✘ Test (\S.*?) failed", swift))) if m.group(2) == "failed" else 0
    passed += total - failures
    failed += failures
x = re.search(r"Executed (\d+) tests?, with (\d+) failures?", swift)
if x:
    passed += int(x.group(1)) - int(x.group(2))
    failed += int(x.group(2))
for name in ("pytest.log", "pytest-alone.log"):
    text = (log / name).read_text(errors="replace") if (log / name).exists() else ""
    lines = [l for l in text.splitlines() if re.search(r"\d+ (passed|failed)", l) and " in " in l]
    if lines:
        last = lines[-1]
        passed += sum(int(n) for n in re.findall(r"(\d+) passed", last))
        failed += sum(int(n) for n in re.findall(r"(\d+) failed", last)) + sum(int(n) for n in re.findall(r"(\d+) errors?", last))
print(f"total: {passed} passed, {failed} failed")
