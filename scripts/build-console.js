'use strict';
/**
 * Bundles the console's front end (src/console/web, preact + TSX) into dist/console/{index.html,
 * app.js, app.css}, which the service serves at GET /console (src/console/console-static.controller.ts).
 * esbuild, minified, no source maps, no timestamps: the same sources give the same bytes.
 *
 * Usage: node scripts/build-console.js           build
 *        node scripts/build-console.js --if-stale build only when missing or older than its sources
 * The jest global setup calls buildConsoleIfStale() so the browser and static suites test the
 * current sources.
 */
const fs = require('node:fs');
const path = require('node:path');

const ROOT = path.resolve(__dirname, '..');
const SOURCE_DIR = path.join(ROOT, 'src', 'console', 'web');
const OUT_DIR = path.join(ROOT, 'dist', 'console');
const OUTPUTS = ['index.html', 'app.js', 'app.css'];

async function buildConsole() {
  // Loaded here: a service started from a built image never needs esbuild.
  const esbuild = require('esbuild');
  fs.mkdirSync(OUT_DIR, { recursive: true });
  await esbuild.build({
    entryPoints: [path.join(SOURCE_DIR, 'main.tsx')],
    // app.css is emitted next to app.js from the stylesheet main.tsx imports.
    outfile: path.join(OUT_DIR, 'app.js'),
    bundle: true,
    minify: true,
    format: 'iife',
    target: ['es2020'],
    platform: 'browser',
    jsx: 'automatic',
    jsxImportSource: 'preact',
    tsconfig: path.join(ROOT, 'tsconfig.console.json'),
    legalComments: 'none',
    sourcemap: false,
    logLevel: 'warning',
    define: { 'process.env.NODE_ENV': '"production"' },
  });
  fs.copyFileSync(path.join(SOURCE_DIR, 'index.html'), path.join(OUT_DIR, 'index.html'));
}

/** True when an output is missing or any source (or this script) is newer than the oldest output. */
function isStale() {
  let oldestOutputMs = Infinity;
  for (const name of OUTPUTS) {
    const file = path.join(OUT_DIR, name);
    if (!fs.existsSync(file)) return true;
    oldestOutputMs = Math.min(oldestOutputMs, fs.statSync(file).mtimeMs);
  }
  return newestSourceMs(SOURCE_DIR, fs.statSync(__filename).mtimeMs) > oldestOutputMs;
}

function newestSourceMs(dir, newestMs) {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const file = path.join(dir, entry.name);
    newestMs = entry.isDirectory() ? newestSourceMs(file, newestMs) : Math.max(newestMs, fs.statSync(file).mtimeMs);
  }
  return newestMs;
}

async function buildConsoleIfStale() {
  if (!isStale()) return false;
  await buildConsole();
  return true;
}

module.exports = { buildConsole, buildConsoleIfStale, CONSOLE_OUT_DIR: OUT_DIR };

if (require.main === module) {
  const run = process.argv.includes('--if-stale') ? buildConsoleIfStale : buildConsole;
  const startedMs = Date.now();
  run()
    .then((built) => {
      if (built !== false) console.log(`console built in ${Date.now() - startedMs} ms: ${path.relative(ROOT, OUT_DIR)}/{${OUTPUTS.join(',')}}`);
    })
    .catch((error) => {
      console.error(error.message ?? error);
      process.exit(1);
    });
}
