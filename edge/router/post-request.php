<?php
# The signing post-request for an openNDS 9.10 router at FAS level 3: install it over
# /usr/lib/opennds/post-request.php (same arguments, same answer). Every request openNDS's scripts
# send the FAS goes through that file: authmon's polls and acknowledgements, BinAuth's
# deauthentication notices (libopennds.sh send_to_fas_deauthed) and revocation-poll.sh's
# (send_to_fas_custom). openNDS's own sends auth_get, gatewayhash and payload, which anyone behind
# the router can compute; this one adds ts, nonce and sig = HMAC-SHA256 under the router's faskey
# over "opennds-fas-v1\n<ts>\n<nonce>\n<auth_get>\n<gatewayhash>\n<base64 payload>" (contract
# authmonSignedText), and the platform refuses a request without a valid one. It runs on the
# php-cli that openNDS's own level 3 scripts need, with PHP's hash_hmac and random_bytes.
# The faskey is read as libopennds.sh reads it: UCI on OpenWrt, else /etc/opennds/opennds.conf.
# OPENNDS_CONFIG names another config file (tests only).

if (count($argv) < 5) {echo "missing argument\n"; exit(1);}
$remote_url = $argv[1];
$action = $argv[2];
$gatewayhash = $argv[3];
$user_agent = $argv[4];
$payload = base64_encode(isset($argv[5]) ? $argv[5] : "none");

$faskey = fas_key();
if ($faskey === "") {echo "ERROR: no faskey in the openNDS config: the request is not sent unsigned\n"; exit(1);}

$ts = (string) time();
$nonce = bin2hex(random_bytes(16));
$signed = implode("\n", array("opennds-fas-v1", $ts, $nonce, $action, $gatewayhash, $payload));
$fields = array(
	"auth_get" => $action,
	"gatewayhash" => $gatewayhash,
	"payload" => $payload,
	"ts" => $ts,
	"nonce" => $nonce,
	"sig" => hash_hmac("sha256", $signed, $faskey),
);
echo send_post_data($fields, $remote_url, $user_agent);

function fas_key() {
	if (file_exists("/etc/config/opennds") && getenv("OPENNDS_CONFIG") === false) {
		return trim((string) shell_exec("uci -q get 'opennds.@opennds[0].faskey'"));
	}
	$file = getenv("OPENNDS_CONFIG") !== false ? getenv("OPENNDS_CONFIG") : "/etc/opennds/opennds.conf";
	$text = @file_get_contents($file);
	if ($text === false) return "";
	return preg_match('/^[ \t]*faskey[ \t]+(\S+)/m', $text, $found) === 1 ? $found[1] : "";
}

function send_post_data($fields, $remote_url, $user_agent) {
	$body = http_build_query($fields);
	$context = stream_context_create(array(
		"http" => array(
			"method" => "POST",
			"header" => "Content-type: application/x-www-form-urlencoded\r\nContent-Length: " . strlen($body) . "\r\n",
			"user_agent" => $user_agent,
			"content" => $body,
		),
	));
	$stream = @fopen($remote_url, "r", false, $context);
	if ($stream === false) return "ERROR: Failed_to_open_stream_to: [$remote_url]";
	return trim(stream_get_contents($stream));
}
