#!/bin/sh
# Installed on an openNDS 9.10 router at FAS level 3, beside authmon: openNDS has no
# remote deauthentication, so this loop asks the platform's FAS, every INTERVAL seconds, which
# clients it revoked, and deauthenticates them here. It rides on openNDS's own https channel to
# the FAS (libopennds.sh send_to_fas_custom: the FAS URL, gatewayhash and CA trust authmon uses).
#   poll:   payload "revocations"        -> answer "*" then the rhids to end, space separated
#   report: payload "revoked <rhid> ..." -> answer "ack" (the FAS stops listing them)
#   usage:  when the poll's answer carries the word "usage" (the FAS asks every
#           OPENNDS_USAGE_SECONDS), payload "usage <token> <download kB> <upload kB> ..." for each
#           authenticated client from `ndsctl json`, at most 500 clients a request -> answer "ack".
#           So a client's usage counts against its allowance while it runs, not only at its end
#           (BinAuth). The token names the client as BinAuth's notice does; no MAC or IP is sent.
# ndsctl finds a client by its rhid (client_list_find_by_any), so no MAC or IP is needed.
# Every request is signed: libopennds.sh sends through /usr/lib/opennds/post-request.php, which
# must be the signing one shipped beside this script (HMAC-SHA256 under the router's faskey over
# a timestamp, a nonce and the request, with php-cli's hash_hmac, as openNDS's own level 3
# scripts run PHP); the FAS refuses anything unsigned, stale or replayed, so a guest behind the
# router can neither read nor answer this channel. Without it installed this script does not start.
# Usage: revocation-poll.sh [INTERVAL]   (1-60 s, default 5); run it as a service, like authmon.
# LIBOPENNDS (default /usr/lib/opennds/libopennds.sh) and POST_REQUEST (default
# /usr/lib/opennds/post-request.php) name openNDS's library and its FAS sender; tests only.
set -u
interval="${1:-5}"
case "$interval" in
  [1-9] | [1-5][0-9] | 60) ;;
  *) echo "revocation-poll: INTERVAL must be 1-60 seconds" >&2; exit 2 ;;
esac
lib="${LIBOPENNDS:-/usr/lib/opennds/libopennds.sh}"
post_request="${POST_REQUEST:-/usr/lib/opennds/post-request.php}"
if ! grep -q 'opennds-fas-v1' "$post_request" 2>/dev/null; then
  echo "revocation-poll: $post_request is not the signing post-request.php: install it first (the FAS refuses unsigned requests)" >&2
  exit 2
fi

# `ndsctl json` (all clients) as "usage <token> <down> <up> ..." lines of at most 500 clients.
# openNDS prints one field a line; a client's fields end with a line that is only "}" or "},".
usage_batches() {
  ndsctl json 2>/dev/null | awk '
    function value(line) { sub(/^[^:]*:[ ]*"/, "", line); sub(/".*$/, "", line); return line }
    /"gatewayname":/ { token = ""; state = ""; down = ""; up = "" }
    /"token":/ { token = value($0) }
    /"state":/ { state = value($0) }
    /"download_this_session":/ { down = value($0) }
    /"upload_this_session":/ { up = value($0) }
    /^[ ]*},?[ ]*$/ {
      if (state == "Authenticated" && length(token) == 8 && token ~ /^[0-9a-f]+$/ && down ~ /^[0-9]+$/ && up ~ /^[0-9]+$/) {
        batch = batch " " token " " down " " up
        if (++count == 500) { print "usage" batch; batch = ""; count = 0 }
      }
      token = ""; state = ""; down = ""; up = ""
    }
    END { if (count > 0) print "usage" batch }
  '
}

while true; do
  answer=$("$lib" send_to_fas_custom "revocations" 2>/dev/null)
  ended=""
  case "$answer" in
    "*" | "* "*)
      for rhid in ${answer#\*}; do
        # Only what an rhid can be: 64 lower-case hex digits; anything else ("usage") is skipped here.
        case "$rhid" in
          *[!0-9a-f]*) continue ;;
        esac
        [ "${#rhid}" -eq 64 ] || continue
        # Reported only when ndsctl says the client is ended here ("Client <rhid> deauthenticated.")
        # or openNDS no longer knows it ("... not found.": ended already). Anything else (another
        # ndsctl holds its lock: "Unable to create lock", openNDS not running) is tried again at
        # the next poll, so the FAS keeps listing it.
        case "$(ndsctl deauth "$rhid" 2>&1)" in
          *"Client $rhid deauthenticated."* | *"Client $rhid not found."*) ended="$ended $rhid" ;;
          *) echo "revocation-poll: ndsctl did not deauthenticate a client; the next poll tries again" >&2 ;;
        esac
      done
      ;;
    *) echo "revocation-poll: no list from the FAS" >&2 ;;
  esac
  if [ -n "$ended" ]; then
    "$lib" send_to_fas_custom "revoked$ended" >/dev/null 2>&1
  fi
  case " $answer " in
    *" usage "*)
      # ndsctl refused (another holds its lock) or no client is online: nothing is sent; the FAS asks again.
      usage_batches | while read -r batch; do
        "$lib" send_to_fas_custom "$batch" >/dev/null 2>&1
      done
      ;;
  esac
  sleep "$interval"
done
