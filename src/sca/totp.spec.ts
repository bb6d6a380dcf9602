import {
  TotpAlgorithm, base32Decode, base32Encode, hotp, matchTotp, normalizeRecoveryCode, recoveryCodeFrom, recoveryCodeHash, totpAt, totpTimeStep, totpUri,
} from './totp';

// RFC 6238 appendix B: the seeds are the ASCII digits "1234567890" repeated to the hash's size.
const seed = (bytes: number) => Buffer.from('1234567890'.repeat(7).slice(0, bytes), 'ascii');
const SEEDS: Record<TotpAlgorithm, Buffer> = { sha1: seed(20), sha256: seed(32), sha512: seed(64) };

// [unix seconds, SHA-1, SHA-256, SHA-512], 8 digits, 30-second steps (RFC 6238 appendix B).
const VECTORS: Array<[number, string, string, string]> = [
  [59, '94287082', '46119246', '90693936'],
  [1111111109, '07081804', '68084774', '25091201'],
  [1111111111, '14050471', '67062674', '99943326'],
  [1234567890, '89005924', '91819424', '93441116'],
  [2000000000, '69279037', '90698825', '38618901'],
  [20000000000, '65353130', '77737706', '47863826'],
];

describe('TOTP (RFC 6238)', () => {
  it.each(VECTORS)('at %i s gives the RFC 6238 test vectors for SHA-1, SHA-256 and SHA-512', (seconds, sha1, sha256, sha512) => {
    const at = (algorithm: TotpAlgorithm) => totpAt(SEEDS[algorithm], seconds * 1000, { algorithm, digits: 8, periodSeconds: 30 });
    expect({ sha1: at('sha1'), sha256: at('sha256'), sha512: at('sha512') }).toEqual({ sha1, sha256, sha512 });
  });

  it('gives the RFC 4226 HOTP vectors (6 digits, SHA-1) for counters 0 to 9', () => {
    const codes = Array.from({ length: 10 }, (_, counter) => hotp(seed(20), counter));
    expect(codes).toEqual(['755224', '287082', '359152', '969429', '338314', '254676', '287922', '162583', '399871', '520489']);
  });

  it('time steps are floor(seconds / 30)', () => {
    expect([totpTimeStep(0), totpTimeStep(29_999), totpTimeStep(30_000), totpTimeStep(1111111109_000)]).toEqual([0, 0, 1, 37037036]);
  });

  it('matches a code of the current step or one step either side, and answers which step', () => {
    const secret = seed(20);
    const now = 1111111111_000; // step 37037037
    const step = totpTimeStep(now);
    expect(matchTotp(secret, hotp(secret, step), now)).toBe(step);
    expect(matchTotp(secret, hotp(secret, step - 1), now)).toBe(step - 1);
    expect(matchTotp(secret, hotp(secret, step + 1), now)).toBe(step + 1);
    expect(matchTotp(secret, hotp(secret, step - 2), now)).toBeNull();
    expect(matchTotp(secret, hotp(secret, step + 2), now)).toBeNull();
    expect(matchTotp(secret, hotp(secret, step), now, 0)).toBe(step);
    expect(matchTotp(secret, hotp(secret, step - 1), now, 0)).toBeNull();
    for (const malformed of ['', '12345', '1234567', '12345a', ' 123456']) expect(matchTotp(secret, malformed, now)).toBeNull();
  });

  it('base32 (RFC 4648 section 10 vectors, without padding) and back, tolerant of case, spaces and padding', () => {
    const vectors: Array<[string, string]> = [['f', 'MY'], ['fo', 'MZXQ'], ['foo', 'MZXW6'], ['foob', 'MZXW6YQ'], ['fooba', 'MZXW6YTB'], ['foobar', 'MZXW6YTBOI']];
    for (const [plain, encoded] of vectors) {
      expect(base32Encode(Buffer.from(plain))).toBe(encoded);
      expect(base32Decode(encoded)?.toString()).toBe(plain);
    }
    expect(base32Decode('mzxw 6ytb oi======')?.toString()).toBe('foobar');
    const secret = seed(20);
    expect(base32Encode(secret)).toBe('GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ');
    expect(base32Encode(secret)).toHaveLength(32);
    for (const bad of ['', 'MZXW1', 'MZXW6YTB0', 'MZ!X', 'MZ']) expect(base32Decode(bad)).toBeNull();
  });

  it('builds the otpauth URI with the issuer as prefix and parameter, both escaped', () => {
    expect(totpUri({ issuer: 'Service', label: 'erika@example.de', secretBase32: 'GEZDGNBV' })).toBe(
      'otpauth://totp/Service:erika%40example.de?secret=GEZDGNBV&issuer=Service',
    );
    expect(totpUri({ issuer: 'My Bank', label: 'a:b', secretBase32: 'GE' })).toBe('otpauth://totp/My%20Bank:a%3Ab?secret=GE&issuer=My%20Bank');
  });

  it('recovery codes: ABCD-EFGH-IJKL from random bytes, hashed in their one normal form', () => {
    const code = recoveryCodeFrom(Buffer.from('0011223344556677', 'hex'));
    expect(code).toMatch(/^[A-Z2-7]{4}-[A-Z2-7]{4}-[A-Z2-7]{4}$/);
    expect(code).toBe('AAIS-EM2E-KVTH');
    expect(normalizeRecoveryCode(' aais-em2e-kvth ')).toBe('AAISEM2EKVTH');
    expect(recoveryCodeHash('aaisem2ekvth')).toBe(recoveryCodeHash(code));
    expect(recoveryCodeHash(code)).toMatch(/^[0-9a-f]{64}$/);
    for (const bad of ['123456', 'AAIS-EIZU-IVL', 'AAIS-EIZU-IVL1']) expect(recoveryCodeHash(bad)).toBeNull();
    expect(() => recoveryCodeFrom(Buffer.alloc(7))).toThrow();
  });
});
