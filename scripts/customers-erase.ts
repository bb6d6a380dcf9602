import 'reflect-metadata';
import { processOutput } from './operator/database';
import { runEraseCli } from './operator/customers-erase-cli';

/** `npm run customers:erase -- <platformId> <customerId> --reason "..."`: crypto-shreds a customer's secret personal data. */
runEraseCli(process.argv.slice(2), processOutput()).then(
  (code) => process.exit(code),
  (error) => {
    process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
    process.exit(2);
  },
);
