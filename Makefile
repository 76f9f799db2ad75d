# The two commands a new user needs (README): `make up` and `make test`. Both install what
# they need first: npm packages from the lock file, the pinned Keycloak distribution and the
# Maven dependencies of spi-wrapper (cached under .cache/), and build everything.
# `make up-cluster`: the production topology on this machine (docs/operate/cluster.md).
.PHONY: up up-cluster test lint install build bench kc-build kc-start kc-stop debian-packages freeradius opennds coova

NODE_STAMP := node_modules/.install-stamp

up: build kc-build freeradius
	node --import tsx scripts/up.ts

up-cluster: build debian-packages
	node --import tsx scripts/up-cluster.ts

test: build lint kc-build debian-packages freeradius opennds coova
	node --import tsx scripts/test-run.ts

install: $(NODE_STAMP)

$(NODE_STAMP): package.json package-lock.json
	npm ci --no-audit --no-fund
	touch $@

build: install
	npm run build

# The linter (biome.jsonc) and the import rules (scripts/import-rules.ts): fast, and first in `make test`.
lint: install
	npm run lint

bench: build kc-build
	npm run bench

# Debian packages the tests use, installed when missing (root), else a message how: chromium for
# the browser tests, nginx for the TLS-terminating proxy test, prometheus for the cluster's metrics.
# eapoltest (wpa_supplicant's eapol_test) is the real 802.1X supplicant of the EAP tests (test/services/gateway/eap.test.ts, test/e2e/gateway/eap.test.ts);
# python3's plistlib reads the Apple Wi-Fi profiles back (test/edge/device-profiles.test.ts).
DEBIAN_PACKAGES := /usr/bin/chromium:chromium /usr/sbin/nginx:nginx-light /usr/bin/prometheus:prometheus /usr/bin/eapol_test:eapoltest /usr/bin/python3:python3
debian-packages:
	scripts/ensure-debian.sh $(DEBIAN_PACKAGES)

# Keycloak runtime (kc-extension/README.md)
kc-build: install
	scripts/kc.sh build

kc-start:
	scripts/kc.sh start

kc-stop:
	scripts/kc.sh stop

# Debian FreeRADIUS (server, rest module, radclient) for the gateway's RADIUS side: installed when missing.
freeradius:
	scripts/ensure-freeradius.sh

# Debian openNDS (with legacy iptables and php-cli) for the real enforcement tests in test/opennds/:
# installed when missing as root; elsewhere those tests report themselves skipped with the reason,
# so a failure here does not stop the run.
opennds:
	-scripts/ensure-opennds.sh

# CoovaChilli 1.8 and 1.9 built from the release sources in ../shared/vendor/coova-chilli/ into
# .cache/coova/<release>/ (once; a built release is left alone) for test/e2e/coova/. As with
# openNDS a failure here does not stop the run: those tests then fail at once naming what is missing.
coova:
	-scripts/ensure-coova.sh
