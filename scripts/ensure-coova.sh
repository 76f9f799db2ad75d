#!/usr/bin/env bash
# Builds CoovaChilli 1.8 and 1.9 once each, for the tests that run a real chilli in network
# namespaces (test/e2e/coova/). Debian packages no CoovaChilli, so the release sources that sit
# beside the repository (../shared/vendor/coova-chilli/, or COOVA_VENDOR_DIR) are built into the
# git-ignored .cache/coova/<release>/ with the flags its README gives. A release already built is
# left alone (the stamp names the archive's SHA-256), so a second run takes no time. The Debian
# build dependencies are installed as root when missing; elsewhere the command is printed.
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/.." && pwd)"
VENDOR="${COOVA_VENDOR_DIR:-$ROOT/../shared/vendor/coova-chilli}"
CACHE="$ROOT/.cache/coova"
RELEASES=(1.8 1.9)
# Build dependencies (the vendor README) and what the tests run chilli with: ip (namespaces),
# curl (the client's requests), udhcpc (the client's DHCP lease from chilli), python3 (the RADIUS
# relay between chilli's namespace and the platform's FreeRADIUS: scripts/coova/radius-relay.py),
# ethtool (the client's veth computes its own checksums, as a real device's NIC does).
PACKAGES=(gengetopt libjson-c-dev autoconf automake libtool libssl-dev pkg-config make gcc iproute2 curl udhcpc python3 ethtool)
TOOLS=(ip curl udhcpc python3 ethtool)

# A build is used only where it was made: chilli finds libchilli by the absolute prefix it was
# configured with, so a cache copied from another checkout is built again here.
built() { [ -d "$CACHE/$1/var/run" ] && [ -x "$CACHE/$1/sbin/chilli" ] && [ -x "$CACHE/$1/sbin/chilli_query" ] && [ "$(cat "$CACHE/$1/.stamp" 2>/dev/null)" = "$(sha "$1")" ] && ! ldd "$CACHE/$1/sbin/chilli" | grep -q 'not found'; }
sha() { sha256sum "$VENDOR/coova-chilli-$1.tar.gz" | cut -d' ' -f1; }

all_built() {
  for tool in "${TOOLS[@]}"; do command -v "$tool" >/dev/null 2>&1 || return 1; done
  for release in "${RELEASES[@]}"; do built "$release" || return 1; done
}

for release in "${RELEASES[@]}"; do
  [ -f "$VENDOR/coova-chilli-$release.tar.gz" ] || { echo "ensure-coova: $VENDOR/coova-chilli-$release.tar.gz is missing" >&2; exit 1; }
done
all_built && exit 0

mkdir -p "$CACHE"
# One build at a time on this machine: a second caller waits, then finds the release built.
exec 9>"$CACHE/.lock"
flock 9
all_built && exit 0

missing=()
for package in "${PACKAGES[@]}"; do
  dpkg -s "$package" >/dev/null 2>&1 || missing+=("$package")
done
if [ "${#missing[@]}" -gt 0 ]; then
  if [ "$(id -u)" -ne 0 ] || ! command -v apt-get >/dev/null 2>&1; then
    echo "ensure-coova: missing ${missing[*]}. Install as root with:" >&2
    echo "  apt-get update && apt-get install -y ${missing[*]}" >&2
    exit 1
  fi
  echo "ensure-coova: installing ${missing[*]}" >&2
  export DEBIAN_FRONTEND=noninteractive
  # Another install may hold apt's lock for a while: wait for it rather than fail.
  apt-get -o DPkg::Lock::Timeout=900 update
  apt-get -o DPkg::Lock::Timeout=900 install -y --no-install-recommends "${missing[@]}"
fi

for release in "${RELEASES[@]}"; do
  built "$release" && continue
  echo "ensure-coova: building CoovaChilli $release into $CACHE/$release" >&2
  work="$(mktemp -d "$CACHE/build-$release.XXXXXX")"
  trap 'rm -rf "$work"' EXIT
  tar -xzf "$VENDOR/coova-chilli-$release.tar.gz" -C "$work"
  src="$(find "$work" -mindepth 1 -maxdepth 1 -type d | head -1)"
  rm -rf "$CACHE/$release"
  (
    cd "$src"
    ./bootstrap
    ./configure --prefix="$CACHE/$release" --with-poll
    make -j"$(nproc)"
    make install
  ) >"$CACHE/build-$release.log" 2>&1 || { echo "ensure-coova: the $release build failed; its output is in $CACHE/build-$release.log" >&2; exit 1; }
  # chilli writes its compiled configuration under <prefix>/var/run, which make install leaves out.
  mkdir -p "$CACHE/$release/var/run"
  sha "$release" >"$CACHE/$release/.stamp"
  rm -rf "$work"
  trap - EXIT
done
all_built
