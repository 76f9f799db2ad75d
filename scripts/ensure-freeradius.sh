#!/usr/bin/env bash
# Makes sure Debian's FreeRADIUS 3.x (server, rest module, radclient) is installed, for the
# gateway's RADIUS side (edge/freeradius-site.ts) and its tests. Never touches /etc/freeradius:
# the platform runs FreeRADIUS from a generated copy under .run/ (or a test's own folder).
set -euo pipefail

have() {
  command -v freeradius >/dev/null 2>&1 && command -v radclient >/dev/null 2>&1 \
    && [ -e /usr/lib/freeradius/rlm_rest.so ] && [ -d /etc/freeradius/3.0 ]
}

if have; then
  exit 0
fi

if [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null 2>&1; then
  echo "ensure-freeradius: installing the Debian packages freeradius freeradius-rest freeradius-utils" >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get update
  apt-get install -y --no-install-recommends freeradius freeradius-rest freeradius-utils
  if have; then
    exit 0
  fi
  echo "ensure-freeradius: apt-get finished but freeradius, radclient or rlm_rest is still missing" >&2
  exit 1
fi

echo "ensure-freeradius: FreeRADIUS is missing. Install it as root with:" >&2
echo "  apt-get update && apt-get install -y freeradius freeradius-rest freeradius-utils" >&2
exit 1
