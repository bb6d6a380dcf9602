import 'reflect-metadata';
import { runAuditCli } from './operator/audit-cli';
import { processOutput } from './operator/database';

/** `npm run audit -- <resourceId>`: the CLI twin of GET /audit/events?resourceId=. */
runAuditCli(process.argv.slice(2), processOutput()).then(
  (code) => process.exit(code),
  (error) => {
    process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
    process.exit(2);
  },
);
