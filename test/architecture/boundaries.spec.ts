import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The architecture rules of `.dependency-cruiser.js` (docs/architecture.md "Boundaries"): no
 * import cycles, contexts only through each other's public entry, pure domain code, infra
 * without business code. One failing import names the rule and the path.
 */
const ROOT = join(__dirname, '..', '..');

interface Violation {
  from: string;
  to: string;
  rule: { name: string };
  cycle?: Array<{ name: string }>;
}

function cruise(): { violations: Violation[]; modules: number } {
  let output: string;
  try {
    output = execFileSync(process.execPath, [join(ROOT, 'node_modules', 'dependency-cruiser', 'bin', 'dependency-cruise.mjs'), 'src', 'projections', '--config', '.dependency-cruiser.js', '--output-type', 'json'], {
      cwd: ROOT,
      encoding: 'utf8',
      maxBuffer: 256 * 1024 * 1024,
    });
  } catch (error) {
    // depcruise exits non-zero when it finds violations; the JSON is still on stdout.
    output = (error as { stdout: string }).stdout;
  }
  const result = JSON.parse(output) as { summary: { violations: Violation[]; totalCruised: number } };
  return { violations: result.summary.violations, modules: result.summary.totalCruised };
}

/** Every `.ts` file under `directory`, specs excluded, as paths relative to the repository root. */
function sourceFiles(directory: string): string[] {
  return readdirSync(join(ROOT, directory), { withFileTypes: true }).flatMap((entry) => {
    const path = join(directory, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.spec.ts') ? [path] : [];
  });
}

const MAX_LINES = 400;

describe('architecture', () => {
  it('has no import cycle and crosses context boundaries only through public entries', () => {
    const { violations, modules } = cruise();
    expect(modules).toBeGreaterThan(200);
    const described = violations.map((violation) =>
      violation.cycle ? `${violation.rule.name}: ${violation.from} -> ${violation.cycle.map((step) => step.name).join(' -> ')}` : `${violation.rule.name}: ${violation.from} -> ${violation.to}`,
    );
    expect(described).toEqual([]);
  }, 120_000);

  it('gives every context one public entry file', () => {
    const contexts = readdirSync(join(ROOT, 'src'), { withFileTypes: true })
      .filter((entry) => entry.isDirectory() && !['infra', 'shared'].includes(entry.name))
      .map((entry) => entry.name);
    expect(contexts.length).toBeGreaterThan(8);
    expect(contexts.filter((context) => !existsSync(join(ROOT, 'src', context, 'index.ts')))).toEqual([]);
  });

  it(`keeps every source file under ${MAX_LINES} lines`, () => {
    const files = [...sourceFiles('src'), ...sourceFiles('projections')];
    expect(files.length).toBeGreaterThan(200);
    const offenders = files
      .map((path) => ({ path, lines: readFileSync(join(ROOT, path), 'utf8').split('\n').length }))
      .filter((file) => file.lines >= MAX_LINES)
      .map((file) => `${file.path}: ${file.lines} lines`);
    expect(offenders).toEqual([]);
  });
});
