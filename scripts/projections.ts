import 'reflect-metadata';
import { processOutput } from './operator/database';
import { runProjectionsCli } from './operator/projections-cli';

/**
 * `npm run projections:status | projections:rebuild [name...] | projections:verify [name...]`
 * (or `node dist/scripts/projections.js <command>` from a build). See scripts/operator/.
 */
runProjectionsCli(process.argv.slice(2), processOutput()).then(
  (code) => process.exit(code),
  (error) => {
    process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
    process.exit(2);
  },
);
