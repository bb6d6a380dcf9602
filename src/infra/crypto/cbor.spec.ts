import { decodeCbor, decodeCborPrefix, encodeCbor } from './cbor';

describe('decodeCbor', () => {
  it('reads integers, text, bytes, arrays, maps and simple values', () => {
    const value = decodeCbor(
      Buffer.from(
        'a6' + '01' + '02' + '03' + '26' + '20' + '01' + '63666d74' + '646e6f6e65' + '42' + 'abcd' + '83' + 'f4f5f6' + '19' + '0100' + '1b' + '0020000000000000',
        'hex',
      ),
    );
    expect(value).toEqual(
      new Map<unknown, unknown>([
        [1, 2],
        [3, -7],
        [-1, 1],
        ['fmt', 'none'],
        [Buffer.from('abcd', 'hex'), [false, true, null]],
        [256, 9007199254740992n],
      ]),
    );
  });

  it('reads the encoder used by the test authenticator', () => {
    const map = new Map<unknown, unknown>([['authData', Buffer.alloc(300, 1)], ['n', 70000], ['m', -500]]);
    expect(decodeCbor(encodeCbor(map))).toEqual(map);
  });

  it('reports where a prefix item ends', () => {
    expect(decodeCborPrefix(Buffer.from('0102', 'hex'), 0)).toEqual({ value: 1, next: 1 });
  });

  it.each([
    ['trailing bytes', '0101'],
    ['a truncated input', '5a00000010aa'],
    ['an indefinite length', '5f4101ff'],
    ['a float', 'f93c00'],
    ['a duplicate key', 'a20101010102'],
    ['invalid UTF-8 text', '62c328'],
    ['deep nesting', '81'.repeat(40) + '01'],
    ['an empty input', ''],
  ])('refuses %s', (_name, hex) => {
    expect(() => decodeCbor(Buffer.from(hex, 'hex'))).toThrow();
  });
});
