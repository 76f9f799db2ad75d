#!/usr/bin/env bash
# Makes sure Debian's chromium is at /usr/bin/chromium for the browser tests (test/helpers/browser.ts).
set -euo pipefail

CHROMIUM=/usr/bin/chromium

if [ -x "$CHROMIUM" ]; then
  exit 0
fi

if [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null 2>&1; then
  echo "ensure-chromium: $CHROMIUM missing, installing the Debian package chromium" >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get update
  apt-get install -y chromium
  if [ -x "$CHROMIUM" ]; then
    exit 0
  fi
  echo "ensure-chromium: apt-get finished but $CHROMIUM is still missing" >&2
  exit 1
fi

echo "ensure-chromium: $CHROMIUM is missing. Install it as root with:" >&2
echo "  apt-get update && apt-get install -y chromium" >&2
echo "(the browser tests launch it through playwright-core; no other browser download is used)" >&2
exit 1
