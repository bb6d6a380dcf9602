import { ALL_PROJECTIONS } from '../../projections';
import { positionToString } from '../../src/infra/event-store/event-store.port';
import { Projection } from '../../src/infra/projections/projection';
import { ProjectionReplayError, RebuildInProgressError, rebuildProjection, verifyProjection } from '../../src/infra/projections/projection-rebuild';
import { ConsumerStatus, projectionsStatus } from '../../src/infra/projections/projection-status';
import { CliOutput, OperatorDatabase, OperatorError, openOperatorDatabase } from './database';
import { ProgressBar } from './progress-bar';

export const PROJECTIONS_USAGE = `Usage:
  npm run projections:status [-- --json]         each projection's and reactor's position, lag and error
  npm run projections:rebuild [-- <name>...]     replay the log into fresh tables and swap them in (all when no name)
  npm run projections:verify [-- <name>...] [--json]
                                                 rebuild in scratch tables and compare with the live read models
Exit codes: 0 done (verify: no difference), 1 verify found a difference or a rebuild failed, 2 usage or connection error.`;

/** `scripts/projections.ts <status|rebuild|verify> [names...] [--json]`; answers the exit code. */
export async function runProjectionsCli(argv: string[], output: CliOutput, projections: Projection[] = ALL_PROJECTIONS): Promise<number> {
  const [command, ...rest] = argv;
  const json = rest.includes('--json');
  const names = rest.filter((argument) => !argument.startsWith('--'));
  const unknownFlags = rest.filter((argument) => argument.startsWith('--') && argument !== '--json');
  if (!['status', 'rebuild', 'verify'].includes(command ?? '') || unknownFlags.length > 0 || (command === 'status' && names.length > 0)) {
    output.stderr.write(`${PROJECTIONS_USAGE}\n`);
    return 2;
  }
  const unknown = names.filter((name) => !projections.some((projection) => projection.name === name));
  if (unknown.length > 0) {
    output.stderr.write(`unknown projection ${unknown.join(', ')}; known: ${projections.map((projection) => projection.name).join(', ')}\n`);
    return 2;
  }
  const selected = names.length > 0 ? projections.filter((projection) => names.includes(projection.name)) : projections;

  let database: OperatorDatabase;
  try {
    database = await openOperatorDatabase(output.env);
  } catch (error) {
    output.stderr.write(`${error instanceof OperatorError ? error.message : String(error)}\n`);
    return 2;
  }
  output.stderr.write(`${database.description}\n`);
  try {
    if (command === 'status') return await status(database, projections, output, json);
    if (command === 'rebuild') return await rebuild(database, selected, output);
    return await verify(database, selected, output, json);
  } finally {
    await database.close();
  }
}

async function status(database: OperatorDatabase, projections: Projection[], output: CliOutput, json: boolean): Promise<number> {
  const report = await projectionsStatus(database.pool, database.store, projections);
  if (json) {
    output.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
    return 0;
  }
  const header = ['NAME', 'KIND', 'STATE', 'POSITION', 'LAG EVENTS', 'LAG S', 'APPLIED', 'UPDATED'];
  const rows = report.consumers.map((consumer) => [
    consumer.name,
    consumer.kind,
    consumer.state === 'version-changed' ? `version ${consumer.version} -> ${consumer.codeVersion}` : consumer.state,
    consumer.position,
    `${consumer.lagCapped ? '>=' : ''}${consumer.lagEvents}`,
    consumer.lagSeconds.toFixed(1),
    String(consumer.eventsApplied),
    consumer.updatedAt ?? '-',
  ]);
  output.stdout.write(`head ${report.head}\n${table([header, ...rows])}`);
  for (const consumer of report.consumers.filter((candidate: ConsumerStatus) => candidate.lastError)) {
    output.stdout.write(`${consumer.name} is stuck since ${consumer.lastErrorAt}: ${consumer.lastError}\n`);
  }
  return 0;
}

async function rebuild(database: OperatorDatabase, projections: Projection[], output: CliOutput): Promise<number> {
  for (const projection of projections) {
    const bar = new ProgressBar(output.stderr, projection.name);
    try {
      const result = await rebuildProjection(database.pool, database.store, projection, (progress) =>
        bar.update(progress.fraction, progress.eventsRead),
      );
      bar.finish(result.eventsRead);
      output.stdout.write(
        `${projection.name}: rebuilt from ${result.eventsRead.toLocaleString('en-US')} events ` +
          `(${result.eventsApplied.toLocaleString('en-US')} applied) in ${(result.durationMs / 1000).toFixed(1)} s, ` +
          `swapped in at ${positionToString(result.position)}` +
          (result.swapAttempts > 1 ? ` (at attempt ${result.swapAttempts}: readers held the live tables past the lock timeout)` : '') +
          '\n',
      );
    } catch (error) {
      output.stderr.write('\n');
      if (error instanceof ProjectionReplayError || error instanceof RebuildInProgressError) {
        output.stderr.write(`${projection.name}: rebuild failed, the live tables are untouched: ${error.message}\n`);
        return 1;
      }
      throw error;
    }
  }
  return 0;
}

async function verify(database: OperatorDatabase, projections: Projection[], output: CliOutput, json: boolean): Promise<number> {
  const results = [];
  let different = false;
  for (const projection of projections) {
    const bar = new ProgressBar(output.stderr, `verify ${projection.name}`);
    try {
      const result = await verifyProjection(database.pool, database.store, projection, (progress) =>
        bar.update(progress.fraction, progress.eventsRead),
      );
      bar.finish(result.eventsReplayed);
      results.push({ ...result, position: positionToString(result.position) });
      if (result.differences.length > 0) different = true;
      if (json) continue;
      const where = `${result.eventsReplayed.toLocaleString('en-US')} events up to ${positionToString(result.position)}`;
      const versionNote = result.liveVersion !== projection.version ? ` (live tables built by version ${result.liveVersion}, code is version ${projection.version})` : '';
      if (result.differences.length === 0) {
        output.stdout.write(`${projection.name}: no difference (replayed ${where})${versionNote}\n`);
        continue;
      }
      output.stdout.write(`${projection.name}: DIFFERS from the log (replayed ${where})${versionNote}\n`);
      for (const difference of result.differences) {
        output.stdout.write(
          `  ${difference.table}: ${difference.missingFromLive} row(s) the log produces are missing or different in the live table, ` +
            `${difference.extraInLive} live row(s) the log does not produce\n`,
        );
        for (const row of difference.sampleMissing) output.stdout.write(`    expected: ${JSON.stringify(row)}\n`);
        for (const row of difference.sampleExtra) output.stdout.write(`    live:     ${JSON.stringify(row)}\n`);
      }
    } catch (error) {
      output.stderr.write('\n');
      if (error instanceof ProjectionReplayError) {
        output.stderr.write(`${projection.name}: verification failed: ${error.message}\n`);
        return 1;
      }
      throw error;
    }
  }
  if (json) output.stdout.write(`${JSON.stringify(results, null, 2)}\n`);
  if (different && !json) output.stdout.write('Run npm run projections:rebuild -- <name> to replace a read model by the one the log produces.\n');
  return different ? 1 : 0;
}

function table(rows: string[][]): string {
  const widths = rows[0].map((_, column) => Math.max(...rows.map((row) => row[column].length)));
  return rows.map((row) => row.map((cell, column) => cell.padEnd(widths[column])).join('  ').trimEnd()).join('\n') + '\n';
}
