#!/usr/bin/env bash
# Makes sure Debian's openNDS 9.10 and what it runs on are installed, for the enforcement test
# (test/opennds/) and scripts/opennds/: the daemon and ndsctl (opennds), legacy iptables (its
# firewall code calls iptables), php-cli (its FAS level 3 helper scripts encrypt with PHP),
# iproute2 (ip netns), curl (the client's request), and what openNDS's library and the harness call:
# procps (pgrep), bsdutils (logger), util-linux (nsenter, unshare). The test files check the same list
# when they load (test/opennds/host-support.ts). Never touches /etc/opennds: the daemon
# runs from a generated config in a private mount namespace (scripts/opennds/gateway.ts).
set -euo pipefail

have() {
  command -v opennds >/dev/null 2>&1 && command -v ndsctl >/dev/null 2>&1 \
    && command -v iptables >/dev/null 2>&1 && command -v php >/dev/null 2>&1 \
    && command -v ip >/dev/null 2>&1 && command -v curl >/dev/null 2>&1 \
    && command -v pgrep >/dev/null 2>&1 && command -v logger >/dev/null 2>&1 \
    && command -v nsenter >/dev/null 2>&1 && command -v unshare >/dev/null 2>&1
}

if have; then
  exit 0
fi

if [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null 2>&1; then
  echo "ensure-opennds: installing the Debian packages opennds iptables php-cli iproute2 curl procps bsdutils util-linux" >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get update
  apt-get install -y --no-install-recommends opennds iptables php-cli iproute2 curl procps bsdutils util-linux
  if have; then
    exit 0
  fi
  echo "ensure-opennds: apt-get finished but opennds, ndsctl, iptables, php, ip, curl, pgrep, logger, nsenter or unshare is still missing" >&2
  exit 1
fi

echo "ensure-opennds: openNDS is missing. Install it as root with:" >&2
echo "  apt-get update && apt-get install -y opennds iptables php-cli iproute2 curl procps bsdutils util-linux" >&2
exit 1
