import { canonicalJson, canonicalJsonSha256Hex } from './canonical-json';

describe('canonicalJson', () => {
  it('sorts keys at every depth and writes no whitespace', () => {
    expect(canonicalJson({ b: 1, a: { d: [3, { f: 1, e: 2 }], c: 'x' } })).toBe('{"a":{"c":"x","d":[3,{"e":2,"f":1}]},"b":1}');
  });

  it('sorts by UTF-16 code units and escapes as JSON does', () => {
    expect(canonicalJson({ é: 1, z: 2, Z: 3, '\n': 'line\n"q"' })).toBe('{"\\n":"line\\n\\"q\\"","Z":3,"z":2,"é":1}');
  });

  it('leaves out undefined properties, writes undefined array items as null, and uses toJSON', () => {
    expect(canonicalJson({ a: undefined, b: [undefined, null], c: new Date(0) })).toBe('{"b":[null,null],"c":"1970-01-01T00:00:00.000Z"}');
  });

  it('refuses what JSON cannot carry faithfully', () => {
    for (const bad of [undefined, NaN, Infinity, { a: -Infinity }, { a: 1n }, { a: () => 1 }, Symbol('s')]) {
      expect(() => canonicalJson(bad)).toThrow(TypeError);
    }
  });

  it('hashes the canonical text', () => {
    expect(canonicalJsonSha256Hex({ b: 2, a: 1 })).toBe(canonicalJsonSha256Hex({ a: 1, b: 2 }));
    expect(canonicalJsonSha256Hex({})).toBe('44136fa355b3678a1146ad16f7e8649e94fb4fc21fe77e8310c060f61caaff8a');
  });
});
