#!/usr/bin/env bash
# Runs every test: the Swift suites (BrollyCore, BrollyServer), then the end-to-end suites with
# pytest — the built `brolly` against a local upstream double, the HTTP API, and the web app in
# headless Chromium. Screenshots of the browser cases go to artifacts/.
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/install-test-deps.sh

echo "== swift format lint (reports style findings; .swift-format)"
swift format lint -r Sources Tests || true
echo "== swift build"
time swift build --build-tests
echo "== swift test"
swift test --skip-build
echo "== pytest (CLI end to end, API, browser)"
python3 -m pytest -q -p no:cacheprovider tests
