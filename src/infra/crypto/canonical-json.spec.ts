import fc from 'fast-check';
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

  it('names the path of what it refuses, and refuses a cycle', () => {
    expect(() => canonicalJson({ a: [1, { b: NaN }] })).toThrow('canonicalJson: $.a[1].b is not a finite number');
    const cyclic: Record<string, unknown> = { a: [] };
    (cyclic.a as unknown[]).push(cyclic);
    expect(() => canonicalJson(cyclic)).toThrow('canonicalJson: $.a[0] refers to a container around it (a cycle)');
    // The same object twice side by side is no cycle.
    const shared = { x: 1 };
    expect(canonicalJson([shared, shared])).toBe('[{"x":1},{"x":1}]');
  });

  it('writes data nested deeper than the call stack allows', () => {
    const depth = 200_000;
    let nested: unknown = 'leaf';
    for (let level = 0; level < depth; level++) nested = level % 2 === 0 ? [nested] : { k: nested };
    expect(canonicalJson(nested)).toBe('{"k":['.repeat(depth / 2) + '"leaf"' + ']}'.repeat(depth / 2));
  });

  it('is JSON.parse-able, round-trips, and ignores the order keys were set in (property)', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const text = canonicalJson(value);
        expect(canonicalJson(JSON.parse(text))).toBe(text);
        expect(canonicalJson(reversedKeys(value))).toBe(text);
        // Same data as JSON.stringify writes (keys aside): -0 and all.
        expect(JSON.parse(text)).toEqual(JSON.parse(JSON.stringify(value)));
      }),
    );
  });
});

function reversedKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(reversedKeys);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).reverse().map(([key, item]) => [key, reversedKeys(item)]));
}
