import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AppConfig } from '../../infra/config';
import { OPERATOR_KEY_FILE, OperatorKey, generateOperatorKey, keyDigest, loadOrCreateKeyFile, matchesKey } from './operator-key';

describe('operator key', () => {
  let dataDir: string;

  beforeEach(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'operator-key-'));
  });

  afterEach(() => {
    rmSync(dataDir, { recursive: true, force: true });
  });

  const config = (mode: AppConfig['mode'], operatorKey: string | null) => ({ mode, dataDir, console: { operatorKey, lagSampleIntervalMs: 10_000 } }) as AppConfig;

  it('generates 256 random bits as hex', () => {
    const key = generateOperatorKey();
    expect(key).toMatch(/^[0-9a-f]{64}$/);
    expect(generateOperatorKey()).not.toBe(key);
  });

  it('matches only the same key, and nothing without one', () => {
    const digest = keyDigest('k'.repeat(40));
    expect(matchesKey(digest, 'k'.repeat(40))).toBe(true);
    expect(matchesKey(digest, 'k'.repeat(41))).toBe(false);
    expect(matchesKey(digest, '')).toBe(false);
    expect(matchesKey(null, 'k'.repeat(40))).toBe(false);
  });

  it('creates the sandbox key file once, mode 600, and reads it back on later starts', () => {
    const first = loadOrCreateKeyFile(dataDir);
    expect(first).toEqual({ key: expect.stringMatching(/^[0-9a-f]{64}$/), file: join(dataDir, OPERATOR_KEY_FILE), fresh: true });
    expect(statSync(first.file).mode & 0o777).toBe(0o600);
    expect(readFileSync(first.file, 'utf8')).toBe(`${first.key}\n`);
    expect(loadOrCreateKeyFile(dataDir)).toEqual({ ...first, fresh: false });
  });

  it('uses OPERATOR_KEY when set, without any file', () => {
    const key = new OperatorKey(config('sandbox', 'e'.repeat(32)));
    key.resolve();
    expect(key.matches('e'.repeat(32))).toBe(true);
    expect(() => statSync(join(dataDir, OPERATOR_KEY_FILE))).toThrow();
  });

  it('uses the key file in the sandbox when OPERATOR_KEY is unset', () => {
    writeFileSync(join(dataDir, OPERATOR_KEY_FILE), `${'f'.repeat(64)}\n`, { mode: 0o600 });
    const key = new OperatorKey(config('sandbox', null));
    expect(key.matches('f'.repeat(64))).toBe(false);
    key.resolve();
    expect(key.matches('f'.repeat(64))).toBe(true);
  });

  it('has no key in production without OPERATOR_KEY: everything is refused', () => {
    const key = new OperatorKey(config('production', null));
    key.resolve();
    expect(key.matches('')).toBe(false);
    expect(key.matches(generateOperatorKey())).toBe(false);
    expect(() => statSync(join(dataDir, OPERATOR_KEY_FILE))).toThrow();
  });
});
