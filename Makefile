# The two commands a new user needs (README): `make up` and `make test`. Both install what
# they need first: npm packages from the lock file, the pinned Keycloak distribution and the
# Maven dependencies of spi-wrapper (cached under .cache/), and build everything.
.PHONY: up test install build bench kc-build kc-start kc-stop chromium freeradius

NODE_STAMP := node_modules/.install-stamp

up: build kc-build freeradius
	node --import tsx scripts/up.ts

test: build kc-build chromium freeradius
	node --import tsx scripts/test-run.ts

install: $(NODE_STAMP)

$(NODE_STAMP): package.json package-lock.json
	npm ci --no-audit --no-fund
	touch $@

build: install
	npm run build

bench: build kc-build
	npm run bench

# Debian chromium for the browser tests: installed when missing (root), else a message how.
chromium:
	scripts/ensure-chromium.sh

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
