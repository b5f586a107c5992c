#!/usr/bin/env bash
# Makes sure Debian's chromium is installed at /usr/bin/chromium (the browser e2e tests drive it with
# playwright-core). Idempotent: does nothing when the binary is already there.
set -euo pipefail

CHROMIUM=/usr/bin/chromium

if [ -x "$CHROMIUM" ]; then
  echo "chromium present: $("$CHROMIUM" --version 2>/dev/null || echo "$CHROMIUM")"
  exit 0
fi

SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1; then
    SUDO="sudo"
  else
    echo "ensure-chromium: $CHROMIUM is missing and this is not root (no sudo): install the Debian package 'chromium'." >&2
    exit 1
  fi
fi

echo "ensure-chromium: installing Debian package 'chromium'..."
# A deadline on each apt-get: a stalled mirror must fail the run, not hold it.
$SUDO timeout 600 apt-get update
$SUDO env DEBIAN_FRONTEND=noninteractive timeout 900 apt-get install -y chromium

if [ ! -x "$CHROMIUM" ]; then
  echo "ensure-chromium: apt-get finished but $CHROMIUM is still missing." >&2
  exit 1
fi
echo "chromium installed: $("$CHROMIUM" --version 2>/dev/null || echo "$CHROMIUM")"
