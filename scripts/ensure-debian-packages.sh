#!/usr/bin/env bash
# Makes sure the Debian packages the tests use are installed: chromium (/usr/bin/chromium, driven
# by playwright-core in the browser tests), iproute2 (`ip`, for the network-namespace test of
# the DNS-rebinding rule), redis-server and nginx (several instances sharing state through Redis
# behind a load balancer; the tests start their own, on loopback). Idempotent: installs only
# what is missing.
set -euo pipefail

missing=()
if [ ! -x /usr/bin/chromium ]; then missing+=(chromium); fi
if ! command -v ip >/dev/null 2>&1 && [ ! -x /usr/sbin/ip ] && [ ! -x /sbin/ip ]; then missing+=(iproute2); fi
if [ ! -x /usr/bin/redis-server ]; then missing+=(redis-server); fi
if [ ! -x /usr/sbin/nginx ]; then missing+=(nginx); fi

if [ ${#missing[@]} -eq 0 ]; then
  echo "Debian packages present: $(/usr/bin/chromium --version 2>/dev/null || echo chromium), iproute2, $(/usr/bin/redis-server --version | cut -d' ' -f1-3), nginx"
  exit 0
fi

SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1; then
    SUDO="sudo"
  else
    echo "ensure-debian-packages: ${missing[*]} missing and this is not root (no sudo): install the Debian packages ${missing[*]}." >&2
    exit 1
  fi
fi

echo "ensure-debian-packages: installing ${missing[*]}..."
# A deadline on each apt-get: a stalled mirror must fail the run, not hold it.
$SUDO timeout 600 apt-get update
$SUDO env DEBIAN_FRONTEND=noninteractive timeout 900 apt-get install -y "${missing[@]}"

for binary in /usr/bin/chromium /usr/bin/redis-server /usr/sbin/nginx; do
  if [ ! -x "$binary" ]; then
    echo "ensure-debian-packages: apt-get finished but $binary is still missing." >&2
    exit 1
  fi
done
echo "installed: ${missing[*]}"
