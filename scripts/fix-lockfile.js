#!/usr/bin/env node
'use strict';
/**
 * The npm registry mirror these machines use serves only the Linux builds of some packages with
 * per-platform optional dependencies (msgpackr-extract, via bullmq). npm then leaves the other
 * platforms' entries out of package-lock.json, and `npm ci` refuses the lock ("Missing: ... from
 * lock file"). This adds those entries back, marked optional with their os/cpu, so `npm ci` skips
 * them as incompatible without fetching anything. Run it after any `npm install` that rewrote the
 * lock: `node scripts/fix-lockfile.js`.
 */
const fs = require('node:fs');
const path = require('node:path');

const lockPath = path.join(__dirname, '..', 'package-lock.json');
const lock = JSON.parse(fs.readFileSync(lockPath, 'utf8'));
let added = 0;

for (const [key, entry] of Object.entries(lock.packages)) {
  for (const [dependency, range] of Object.entries(entry.optionalDependencies ?? {})) {
    const candidates = [`${key ? `${key}/` : ''}node_modules/${dependency}`, `node_modules/${dependency}`];
    if (candidates.some((candidate) => lock.packages[candidate])) continue;
    const platform = platformOf(dependency);
    if (!platform) continue;
    lock.packages[`node_modules/${dependency}`] = {
      version: range.replace(/^[~^]/, ''),
      cpu: [platform.cpu],
      license: entry.license,
      optional: true,
      os: [platform.os],
    };
    added++;
  }
}

if (added > 0) {
  const sorted = {};
  for (const key of Object.keys(lock.packages).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))) sorted[key] = lock.packages[key];
  lock.packages = sorted;
  fs.writeFileSync(lockPath, `${JSON.stringify(lock, null, 2)}\n`);
}
console.log(`fix-lockfile: ${added} platform-specific optional entr${added === 1 ? 'y' : 'ies'} added`);

/** `@scope/name-darwin-arm64` -> {os: 'darwin', cpu: 'arm64'}; null for platform-neutral names. */
function platformOf(name) {
  const match = /-(darwin|linux|win32|freebsd|android|sunos|openbsd)-(x64|arm64|arm|ia32|ppc64|s390x|riscv64|loong64)(?:-[a-z]+)?$/.exec(name);
  return match ? { os: match[1], cpu: match[2] } : null;
}
