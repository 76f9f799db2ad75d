#!/usr/bin/env bash
# Keycloak runtime for the Wi-Fi platform (kc-extension/README.md).
#   scripts/kc.sh build   fetch the pinned distribution once, bundle kc-extension/ and the svc-admin GUI,
#                         build spi-wrapper/, install the providers and run Keycloak's own `kc.sh build`
#   scripts/kc.sh start   start-dev on the file database with the development realm imported
#                         (realm-export.json plus realm-dev.json's demo accounts), in the
#                         background; waits until /realms/wifi answers. --fresh (or KC_FRESH=1) drops
#                         the database first.
#   scripts/kc.sh stop    stops the process recorded in the pid file
# Settings (environment): KC_PORT (8080), KC_RUN_DIR (.run/keycloak), KC_WITH_EXTENSION (1; 0 installs
# no providers, for the memory baseline of the benchmark), KC_START_TIMEOUT (240 s), HR_URL, HR_API_KEY,
# KC_BOOTSTRAP_ADMIN_USERNAME / KC_BOOTSTRAP_ADMIN_PASSWORD (admin / admin), JAVA_OPTS_KC_HEAP,
# KC_MGMT_PORT (9000, Keycloak's management interface), KC_TRUSTED_PROXIES (127.0.0.0/8,::1: the
# addresses whose X-Forwarded-* Keycloak believes, the portal's; the employee authenticator limits per
# the client address this yields), WIFI_SMTP_* (the realm's mail server, docs/operate/configuration.md), DECISION_URL (http://localhost:3005) and
# DMN_DIR (dmn/models), what svc-admin's DMN pages use (realm import), SVC_ADMIN_SEAL_KEY (the server
# key sealing svc-admin secrets; a development default when unset). For `build` only: KC_DB (dev-file)
# and KC_BUILD_OPTIONS (none), what the production cluster (scripts/cluster.ts) builds with:
# KC_DB=postgres KC_BUILD_OPTIONS='--health-enabled=true --metrics-enabled=true'.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
RUN_DIR="${KC_RUN_DIR:-$ROOT/.run/keycloak}"
PORT="${KC_PORT:-8080}"
WITH_EXTENSION="${KC_WITH_EXTENSION:-1}"
M2="$ROOT/.cache/m2"
POM="$ROOT/spi-wrapper/pom.xml"
# The pom is the one place the Keycloak version is pinned.
KC_VERSION="$(sed -n 's:.*<keycloak.version>\(.*\)</keycloak.version>.*:\1:p' "$POM")"
KC_HOME="$RUN_DIR/keycloak-$KC_VERSION"
PID_FILE="$RUN_DIR.pid"
LOG_FILE="$RUN_DIR.log"
[ "$RUN_DIR" = "$ROOT/.run/keycloak" ] && PID_FILE="$ROOT/.run/keycloak.pid" && LOG_FILE="$ROOT/.run/keycloak.log"

mvn_quiet() { mvn -B -q -Dmaven.repo.local="$M2" -f "$POM" "$@"; }

fetch_distribution() {
  local zip="$ROOT/.cache/kc-dist/keycloak-$KC_VERSION.zip"
  [ -f "$zip" ] || mvn_quiet dependency:copy@keycloak-dist
  if [ ! -x "$KC_HOME/bin/kc.sh" ]; then
    mkdir -p "$RUN_DIR"
    unzip -q -o "$zip" -d "$RUN_DIR"
  fi
}

install_providers() {
  local target="$ROOT/.cache/spi-wrapper/target" wanted=() jar
  if [ "$WITH_EXTENSION" = "1" ]; then
    (cd "$ROOT" && npm run --silent bundle:kc && npm run --silent bundle:kc-gui)
    # Hashed GUI files of earlier builds must not linger in the jar.
    rm -rf "$target/classes/svc-admin-assets"
    mvn_quiet package
    wanted=("$target/wifi-kc-extension.jar" "$target"/providers/*.jar)
  fi
  for jar in "$KC_HOME"/providers/*.jar; do
    [ -e "$jar" ] || continue
    printf '%s\n' "${wanted[@]}" | grep -q "/$(basename "$jar")$" || rm -f "$jar"
  done
  # Copy only what changed: Keycloak re-augments at start when provider files look new.
  for jar in "${wanted[@]}"; do
    cmp -s "$jar" "$KC_HOME/providers/$(basename "$jar")" || cp "$jar" "$KC_HOME/providers/"
  done
}

cmd_build() {
  fetch_distribution
  install_providers
  # Re-augmenting takes ~25 s and makes the next start-dev do it again: skip it when the
  # providers are byte-identical to the last successful build.
  local stamp="$KC_HOME/.providers-stamp" current
  local options="--db=${KC_DB:-dev-file} ${KC_BUILD_OPTIONS:-}"
  current="$(cd "$KC_HOME/providers" && { sha256sum ./*.jar 2>/dev/null || true; echo "$options"; } | sha256sum | cut -d' ' -f1)"
  if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$current" ]; then
    echo "providers unchanged: keycloak build skipped"
    return 0
  fi
  rm -f "$stamp"
  # shellcheck disable=SC2086 # the options are words
  "$KC_HOME/bin/kc.sh" build $options
  echo "$current" >"$stamp"
}

running() { [ -f "$PID_FILE" ] && kill -0 "$(cat "$PID_FILE")" 2>/dev/null; }

cmd_start() {
  local fresh="${KC_FRESH:-0}"
  [ "${1:-}" = "--fresh" ] && fresh=1
  if running; then echo "keycloak already running (pid $(cat "$PID_FILE"))"; return 0; fi
  [ -x "$KC_HOME/bin/kc.sh" ] || { echo "keycloak is not built: run scripts/kc.sh build" >&2; exit 1; }
  if curl -s -o /dev/null "http://localhost:$PORT/"; then echo "port $PORT is already in use" >&2; exit 1; fi
  [ "$fresh" = "1" ] && rm -rf "$KC_HOME/data/h2" "$KC_HOME/data/transaction-logs"
  mkdir -p "$KC_HOME/data/import"
  # The development realm: realm-export.json plus the demo accounts of realm-dev.json (scripts/realm-files.ts).
  (cd "$ROOT" && node --import tsx scripts/realm-files.ts dev) >"$KC_HOME/data/import/wifi-realm.json"
  (
    export KC_BOOTSTRAP_ADMIN_USERNAME="${KC_BOOTSTRAP_ADMIN_USERNAME:-admin}"
    export KC_BOOTSTRAP_ADMIN_PASSWORD="${KC_BOOTSTRAP_ADMIN_PASSWORD:-admin}"
    export JAVA_OPTS_KC_HEAP="${JAVA_OPTS_KC_HEAP:--Xms128m -Xmx768m}"
    export HR_URL="${HR_URL:-http://localhost:3001}" HR_API_KEY="${HR_API_KEY:-dev-hr-key}"
    export DECISION_URL="${DECISION_URL:-http://localhost:3005}" DMN_DIR="${DMN_DIR:-$ROOT/dmn/models}"
    cd "$KC_HOME"
    # The management interface (health, metrics) must not clash between two Keycloaks on one host.
    # Issue 29 item 6: X-Forwarded-For is believed from the portal (a trusted proxy on this host)
    # only, so the employee authenticator limits attempts per end-user address, not per portal.
    nohup bin/kc.sh start-dev --import-realm --http-port="$PORT" --http-management-port="${KC_MGMT_PORT:-9000}" \
      --proxy-headers=xforwarded --proxy-trusted-addresses="${KC_TRUSTED_PROXIES:-127.0.0.0/8,::1}" >"$LOG_FILE" 2>&1 &
    echo $! >"$PID_FILE"
  )
  local deadline=$((SECONDS + ${KC_START_TIMEOUT:-240}))
  until curl -sf -o /dev/null "http://localhost:$PORT/realms/wifi"; do
    if ! running || [ $SECONDS -ge $deadline ]; then
      echo "keycloak did not come up; last log lines:" >&2
      tail -n 40 "$LOG_FILE" >&2
      cmd_stop >/dev/null 2>&1 || true
      exit 1
    fi
    sleep 1
  done
  echo "keycloak up on http://localhost:$PORT (pid $(cat "$PID_FILE"), log $LOG_FILE)"
}

cmd_stop() {
  if ! running; then rm -f "$PID_FILE"; echo "keycloak not running"; return 0; fi
  local pid; pid="$(cat "$PID_FILE")"
  kill "$pid"
  for _ in $(seq 1 60); do kill -0 "$pid" 2>/dev/null || break; sleep 0.5; done
  kill -0 "$pid" 2>/dev/null && kill -9 "$pid"
  rm -f "$PID_FILE"
  echo "keycloak stopped"
}

case "${1:-}" in
  build) cmd_build ;;
  start) shift; cmd_start "$@" ;;
  stop) cmd_stop ;;
  *) echo "usage: scripts/kc.sh build|start [--fresh]|stop" >&2; exit 2 ;;
esac
