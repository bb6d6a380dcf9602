import { loadConfig } from './config';

const resolved = { databaseUrl: 'postgres://localhost/db', redisUrl: 'redis://localhost' };

describe('loadConfig', () => {
  it('hosted KYC links: 24 hours and the request origin by default', () => {
    expect(loadConfig({}, resolved).kycLinks).toEqual({ lifetimeMs: 86_400_000, publicBaseUrl: null });
  });

  it('reads KYC_LINK_LIFETIME_MS and PUBLIC_BASE_URL (a trailing slash dropped)', () => {
    const config = loadConfig({ KYC_LINK_LIFETIME_MS: '600000', PUBLIC_BASE_URL: 'https://api.example.com/payments/' }, resolved);
    expect(config.kycLinks).toEqual({ lifetimeMs: 600_000, publicBaseUrl: 'https://api.example.com/payments' });
  });

  it('refuses at start a base URL that is not an http(s) origin and path', () => {
    for (const base of ['api.example.com', 'ftp://api.example.com', 'https://api.example.com/?x=1', 'https://user@api.example.com']) {
      expect(() => loadConfig({ PUBLIC_BASE_URL: base }, resolved)).toThrow(/PUBLIC_BASE_URL/);
    }
    expect(() => loadConfig({ KYC_LINK_LIFETIME_MS: 'soon' }, resolved)).toThrow(/non-negative number/);
  });

  it('console: no operator key and a 10 s lag sample by default; OPERATOR_KEY read, a short or spaced one refused', () => {
    expect(loadConfig({}, resolved).console).toEqual({ operatorKey: null, lagSampleIntervalMs: 10_000 });
    const key = 'k'.repeat(32);
    expect(loadConfig({ OPERATOR_KEY: key, CONSOLE_LAG_SAMPLE_INTERVAL_MS: '500' }, resolved).console).toEqual({ operatorKey: key, lagSampleIntervalMs: 500 });
    for (const bad of ['k'.repeat(31), `${'k'.repeat(32)} x`]) expect(() => loadConfig({ OPERATOR_KEY: bad }, resolved)).toThrow(/OPERATOR_KEY/);
  });
});
