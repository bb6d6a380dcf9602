import { parseAuditQuery } from '../../src/audit/audit-query';
import { AuditResourceLocators } from '../../src/audit/audit-locators';
import { AuditService } from '../../src/audit/audit.service';
import { customerAuditLocator, customerAuditPresenter } from '../../src/customers/queries/customer-audit-locator';
import { CliOutput, OperatorDatabase, OperatorError, openOperatorDatabase } from './database';
import { omitNulls } from '../../src/infra/http/wire-json';

export const AUDIT_USAGE = `Usage:
  npm run audit -- <resourceId> [--limit <1..100>] [--cursor <cursor>] [--all] [--platform <platformId>]
Prints the resource's event history with metadata, as GET /audit/events?resourceId= answers it:
{resourceId, data, hasMore, nextCursor?, totalCount}. --all prints every event in one answer.
--platform answers 404 unless the resource belongs to that platform, like the HTTP endpoint.
Exit codes: 0 found, 1 no history (404), 2 bad input (400) or connection error.`;

/** `scripts/audit.ts <resourceId> [--limit n] [--cursor c] [--all] [--platform id]`; answers the exit code. */
export async function runAuditCli(argv: string[], output: CliOutput): Promise<number> {
  const parsed = parseArguments(argv);
  if (parsed === null) {
    output.stderr.write(`${AUDIT_USAGE}\n`);
    return 2;
  }
  const { query, errors } = parseAuditQuery(parsed.query);
  if (errors.length > 0) {
    writeError(output, 400, 'INVALID_INPUT', 'The request has invalid fields', { errors });
    return 2;
  }
  let database: OperatorDatabase;
  try {
    database = await openOperatorDatabase(output.env);
  } catch (error) {
    output.stderr.write(`${error instanceof OperatorError ? error.message : String(error)}\n`);
    return 2;
  }
  output.stderr.write(`${database.description}\n`);
  try {
    const locators = new AuditResourceLocators();
    locators.register(customerAuditLocator(database.pool));
    locators.registerPresenter(customerAuditPresenter);
    const audit = new AuditService(database.store, locators);
    const limit = parsed.all ? Number.MAX_SAFE_INTEGER : query.limit;
    const page = await audit.history(query.resourceId, parsed.platformId, query.fromRevision, limit);
    if (!page) {
      writeError(output, 404, 'REFERENCE_NOT_FOUND', `No history for ${query.resourceId}`);
      return 1;
    }
    // The page as GET /audit/events writes it (src/infra/http/wire-json.ts: null fields left out).
    output.stdout.write(`${JSON.stringify(page, omitNulls, 2)}\n`);
    return 0;
  } finally {
    await database.close();
  }
}

interface AuditArguments {
  query: Record<string, unknown>;
  all: boolean;
  platformId: string | null;
}

function parseArguments(argv: string[]): AuditArguments | null {
  const query: Record<string, unknown> = {};
  let all = false;
  let platformId: string | null = null;
  const positional: string[] = [];
  for (let index = 0; index < argv.length; index++) {
    const argument = argv[index];
    if (argument === '--all') all = true;
    else if (argument === '--limit' || argument === '--cursor' || argument === '--platform') {
      const value = argv[++index];
      if (value === undefined) return null;
      if (argument === '--platform') platformId = value;
      else query[argument.slice(2)] = value;
    } else if (argument.startsWith('--')) return null;
    else positional.push(argument);
  }
  if (positional.length !== 1 || (all && (query.limit !== undefined || query.cursor !== undefined))) return null;
  query.resourceId = positional[0];
  return { query, all, platformId };
}

/** The HTTP error envelope, on stderr. */
function writeError(output: CliOutput, status: number, code: string, message: string, details?: Record<string, unknown>): void {
  output.stderr.write(`${JSON.stringify({ status, code, message, ...(details ? { details } : {}) }, null, 2)}\n`);
}
