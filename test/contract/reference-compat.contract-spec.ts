import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import request from 'supertest';
import { OpenApiDocument, OperationObject, REFERENCE_PATH, referenceContract } from '../support/openapi-contract';
import { TestApp, startTestApp } from '../support/test-app';

/**
 * The service's own OpenAPI document against the production contract (renames applied): for every
 * reference operation we serve, every request field and query parameter the reference accepts is
 * one we accept, with every enum value. (That what we answer fits the reference's responses is
 * checked on every answer of the e2e suites: test/support/contract-check.ts.)
 *
 * What is not accepted yet is listed in reference-gaps.json: this suite fails when a gap appears
 * that is not listed, and when a listed gap is closed (take it out of the list; the list only
 * shrinks). UPDATE_REFERENCE_GAPS=1 rewrites the list from the current code.
 */
const GAPS_PATH = join(__dirname, 'reference-gaps.json');
const describeWithReference = existsSync(REFERENCE_PATH) ? describe : describe.skip;
if (!existsSync(REFERENCE_PATH)) {
  // eslint-disable-next-line no-console
  console.warn(`reference-compat: ${REFERENCE_PATH} is absent (a clone outside CI): skipped`);
}

type Fields = Map<string, { enum?: string[]; opaque: boolean }>;

describeWithReference('own OpenAPI document against the production contract', () => {
  let t: TestApp;
  let own: OpenApiDocument;
  let reference: OpenApiDocument;
  beforeAll(async () => {
    t = await startTestApp();
    own = (await request(t.baseUrl).get('/openapi.json').expect(200)).body;
    reference = referenceContract()!.raw;
  });
  afterAll(async () => {
    await t?.close();
  });

  it('accepts every request field, enum value and query parameter the reference accepts, but for the listed gaps', () => {
    const gaps: string[] = [];
    const served: string[] = [];
    for (const [path, item] of Object.entries(own.paths)) {
      for (const [method, operation] of Object.entries(item)) {
        if (!isOperation(operation)) continue;
        const theirs = findOperation(reference, method, path);
        if (!theirs) continue;
        const name = `${method.toUpperCase()} ${path}`;
        served.push(name);
        gaps.push(...requestGaps(name, theirs, operation, reference, own));
        const ourQuery = new Set((operation.parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name));
        for (const parameter of theirs.parameters ?? []) {
          const resolved = resolve(reference, parameter) as { name: string; in: string };
          if (resolved.in === 'query' && !ourQuery.has(resolved.name)) gaps.push(`${name}: query parameter ${resolved.name} is not accepted`);
        }
      }
    }
    expect(served.length).toBeGreaterThan(40);
    gaps.sort();
    if (process.env.UPDATE_REFERENCE_GAPS) writeFileSync(GAPS_PATH, `${JSON.stringify(gaps, null, 1)}\n`);
    const listed: string[] = JSON.parse(readFileSync(GAPS_PATH, 'utf8'));
    expect({ newGaps: gaps.filter((gap) => !listed.includes(gap)), closedGaps: listed.filter((gap) => !gaps.includes(gap)) }).toEqual({
      newGaps: [],
      closedGaps: [],
    });
  });
});

function isOperation(value: unknown): value is OperationObject {
  return typeof value === 'object' && value !== null && 'responses' in value;
}

function findOperation(document: OpenApiDocument, method: string, path: string): OperationObject | undefined {
  const normalized = path.replace(/\{[^}]+\}/g, '{}');
  for (const [candidate, item] of Object.entries(document.paths)) {
    if (candidate.replace(/\{[^}]+\}/g, '{}') === normalized && isOperation(item[method])) return item[method];
  }
  return undefined;
}

function requestGaps(name: string, theirs: OperationObject, ours: OperationObject, reference: OpenApiDocument, own: OpenApiDocument): string[] {
  const theirContent = theirs.requestBody?.content ?? {};
  const mediaType = ['application/json', 'multipart/form-data'].find((type) => theirContent[type]?.schema);
  if (!mediaType) return [];
  const theirSchema = theirContent[mediaType].schema;
  const ourSchema = ours.requestBody?.content?.[mediaType]?.schema;
  if (!ourSchema) return [`${name}: the ${mediaType} request body is not described`];
  const theirFields: Fields = new Map();
  const ourFields: Fields = new Map();
  collect(reference, theirSchema, '', theirFields, new Set());
  collect(own, ourSchema, '', ourFields, new Set());
  const gaps: string[] = [];
  for (const [path, field] of theirFields) {
    const accepted = ourFields.get(path);
    if (!accepted) {
      if (!coveredByOpaque(path, ourFields)) gaps.push(`${name}: request field ${path || '(body)'} is not accepted`);
      continue;
    }
    if (field.enum && accepted.enum) {
      const missing = field.enum.filter((value) => !accepted.enum!.includes(value));
      if (missing.length > 0) gaps.push(`${name}: request field ${path} does not accept ${missing.join(', ')}`);
    }
  }
  return gaps;
}

function coveredByOpaque(path: string, fields: Fields): boolean {
  const parts = path.split('.');
  for (let length = parts.length - 1; length >= 0; length--) {
    const ancestor = parts.slice(0, length).join('.');
    if (fields.get(ancestor)?.opaque) return true;
  }
  return false;
}

function resolve(document: OpenApiDocument, value: unknown): unknown {
  let current = value as { $ref?: string };
  for (let depth = 0; current && typeof current === 'object' && typeof current.$ref === 'string' && depth < 20; depth++) {
    const pointer = current.$ref!.replace(/^#\//, '').split('/');
    current = pointer.reduce<any>((node, key) => node?.[key], document);
  }
  return current;
}

/** Every property path a schema accepts (variants of oneOf/anyOf together), with enums; readOnly ones left out. */
function collect(document: OpenApiDocument, value: unknown, prefix: string, fields: Fields, seen: Set<unknown>): void {
  const schema = resolve(document, value) as Record<string, any> | undefined;
  if (!schema || typeof schema !== 'object' || seen.has(schema)) return;
  const nextSeen = new Set(seen).add(schema);
  for (const key of ['allOf', 'oneOf', 'anyOf']) for (const part of schema[key] ?? []) collect(document, part, prefix, fields, nextSeen);
  const existing = fields.get(prefix) ?? { opaque: false };
  const values = schema.enum ?? (schema.const !== undefined ? [schema.const] : undefined);
  if (values) existing.enum = [...new Set([...(existing.enum ?? []), ...values.map(String)])];
  const isObject = schema.type === 'object' || schema.properties;
  if (schema.type === 'array' && !schema.items) existing.opaque = true;
  if (isObject && !schema.properties && !schema.allOf && !schema.oneOf && !schema.anyOf && schema.additionalProperties !== false) existing.opaque = true;
  fields.set(prefix, existing);
  for (const [property, child] of Object.entries(schema.properties ?? {})) {
    if ((resolve(document, child) as { readOnly?: boolean })?.readOnly) continue;
    collect(document, child, prefix ? `${prefix}.${property}` : property, fields, nextSeen);
  }
  if (schema.items) collect(document, schema.items, `${prefix}[]`, fields, nextSeen);
}
