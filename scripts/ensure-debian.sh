#!/usr/bin/env bash
# Makes sure the Debian packages the tests use are installed: each argument is
# <file the package provides>:<package>, e.g. /usr/bin/chromium:chromium (browser tests through
# playwright-core) or /usr/sbin/nginx:nginx-light (TLS-terminating proxy tests). Missing ones are
# installed as root with apt-get (one update first); otherwise the command to run is printed.
set -euo pipefail

missing=()
for pair in "$@"; do
  [ -x "${pair%%:*}" ] || missing+=("${pair#*:}")
done
[ "${#missing[@]}" -eq 0 ] && exit 0

if [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null 2>&1; then
  echo "ensure-debian: installing ${missing[*]}" >&2
  export DEBIAN_FRONTEND=noninteractive
  # Packages with a system service (nginx, prometheus) must not start it: the platform starts its
  # own instances on its own ports. Without a policy of the machine's own, one that refuses every
  # start is in place for the install.
  if [ ! -e /usr/sbin/policy-rc.d ]; then
    printf '#!/bin/sh\nexit 101\n' > /usr/sbin/policy-rc.d && chmod 755 /usr/sbin/policy-rc.d
    trap 'rm -f /usr/sbin/policy-rc.d' EXIT
  fi
  apt-get update
  apt-get install -y --no-install-recommends "${missing[@]}"
  for pair in "$@"; do
    [ -x "${pair%%:*}" ] || { echo "ensure-debian: apt-get finished but ${pair%%:*} is still missing" >&2; exit 1; }
  done
  exit 0
fi

echo "ensure-debian: missing ${missing[*]}. Install as root with:" >&2
echo "  apt-get update && apt-get install -y ${missing[*]}" >&2
exit 1
