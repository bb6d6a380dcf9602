import type { Request } from 'express';
import { DomainError, ValidationError } from '../domain/domain-error';
import {
  MAX_JSON_DEPTH, MAX_LISTED_TEXT_ERRORS, bodyReadingError, depthProblem, hostileInputProblem, isUnstorableText, parseContentType, textProblems,
  unreadableBodyProblem,
} from './request-body';

/** `[[[...]]]` (arrays) or `{"a":{"a":...}}` (objects) nested `depth` levels, built without recursion. */
function nested(depth: number, kind: 'array' | 'object'): unknown {
  let value: unknown = kind === 'array' ? [] : {};
  for (let level = 1; level < depth; level += 1) value = kind === 'array' ? [value] : { a: value };
  return value;
}

function request(headers: Record<string, string>, path = '/2025-10-13/customers', extra: Partial<Request> = {}): Request {
  return { headers, path, query: {}, ...extra } as unknown as Request;
}

const MULTIPART = new Set(['/2025-10-13/documents']);

describe('depthProblem', () => {
  it.each(['array', 'object'] as const)('accepts %s bodies nested exactly MAX_JSON_DEPTH levels', (kind) => {
    expect(depthProblem(nested(MAX_JSON_DEPTH, kind))).toBeNull();
  });

  it.each(['array', 'object'] as const)('refuses %s bodies one level deeper, naming body', (kind) => {
    expect(depthProblem(nested(MAX_JSON_DEPTH + 1, kind))).toEqual({
      field: 'body', constraint: {}, message: `The request body nests objects and arrays deeper than ${MAX_JSON_DEPTH} levels`,
    });
  });

  it('walks 100,000 levels without overflowing the stack', () => {
    expect(depthProblem(nested(100_000, 'array'))).toEqual(expect.objectContaining({ field: 'body' }));
  });

  it('counts depth, not size: wide flat bodies and scalars pass', () => {
    expect(depthProblem({ list: Array.from({ length: 10_000 }, (_, index) => ({ index })) })).toBeNull();
    for (const scalar of [null, 0, 'text', true]) expect(depthProblem(scalar)).toBeNull();
  });
});

describe('textProblems', () => {
  it('lists every string value and key holding U+0000 or an unpaired surrogate, with its path', () => {
    const body = {
      fullName: 'Ada\u0000',
      address: { line1: 'ok', city: '\uD800x' },
      tags: ['fine', 'x\uDC00'],
      'bad\u0000key': 'value',
      nested: [{ deep: { 'k\uDBFF': 1 } }],
    };
    expect(textProblems(body, '').map((error) => error.field)).toEqual([
      'fullName', 'address.city', 'tags.1', 'bad\\u0000key', 'nested.0.deep.k\\udbff',
    ]);
    for (const error of textProblems(body, '')) {
      expect(error).toEqual({ field: error.field, constraint: {}, message: expect.stringContaining('U+0000 or an unpaired surrogate') });
    }
  });

  it('accepts surrogate pairs (emoji) and every other text', () => {
    expect(textProblems({ name: 'Zoë 😀 \uD83D\uDE00', list: ['\u0001', '\uFFFD', ''] }, '')).toEqual([]);
  });

  it('names a bare string body `body`', () => {
    expect(textProblems('\u0000', '')).toEqual([expect.objectContaining({ field: 'body' })]);
  });

  it('lists at most MAX_LISTED_TEXT_ERRORS fields', () => {
    expect(textProblems(Array.from({ length: 1000 }, () => '\u0000'), '')).toHaveLength(MAX_LISTED_TEXT_ERRORS);
  });

  it.each([
    ['\u0000', true], ['a\uD800', true], ['\uDC00b', true], ['\uDBFF\uDBFF\uDC00', true],
    ['\uD800\uDC00', false], ['plain', false], ['', false],
  ])('isUnstorableText(%j) is %p', (text, expected) => {
    expect(isUnstorableText(text)).toBe(expected);
  });
});

describe('hostileInputProblem', () => {
  it('lists body and query problems in one 400 INVALID_INPUT', () => {
    const problem = hostileInputProblem(request({}, '/x', { body: { email: '\u0000' }, query: { status: 'a\u0000', fine: 'ok', ['n\u0000']: 'v', many: ['ok', '\uD800'] } } as Partial<Request>));
    expect(problem).toBeInstanceOf(ValidationError);
    expect(problem!.code).toBe('INVALID_INPUT');
    expect(problem!.errors.map((error) => error.field)).toEqual(['email', 'status', 'n\\u0000', 'many']);
  });

  it('answers only the depth error for a body too deep', () => {
    const deep = nested(MAX_JSON_DEPTH + 5, 'array') as unknown[];
    const problem = hostileInputProblem(request({}, '/x', { body: { deep, name: '\u0000' } } as Partial<Request>));
    expect(problem!.errors).toEqual([expect.objectContaining({ field: 'body' })]);
  });

  it('is null for clean input and for no body', () => {
    expect(hostileInputProblem(request({}, '/x', { body: { a: ['b', { c: 'd' }] }, query: { limit: '5' } } as Partial<Request>))).toBeNull();
    expect(hostileInputProblem(request({}, '/x'))).toBeNull();
  });
});

describe('unreadableBodyProblem', () => {
  const withBody = (headers: Record<string, string>, path?: string) => unreadableBodyProblem(request({ 'content-length': '2', ...headers }, path), MULTIPART);

  it.each([
    'application/json', 'application/json; charset=utf-8', 'Application/JSON; Charset=UTF-8', 'application/json;charset="utf-8"', 'application/json; charset=utf-8; foo=bar',
  ])('accepts %s', (contentType) => {
    expect(withBody({ 'content-type': contentType })).toBeNull();
  });

  it.each([
    ['application/json; charset=latin1', 'charset latin1'],
    ['application/json; charset=utf-16', 'charset utf-16'],
    ['application/json; charset=utf8', 'charset utf8'],
    ['text/plain', 'text/plain'],
    ['application/x-www-form-urlencoded', 'application/x-www-form-urlencoded'],
    ['multipart/form-data; boundary=x', 'multipart/form-data'],
    ['application/json; charset', 'Content-Type'],
    ['json', 'Content-Type'],
  ])('refuses %s with 415 UNSUPPORTED_MEDIA_TYPE', (contentType, named) => {
    const problem = withBody({ 'content-type': contentType });
    expect(problem).toBeInstanceOf(DomainError);
    expect(problem!.code).toBe('UNSUPPORTED_MEDIA_TYPE');
    expect(problem!.message).toContain(named);
  });

  it('refuses a body without Content-Type', () => {
    expect(withBody({})?.code).toBe('UNSUPPORTED_MEDIA_TYPE');
  });

  it('takes multipart only on the multipart paths', () => {
    expect(withBody({ 'content-type': 'multipart/form-data; boundary=x' }, '/2025-10-13/documents')).toBeNull();
    expect(withBody({ 'content-type': 'multipart/form-data; boundary=x' }, '/2025-10-13/Documents/')).toBeNull();
  });

  it('takes multipart on PUT /documents/{documentId} only (a replacement)', () => {
    const multipart = (method: string, path: string) =>
      unreadableBodyProblem(request({ 'content-length': '2', 'content-type': 'multipart/form-data; boundary=x' }, path, { method }), MULTIPART);
    expect(multipart('PUT', '/2025-10-13/documents/Document:01900000-0000-7000-8000-000000000000')).toBeNull();
    expect(multipart('DELETE', '/2025-10-13/documents/Document:01900000-0000-7000-8000-000000000000')?.code).toBe('UNSUPPORTED_MEDIA_TYPE');
    expect(multipart('PUT', '/2025-10-13/documents/x/y')?.code).toBe('UNSUPPORTED_MEDIA_TYPE');
  });

  it.each(['br2', 'compress', 'gzip, gzip', 'x-gzip'])('refuses Content-Encoding %s', (encoding) => {
    expect(withBody({ 'content-type': 'application/json', 'content-encoding': encoding })?.code).toBe('UNSUPPORTED_MEDIA_TYPE');
  });

  it.each(['gzip', 'DEFLATE', 'br', 'identity'])('accepts Content-Encoding %s', (encoding) => {
    expect(withBody({ 'content-type': 'application/json', 'content-encoding': encoding })).toBeNull();
  });

  it('ignores headers of a request without a body', () => {
    expect(unreadableBodyProblem(request({ 'content-type': 'text/plain; charset=latin1', 'content-length': '0' }), MULTIPART)).toBeNull();
    expect(unreadableBodyProblem(request({ 'content-type': 'text/plain' }), MULTIPART)).toBeNull();
    expect(unreadableBodyProblem(request({ 'transfer-encoding': 'chunked' }), MULTIPART)?.code).toBe('UNSUPPORTED_MEDIA_TYPE');
  });
});

describe('parseContentType', () => {
  it('reads the media type and charset', () => {
    expect(parseContentType('Application/Json ; CHARSET="Latin1"')).toEqual({ mediaType: 'application/json', charset: 'Latin1' });
    expect(parseContentType('application/json')).toEqual({ mediaType: 'application/json' });
    expect(parseContentType('application/json/x')).toBeNull();
    expect(parseContentType(undefined)).toBeNull();
  });
});

describe('bodyReadingError', () => {
  const httpError = (status: number, fields: Record<string, unknown>) => Object.assign(new Error('boom'), { status, statusCode: status, expose: true }, fields);

  it.each([
    ['encoding.unsupported', 415, 'UNSUPPORTED_MEDIA_TYPE'],
    ['charset.unsupported', 415, 'UNSUPPORTED_MEDIA_TYPE'],
    ['entity.too.large', 413, 'INVALID_INPUT'],
    ['entity.parse.failed', 400, 'INVALID_INPUT'],
    ['request.aborted', 400, 'INVALID_INPUT'],
    ['request.size.invalid', 400, 'INVALID_INPUT'],
    ['stream.encoding.set', 500, 'INVALID_INPUT'],
    ['stream.not.readable', 500, 'INVALID_INPUT'],
    ['parameters.too.many', 413, 'INVALID_INPUT'],
    ['something.new', 400, 'INVALID_INPUT'],
  ])('maps body-parser %s (%i) to %s', (type, status, code) => {
    expect(bodyReadingError(httpError(status, { type }))?.code).toBe(code);
  });

  it('keeps the too-large answer: 400 INVALID_INPUT without details', () => {
    const error = bodyReadingError(httpError(413, { type: 'entity.too.large' }))!;
    expect([error.code, error.message, error.details]).toEqual(['INVALID_INPUT', 'The request body is too large', undefined]);
  });

  it.each(['Z_DATA_ERROR', 'Z_BUF_ERROR', 'ERR__ERROR_FORMAT_PADDING_1'])('maps a zlib %s to 400 INVALID_INPUT naming body', (code) => {
    const error = bodyReadingError(httpError(400, { code, errno: -3 }));
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).errors).toEqual([{ field: 'body', constraint: { format: 'content-encoding' }, message: expect.any(String) }]);
  });

  it('leaves other errors alone', () => {
    expect(bodyReadingError(new Error('x'))).toBeUndefined();
    expect(bodyReadingError(new DomainError('NOT_FOUND', 'x'))).toBeUndefined();
    expect(bodyReadingError(Object.assign(new Error('x'), { code: 'ECONNRESET' }))).toBeUndefined();
    expect(bodyReadingError(Object.assign(new Error('x'), { type: 'x', status: 503 }))).toBeUndefined();
    expect(bodyReadingError(null)).toBeUndefined();
  });
});
