import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
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
});
