import { jsonNull, toWireJson } from './wire-json';

describe('toWireJson', () => {
  it('leaves out null fields at every depth, keeps the rest', () => {
    expect(toWireJson({ a: null, b: 0, c: '', d: false, e: { f: null, g: [1, { h: null }] } })).toBe('{"b":0,"c":"","d":false,"e":{"g":[1,{}]}}');
  });

  it('keeps a null written as jsonNull, and nulls inside arrays', () => {
    expect(toWireJson({ limit: jsonNull, list: [null, 1] })).toBe('{"limit":null,"list":[null,1]}');
  });
});
