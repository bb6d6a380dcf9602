#!/usr/bin/env bash
# Makes sure the browser that the console's browser tests drive (test/e2e/console/) is on this
# machine: Debian's `chromium` package, installed non-interactively when it is missing. The tests
# drive it through playwright-core with its executable path; no browser is ever downloaded any
# other way (no `playwright install`, no CDN). Quiet when chromium is present.
# CHROMIUM_PATH points the tests at another chromium binary and skips the install.
set -euo pipefail

log() { printf 'ensure-chromium: %s\n' "$*" >&2; }
fail() { printf 'ensure-chromium: ERROR: %s\n' "$*" >&2; exit 1; }

install_chromium() {
  local runner=()
  if [ "$(id -u)" -ne 0 ]; then
    if command -v sudo >/dev/null 2>&1; then
      runner=(sudo -n)
    else
      fail "chromium is not installed and this user is not root (no sudo either). Install it by hand: apt-get install chromium, or set CHROMIUM_PATH to a chromium binary."
    fi
  fi
  command -v apt-get >/dev/null 2>&1 \
    || fail "chromium is not installed and apt-get is not available. Install chromium by hand, or set CHROMIUM_PATH to a chromium binary."

  log "chromium not found; installing Debian's chromium (apt-get)..."
  local status=0
  {
    "${runner[@]}" apt-get update -qq \
      && "${runner[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
        --no-install-recommends chromium
  } >/tmp/ensure-chromium-apt.log 2>&1 || status=$?
  if [ "$status" -ne 0 ]; then
    tail -n 20 /tmp/ensure-chromium-apt.log >&2 || true
    fail "installing chromium with apt-get failed (exit $status; full log in /tmp/ensure-chromium-apt.log). Install it by hand or set CHROMIUM_PATH."
  fi
  hash -r
  command -v chromium >/dev/null 2>&1 \
    || fail "apt-get reported success but chromium is still not on PATH ($PATH)."
  log "installed $(chromium --version 2>/dev/null | tail -n 1)"
}

if [ -n "${CHROMIUM_PATH:-}" ]; then
  [ -x "$CHROMIUM_PATH" ] || fail "CHROMIUM_PATH=$CHROMIUM_PATH is not an executable file."
elif ! command -v chromium >/dev/null 2>&1; then
  install_chromium
fi
