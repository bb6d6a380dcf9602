import { canonicalDeviceCode, newAccessToken, newDeviceCode, secretHash } from './agent-secrets';

describe('agent secrets', () => {
  it('device codes are AGENT-XXXX-XXXX in Crockford base32, and read back canonical', () => {
    const codes = new Set(Array.from({ length: 200 }, () => newDeviceCode()));
    expect(codes.size).toBe(200);
    for (const code of codes) {
      expect(code).toMatch(/^AGENT-[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}$/);
      expect(canonicalDeviceCode(code.toLowerCase())).toBe(code);
    }
  });

  it("typed codes: O is 0, I and L are 1; anything else is no code", () => {
    expect(canonicalDeviceCode('agent-o1il-abcd')).toBe('AGENT-0111-ABCD');
    expect(canonicalDeviceCode('AGENT-UUUU-AAAA')).toBeNull();
    expect(canonicalDeviceCode('GRID-AGENT-X7K9-M2P4')).toBeNull();
  });

  it('access tokens are gat_ and 40 hex; stored as sha256', () => {
    expect(newAccessToken()).toMatch(/^gat_[0-9a-f]{40}$/);
    expect(secretHash('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });
});
