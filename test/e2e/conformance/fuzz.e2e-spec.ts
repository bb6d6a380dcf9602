import { gzipSync } from 'node:zlib';
import fc from 'fast-check';
import request from 'supertest';
import { TestApp, startTestApp } from '../../support/test-app';
import { accountsByCurrency, createIndividual, createUsdExternalAccount } from '../../support/customer-fixtures';
import { OpenApiDocument, referenceContract } from '../../support/openapi-contract';
import { MAX_JSON_DEPTH } from '../../../src/infra/http/request-body';

/**
 * Malformed requests to every operation of the service's own document that takes a body (POST,
 * PATCH, PUT) and every GET with query parameters: random JSON, wrong types, huge, deep, NUL and
 * lone-surrogate strings, bad headers, charsets and encodings, plus a fixed corpus of the causes
 * issue 21's probe found. Every answer must be a client error or success, never a 5xx, and an
 * error's body the envelope `{status, code, message, details?}` with the HTTP status.
 * Seeded: a failure prints the seed and path that replay it (FUZZ_SEED overrides the seed).
 */
const SEED = Number(process.env.FUZZ_SEED ?? 20_251_013);
/** Runs per operation: about 2,000 requests in all (with the corpus), within the test's time on two busy cores. */
const BODY_RUNS = 16;
const QUERY_RUNS = 16;
/** Operations fuzzed at once: overlaps the app's waits on Postgres; each property still runs its cases in order. */
const PARALLEL_OPERATIONS = 4;

const UNKNOWN_UUID = '01900000-0000-7000-8000-000000000000';

interface Operation {
  method: 'post' | 'patch' | 'put' | 'get';
  template: string;
  /** Body property names of the operation's DTOs (any variant), for wrong-type values on known fields. */
  fields: string[];
  /** Query parameter names. */
  query: string[];
  /**
   * The operation takes no body and the reference declares no 400 for it: what a body sent anyway
   * answers is said by neither contract, so those answers are checked here but not against them.
   */
  bodyUncontracted: boolean;
}

interface Answer {
  status: number;
  body: unknown;
  text: string;
}

/** The error envelope of the HTTP status, or the reason it is not. */
function envelopeProblem(answer: Answer): string | null {
  if (answer.status >= 500) return `status ${answer.status}`;
  if (answer.status < 400) return null;
  const body = answer.body as Record<string, unknown> | null;
  if (!body || typeof body !== 'object' || Array.isArray(body)) return `not a JSON object: ${answer.text.slice(0, 200)}`;
  const extra = Object.keys(body).filter((key) => !['status', 'code', 'message', 'details'].includes(key));
  if (extra.length > 0) return `unexpected members ${extra.join(', ')}`;
  if (body.status !== answer.status) return `body status ${String(body.status)} differs from HTTP ${answer.status}`;
  if (typeof body.code !== 'string' || !/^[A-Z_]+$/.test(body.code)) return `code ${JSON.stringify(body.code)}`;
  if (typeof body.message !== 'string' || body.message === '') return `message ${JSON.stringify(body.message)}`;
  if (body.details !== undefined && (typeof body.details !== 'object' || body.details === null || Array.isArray(body.details))) return 'details not an object';
  return null;
}

function operationsOf(document: OpenApiDocument): Operation[] {
  const schemas = (document.components?.schemas ?? {}) as Record<string, { properties?: Record<string, unknown> }>;
  const fieldsOf = (schema: unknown): string[] => {
    const { $ref, oneOf } = (schema ?? {}) as { $ref?: string; oneOf?: unknown[] };
    if (oneOf) return oneOf.flatMap(fieldsOf);
    const target = $ref ? schemas[$ref.split('/').pop()!] : (schema as { properties?: Record<string, unknown> });
    return Object.keys(target?.properties ?? {});
  };
  const operations: Operation[] = [];
  for (const [template, item] of Object.entries(document.paths)) {
    for (const method of ['post', 'patch', 'put', 'get'] as const) {
      const operation = item[method];
      if (!operation) continue;
      const query = (operation.parameters ?? []).filter((parameter) => parameter.in === 'query').map((parameter) => parameter.name);
      if (method === 'get' && query.length === 0) continue;
      const content = operation.requestBody?.content ?? {};
      const reference = referenceContract();
      const referenceTemplate = reference?.operationFor(method, template.replace(/\{[^}]+\}/g, 'x'))?.split(' ')[1];
      const referenceDeclares400 = !reference || !referenceTemplate || reference.raw.paths[referenceTemplate]?.[method]?.responses?.['400'] !== undefined;
      const bodyUncontracted = method !== 'get' && operation.requestBody === undefined && !referenceDeclares400;
      operations.push({ method, template, fields: [...new Set(fieldsOf(content['application/json']?.schema))], query, bodyUncontracted });
    }
  }
  return operations;
}

/** Code units written as percent-encoded bytes; a lone surrogate as the (invalid) CESU-8 bytes a client may send. */
function percentEncoded(text: string): string {
  let out = '';
  for (const unit of text) {
    const code = unit.codePointAt(0)!;
    if (code >= 0xd800 && code <= 0xdfff) out += `%${(0xe0 | (code >> 12)).toString(16)}%${(0x80 | ((code >> 6) & 0x3f)).toString(16)}%${(0x80 | (code & 0x3f)).toString(16)}`;
    else out += encodeURIComponent(unit).replace(/[!'()*]/g, (char) => `%${char.charCodeAt(0).toString(16)}`);
  }
  return out;
}

/** `[[[...]]]` nested `depth` levels, as JSON text. */
function deepJson(depth: number, open = '[', close = ']'): string {
  return open.repeat(depth) + close.repeat(depth);
}

// --- Arbitraries -------------------------------------------------------------------------------

const hostileString = fc.oneof(
  fc.string(),
  fc.string({ unit: 'binary' }),
  fc.constantFrom('\u0000', 'a\u0000b', '\uD800', 'x\uDFFF', '\uDBFF\uDBFF', '\uD83D\uDE00', '\uFFFE', '\u202E', '%00', '\\u0000', "'; drop table x; --", '{{7*7}}', '../../etc/passwd'),
  fc.nat({ max: 200_000 }).map((length) => 'x'.repeat(length)),
  fc.tuple(fc.string(), fc.constantFrom('\u0000', '\uD800', '\uDC00')).map(([text, bad]) => text + bad + text),
);

const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 3, arbitrary: hostileString },
  { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 4 }) },
  { weight: 1, arbitrary: fc.constantFrom(null, true, false, 0, -1, 1e308, -0, Number.MAX_SAFE_INTEGER + 2, 1.5, [], {}, [null], { '': '' }) },
  { weight: 1, arbitrary: fc.dictionary(hostileString, hostileString, { maxKeys: 3 }) },
  { weight: 1, arbitrary: fc.array(hostileString, { maxLength: 3 }) },
);

/** What a malformed request carries: its body bytes and headers. */
interface Malformed {
  label: string;
  body: string | Buffer;
  headers: Record<string, string>;
}

const JSON_TYPE = { 'Content-Type': 'application/json' };

function bodyArbitrary(operation: Operation): fc.Arbitrary<Malformed> {
  const known = operation.fields.length > 0 ? fc.constantFrom(...operation.fields) : fc.string({ maxLength: 8 });
  const keyed = fc.dictionary(fc.oneof(known, hostileString), hostileValue, { maxKeys: 6 });
  const asJson = (label: string) => (value: unknown): Malformed => ({ label, body: JSON.stringify(value) ?? 'null', headers: JSON_TYPE });
  return fc.oneof(
    { weight: 4, arbitrary: keyed.map(asJson('known fields, hostile values')) },
    { weight: 2, arbitrary: hostileValue.map(asJson('any JSON value')) },
    {
      weight: 1,
      arbitrary: fc.integer({ min: MAX_JSON_DEPTH - 2, max: 5000 }).chain((depth) =>
        fc.constantFrom(
          { label: `array depth ${depth}`, body: deepJson(depth), headers: JSON_TYPE },
          { label: `object depth ${depth}`, body: '{"a":'.repeat(depth) + '1' + '}'.repeat(depth), headers: JSON_TYPE },
        ),
      ),
    },
    { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 64 }).map((text) => ({ label: 'broken JSON', body: `{"${text}`, headers: JSON_TYPE })) },
    {
      weight: 2,
      arbitrary: fc.record({
        type: fc.constantFrom('application/json', 'text/plain', 'application/xml', 'multipart/form-data; boundary=x', 'application/x-www-form-urlencoded', 'application/json; charset', 'application/*', '*/*', 'json'),
        charset: fc.constantFrom('', '; charset=utf-8', '; charset=UTF-8', '; charset=latin1', '; charset=utf-16le', '; charset=iso-8859-1', '; charset="utf-8"', '; charset=bogus'),
        encoding: fc.constantFrom('', 'identity', 'gzip', 'deflate', 'br', 'br2', 'compress', 'gzip, gzip', 'x-gzip', 'zstd'),
        value: keyed,
      }).map(({ type, charset, encoding, value }) => ({
        label: `headers ${type}${charset} ${encoding}`,
        // The body is never valid for a compressed encoding: only the decoder's refusal is exercised.
        body: JSON.stringify(value),
        headers: { 'Content-Type': type + charset, ...(encoding ? { 'Content-Encoding': encoding } : {}) },
      })),
    },
    {
      weight: 1,
      arbitrary: fc.record({ value: keyed, cut: fc.nat({ max: 40 }), encoding: fc.constantFrom('gzip', 'deflate', 'br') }).map(({ value, cut, encoding }) => {
        const zipped = gzipSync(JSON.stringify(value));
        const corrupt = cut % 2 === 0 ? zipped.subarray(0, Math.max(1, zipped.length - 1 - cut)) : Buffer.concat([zipped.subarray(0, 10), Buffer.from('garbage'), zipped.subarray(10)]);
        return { label: `corrupt ${encoding}`, body: encoding === 'gzip' ? corrupt : Buffer.from(JSON.stringify(value)), headers: { ...JSON_TYPE, 'Content-Encoding': encoding } };
      }),
    },
  );
}

/** The five causes of issue 21's probe, to every body operation. */
function corpus(operation: Operation): Malformed[] {
  const field = operation.fields[0] ?? 'name';
  return [
    { label: 'charset=latin1', body: Buffer.from(`{"${field}":"caf\xe9"}`, 'latin1'), headers: { 'Content-Type': 'application/json; charset=latin1' } },
    { label: 'nested 3,000 deep', body: `{"${field}":${deepJson(3000)}}`, headers: JSON_TYPE },
    { label: 'nested 3,000 deep objects', body: '{"a":'.repeat(3000) + '1' + '}'.repeat(3000), headers: JSON_TYPE },
    { label: 'NUL in a field', body: JSON.stringify({ [field]: 'a\u0000b' }), headers: JSON_TYPE },
    { label: 'NUL in every field', body: JSON.stringify(Object.fromEntries(operation.fields.map((name) => [name, '\u0000']))), headers: JSON_TYPE },
    { label: 'lone surrogate in a field', body: JSON.stringify({ [field]: '\uD800' }), headers: JSON_TYPE },
    { label: 'NUL in a key', body: JSON.stringify({ 'a\u0000': 1 }), headers: JSON_TYPE },
    { label: 'Content-Encoding br2', body: JSON.stringify({ [field]: 1 }), headers: { ...JSON_TYPE, 'Content-Encoding': 'br2' } },
    { label: 'corrupt gzip', body: Buffer.concat([gzipSync('{"a":1}').subarray(0, 12), Buffer.from('not gzip at all')]), headers: { ...JSON_TYPE, 'Content-Encoding': 'gzip' } },
    { label: 'gzip that is not gzip', body: Buffer.from('{"a":1}'), headers: { ...JSON_TYPE, 'Content-Encoding': 'gzip' } },
    { label: 'deflate that is not deflate', body: Buffer.from('{"a":1}'), headers: { ...JSON_TYPE, 'Content-Encoding': 'deflate' } },
  ];
}

const queryValue = fc.oneof(
  { weight: 3, arbitrary: hostileString.filter((text) => text.length < 5000) },
  { weight: 1, arbitrary: fc.constantFrom('', '0', '-1', '101', '1e3', 'true', 'null', '[]', '2025-13-45', 'Customer:nope', `Customer:${UNKNOWN_UUID}`, 'a'.repeat(300)) },
);

function queryArbitrary(operation: Operation): fc.Arbitrary<string> {
  const name = fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...operation.query) }, { weight: 1, arbitrary: hostileString.filter((text) => text.length < 50) });
  return fc.array(fc.tuple(name, queryValue), { minLength: 1, maxLength: 4 }).map((pairs) => pairs.map(([key, value]) => `${percentEncoded(key)}=${percentEncoded(value)}`).join('&'));
}

describe('conformance: fuzzed malformed requests never answer 5xx', () => {
  let testApp: TestApp;
  let operations: Operation[];
  let ids: Record<string, string>;

  beforeAll(async () => {
    testApp = await startTestApp();
    const customer = await createIndividual(testApp.platform.api);
    const usd = (await accountsByCurrency(testApp.platform.api, customer.id)).USD;
    const external = await createUsdExternalAccount(testApp.platform.api, customer.id);
    // Path ids of real resources where the parameter names one, so requests reach validation.
    ids = { customerId: customer.id, accountId: usd.id, externalAccountId: external.id, id: usd.id };
    const document = await request(testApp.baseUrl).get('/openapi.json').expect(200);
    operations = operationsOf(document.body as OpenApiDocument);
  });

  afterAll(async () => {
    await testApp?.close();
  });

  const pathOf = (template: string) => template.replace(/\{([^}]+)\}/g, (_match, name: string) => ids[name] ?? `Quote:${UNKNOWN_UUID}`);

  const send = async (operation: Operation, malformed: Malformed, query = ''): Promise<Answer> => {
    const path = pathOf(operation.template) + (query ? `?${query}` : '');
    const { clientId, clientSecret } = testApp.platform;
    let call = operation.bodyUncontracted
      ? request(testApp.baseUrl)[operation.method](path).auth(clientId, clientSecret)
      : testApp.platform.api[operation.method](path);
    for (const [name, value] of Object.entries(malformed.headers)) call = call.set(name, value);
    const response = operation.method === 'get' ? await call : await call.send(malformed.body);
    return { status: response.status, body: response.body, text: response.text };
  };

  const expectEnvelope = (operation: Operation, label: string, answer: Answer) => {
    const problem = envelopeProblem(answer);
    if (problem) throw new Error(`${operation.method.toUpperCase()} ${operation.template} (${label}): ${problem}: ${answer.text.slice(0, 300)}`);
  };

  it('finds the operations to fuzz in the service document', () => {
    const bodies = operations.filter((operation) => operation.method !== 'get');
    const queries = operations.filter((operation) => operation.method === 'get');
    expect(bodies.length).toBeGreaterThan(30);
    expect(queries.length).toBeGreaterThan(5);
    expect(bodies.map((operation) => `${operation.method} ${operation.template}`)).toEqual(expect.arrayContaining(['post /customers', 'patch /config', 'post /quotes']));
  });

  /** Runs `check` for every operation, PARALLEL_OPERATIONS at a time. */
  const forEachOperation = async (chosen: Operation[], check: (operation: Operation) => Promise<void>) => {
    const queue = [...chosen];
    await Promise.all(Array.from({ length: PARALLEL_OPERATIONS }, async () => {
      for (let operation = queue.shift(); operation; operation = queue.shift()) await check(operation);
    }));
  };

  it('the probe corpus (charset, depth, NUL, surrogates, encodings) answers 4xx on every body operation', async () => {
    await forEachOperation(operations.filter((candidate) => candidate.method !== 'get'), async (operation) => {
      for (const malformed of corpus(operation)) expectEnvelope(operation, malformed.label, await send(operation, malformed));
    });
  }, 120_000);

  it('the corpus answers exactly: 415 for charset and encoding, 400 INVALID_INPUT naming the fields for depth and text', async () => {
    const operation = operations.find((candidate) => candidate.method === 'post' && candidate.template === '/customers')!;
    const tooLarge: Malformed = { label: 'too large', body: JSON.stringify({ fullName: 'x'.repeat(1_100_000) }), headers: JSON_TYPE };
    const byLabel = Object.fromEntries(await Promise.all([...corpus(operation), tooLarge].map(async (malformed) => [malformed.label, await send(operation, malformed)] as const)));
    expect(byLabel['charset=latin1'].body).toEqual({ status: 415, code: 'UNSUPPORTED_MEDIA_TYPE', message: expect.stringContaining('latin1') });
    expect(byLabel['Content-Encoding br2'].body).toEqual({ status: 415, code: 'UNSUPPORTED_MEDIA_TYPE', message: expect.stringContaining('br2') });
    const bodyError = (message: unknown) => ({ status: 400, code: 'INVALID_INPUT', message: expect.any(String), details: { errors: [{ field: 'body', constraint: expect.any(Object), message }] } });
    expect(byLabel['nested 3,000 deep'].body).toEqual(bodyError(expect.stringContaining(`${MAX_JSON_DEPTH} levels`)));
    expect(byLabel['nested 3,000 deep objects'].body).toEqual(bodyError(expect.stringContaining(`${MAX_JSON_DEPTH} levels`)));
    expect(byLabel['corrupt gzip'].body).toEqual(bodyError(expect.any(String)));
    expect(byLabel['gzip that is not gzip'].body).toEqual(bodyError(expect.any(String)));
    expect(byLabel['too large'].body).toEqual({ status: 400, code: 'INVALID_INPUT', message: 'The request body is too large' });
    const fields = (label: string) => (byLabel[label].body as { details: { errors: Array<{ field: string }> } }).details.errors.map((error) => error.field);
    expect(byLabel['NUL in a field'].status).toBe(400);
    expect(fields('NUL in a field')).toEqual([operation.fields[0]]);
    expect(fields('lone surrogate in a field')).toEqual([operation.fields[0]]);
    expect(fields('NUL in a key')).toEqual(['a\\u0000']);
    expect(fields('NUL in every field').sort()).toEqual([...operation.fields].sort());
    for (const error of (byLabel['NUL in every field'].body as { details: { errors: unknown[] } }).details.errors) {
      expect(error).toEqual({ field: expect.any(String), constraint: {}, message: expect.stringContaining('U+0000') });
    }
  });

  it('NUL and lone surrogates in query parameters are 400 INVALID_INPUT listing each parameter', async () => {
    const response = await testApp.platform.api.get(`/customers?email=a%00b&platformCustomerId=${percentEncoded('x\uD800')}&limit=5`);
    // A lone surrogate cannot travel in a URL (its bytes are not UTF-8): it stays percent-encoded text.
    expect(response.status).toBe(400);
    expect(response.body).toEqual({
      status: 400, code: 'INVALID_INPUT', message: expect.any(String),
      details: { errors: [{ field: 'email', constraint: {}, message: expect.stringContaining('U+0000') }] },
    });
  });

  it('hostile path ids (NUL, surrogates, huge, another type) answer a 4xx envelope on every operation with a path parameter', async () => {
    const document = (await request(testApp.baseUrl).get('/openapi.json').expect(200)).body as OpenApiDocument;
    const hostileIds = ['a%00b', `Customer:${UNKNOWN_UUID}%00`, '%F0%9F%98%80', 'x'.repeat(5000), `Card:${UNKNOWN_UUID}`, '..%2F..', '%20', 'null'];
    for (const [template, item] of Object.entries(document.paths)) {
      if (!template.includes('{')) continue;
      for (const method of ['get', 'post', 'patch', 'put', 'delete'] as const) {
        if (!item[method]) continue;
        for (const id of hostileIds) {
          const path = template.replace(/\{[^}]+\}/g, id);
          const call = testApp.platform.api[method](path);
          const response = method === 'get' || method === 'delete' ? await call : await call.send({});
          expectEnvelope({ method: method as Operation['method'], template, fields: [], query: [], bodyUncontracted: false }, `path ${id.slice(0, 40)}`, response);
        }
      }
    }
  }, 120_000);

  it('random malformed bodies to every POST, PATCH and PUT answer a 4xx envelope or a success', async () => {
    await forEachOperation(operations.filter((candidate) => candidate.method !== 'get'), (operation) =>
      fc.assert(
        fc.asyncProperty(bodyArbitrary(operation), async (malformed) => expectEnvelope(operation, malformed.label, await send(operation, malformed))),
        { seed: SEED, numRuns: BODY_RUNS, endOnFailure: true },
      ),
    );
  }, 180_000);

  it('random query parameters to every GET with a query answer a 4xx envelope or a success', async () => {
    await forEachOperation(operations.filter((candidate) => candidate.method === 'get'), (operation) =>
      fc.assert(
        fc.asyncProperty(queryArbitrary(operation), async (query) => expectEnvelope(operation, `?${query.slice(0, 200)}`, await send(operation, { label: '', body: '', headers: {} }, query))),
        { seed: SEED, numRuns: QUERY_RUNS, endOnFailure: true },
      ),
    );
  }, 120_000);
});
