import { userInfo } from 'node:os';
import { erasePersonalData } from '../../src/customers/personal-data-erasure';
import { KEY_VAULT_DDL } from '../../src/infra/crypto/key-vault';
import { DomainError } from '../../src/infra/domain/domain-error';
import { EventStoreService } from '../../src/infra/event-store/event-store.service';
import { CommandStore } from '../../src/infra/commands/command-store';
import { parseId } from '../../src/infra/ids';
import { CliOutput, OperatorDatabase, OperatorError, openOperatorDatabase } from './database';

export const ERASE_USAGE = `Usage:
  npm run customers:erase -- <platformId> <customerId> --reason "<why>" [--by <operator>]
Erases the customer's secret personal data (tax identifier, beneficial owners' identifiers,
document numbers) by destroying its data key, after recording CustomerPersonalDataErased (who,
when, why) on the customer's stream. --by defaults to the login name. Running it again is safe.
Prints {customerId, status: ERASED | ALREADY_ERASED, erasedKeyIds}.
Exit codes: 0 erased (or already erased), 1 no such customer on that platform, 2 bad input or connection error.`;

/** `scripts/customers-erase.ts <platformId> <customerId> --reason r [--by name]`; answers the exit code. */
export async function runEraseCli(argv: string[], output: CliOutput): Promise<number> {
  const parsed = parseArguments(argv, output.env);
  if (typeof parsed === 'string') {
    output.stderr.write(`${parsed}\n${ERASE_USAGE}\n`);
    return 2;
  }
  let database: OperatorDatabase;
  try {
    database = await openOperatorDatabase(output.env);
    await database.pool.query(KEY_VAULT_DDL);
  } catch (error) {
    output.stderr.write(`${error instanceof OperatorError ? error.message : String(error)}\n`);
    return 2;
  }
  output.stderr.write(`${database.description}\n`);
  try {
    const result = await erasePersonalData(new CommandStore(new EventStoreService(database.store)), database.pool, parsed);
    output.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
    return 0;
  } catch (error) {
    if (error instanceof DomainError && error.code === 'USER_NOT_FOUND') {
      output.stderr.write(`${JSON.stringify({ status: 404, code: error.code, message: `No customer ${parsed.customerId} on platform ${parsed.platformId}` }, null, 2)}\n`);
      return 1;
    }
    throw error;
  } finally {
    await database.close();
  }
}

function parseArguments(argv: string[], env: NodeJS.ProcessEnv): { platformId: string; customerId: string; reason: string; erasedBy: string } | string {
  const positional: string[] = [];
  let reason: string | undefined;
  let by: string | undefined;
  for (let index = 0; index < argv.length; index++) {
    const argument = argv[index];
    if (argument === '--reason' || argument === '--by') {
      const value = argv[++index];
      if (value === undefined) return `${argument} needs a value`;
      if (argument === '--reason') reason = value;
      else by = value;
    } else if (argument.startsWith('--')) return `unknown option ${argument}`;
    else positional.push(argument);
  }
  if (positional.length !== 2) return 'expected <platformId> <customerId>';
  const [platformId, customerId] = positional;
  if (!parseId('Platform', platformId)) return `${platformId} is not a Platform:<uuid> id`;
  if (!parseId('Customer', customerId)) return `${customerId} is not a Customer:<uuid> id`;
  if (!reason?.trim()) return '--reason is required (it is recorded with the erasure)';
  const erasedBy = by?.trim() || env.USER || safeLoginName();
  if (!erasedBy) return '--by is required (no login name to default to)';
  return { platformId, customerId, reason: reason.trim(), erasedBy };
}

function safeLoginName(): string | undefined {
  try {
    return userInfo().username;
  } catch {
    return undefined;
  }
}
