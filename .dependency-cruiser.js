/**
 * The architecture rules (docs/architecture.md "Boundaries"), checked by
 * test/architecture/boundaries.spec.ts on every test run. Tests, benches and scripts may reach
 * into any context (white-box); the rules hold for src/ and projections/.
 */
const { readdirSync } = require('node:fs');
const { join } = require('node:path');

/** Every folder of src/ but the kernel is a context: a new one is covered without editing this file. */
const CONTEXTS = `(${readdirSync(join(__dirname, 'src'), { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && !['infra', 'shared'].includes(entry.name))
  .map((entry) => entry.name)
  .join('|')})`;

module.exports = {
  forbidden: [
    {
      name: 'no-cycles',
      severity: 'error',
      comment: 'No import cycles: contexts form a directed graph (a cycle means two contexts are one, or a port is missing).',
      from: { path: '^(src|projections)/' },
      to: { circular: true },
    },
    {
      name: 'context-public-entry',
      severity: 'error',
      comment: "A context uses another context only through that context's public entry (src/<context>/index.ts).",
      from: { path: `^src/([^/]+)/` },
      to: { path: `^src/${CONTEXTS}/`, pathNot: ['^src/$1/', `^src/${CONTEXTS}/index\\.ts$`] },
    },
    {
      name: 'root-and-read-models-use-public-entries',
      severity: 'error',
      comment: "The app's composition root and the read models use contexts through their public entries.",
      from: { path: '^(projections/|src/[^/]+\\.ts$)' },
      to: { path: `^src/${CONTEXTS}/`, pathNot: `^src/${CONTEXTS}/index\\.ts$` },
    },
    {
      name: 'domain-is-pure',
      severity: 'error',
      comment: 'Domain code (deciders, events, rules) imports only its own domain and the kernel (src/infra/domain, ids, shared currencies).',
      from: { path: '^src/([^/]+)/domain/' },
      to: {
        pathNot: ['^src/$1/domain/', '^src/infra/domain/', '^src/infra/ids\\.ts$', '^src/shared/currencies\\.ts$'],
        dependencyTypesNot: ['core'],
      },
    },
    {
      name: 'infra-imports-no-business-code',
      severity: 'error',
      comment: 'src/infra is the runtime: it knows no context and no read model (the app module hands it the projections).',
      from: { path: '^src/infra/' },
      to: { path: [`^src/${CONTEXTS}/`, '^projections/', '^src/[^/]+\\.ts$'] },
    },
    {
      name: 'controllers-only-dispatch',
      severity: 'error',
      comment:
        'No controller decides: an HTTP controller turns the request into a command for the CommandBus (or reads a query); the command handler and the decider hold the rules.',
      from: { path: '^src/[^/]+/http/' },
      to: { path: ['^src/infra/commands/', '\\.decider\\.ts$', '^src/infra/event-store/'] },
    },
    {
      name: 'contexts-do-not-import-the-app',
      severity: 'error',
      comment: 'Only main.ts and the app factory compose the application.',
      from: { path: `^(src/${CONTEXTS}/|projections/)` },
      to: { path: '^src/[^/]+\\.ts$' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: ['\\.spec\\.ts$', '^test/', '^node_modules/'] },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.js', '.json'] },
  },
};
