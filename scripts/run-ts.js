'use strict';
/**
 * `node scripts/run-ts.js <file.ts> [args...]`: runs one of this repository's TypeScript entry
 * points (operator CLIs, benchmarks). From a checkout after `npm ci`, through ts-node (a
 * devDependency) without type checking; where devDependencies are absent (the production image:
 * `npm ci --omit=dev`), the compiled twin under dist/ instead (`npm run build` makes it).
 */
const fs = require('node:fs');
const path = require('node:path');

const [entry, ...args] = process.argv.slice(2);
if (!entry) {
  process.stderr.write('usage: node scripts/run-ts.js <file.ts> [args...]\n');
  process.exit(2);
}
const root = path.resolve(__dirname, '..');
const source = path.resolve(root, entry);
process.argv = [process.argv[0], source, ...args];

let tsNode = null;
try {
  tsNode = require.resolve('ts-node', { paths: [root] });
} catch {
  tsNode = null;
}
if (tsNode) {
  require(tsNode).register({ transpileOnly: true, project: path.join(root, 'tsconfig.json') });
  require(source);
} else {
  const compiled = path.join(root, 'dist', path.relative(root, source)).replace(/\.ts$/, '.js');
  if (!fs.existsSync(compiled)) {
    process.stderr.write(`ts-node is not installed and ${path.relative(root, compiled)} does not exist: run npm ci (with devDependencies) or npm run build\n`);
    process.exit(2);
  }
  require(compiled);
}
