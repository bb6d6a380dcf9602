import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv2020, { ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { load as parseYaml } from 'js-yaml';

/**
 * Checks HTTP answers and webhook bodies against an OpenAPI 3.1 document: the production
 * contract (`../shared/reference/openapi.yaml`, with the renames its README lists) or the
 * service's own document (`GET /openapi.json`). One checker for both, so "what we answer fits
 * the reference" and "what we answer fits what we publish" are the same test.
 */
export interface ContractDocument {
  readonly name: string;
  /** Every way the answer breaks the document, empty when it fits (or the operation is not in it). */
  checkResponse(method: string, path: string, status: number, body: unknown): string[];
  /** Every way a webhook body breaks the document's webhook for its `type`. */
  checkWebhook(body: unknown): string[];
  /** `METHOD /path/{template}` for the path, or undefined when the document lacks it. */
  operationFor(method: string, path: string): string | undefined;
  readonly raw: OpenApiDocument;
}

export interface OpenApiDocument {
  paths: Record<string, Record<string, OperationObject>>;
  components?: { schemas?: Record<string, unknown> };
  webhooks?: Record<string, Record<string, OperationObject>>;
}

export interface OperationObject {
  operationId?: string;
  parameters?: Array<{ name: string; in: string; required?: boolean; schema?: unknown }>;
  requestBody?: { content?: Record<string, { schema?: unknown }> };
  responses?: Record<string, { content?: Record<string, { schema?: unknown }> }>;
}

/** The reference's names where ours differ (../shared/reference/README.md; SPEC.md for the 500 code). */
const REFERENCE_RENAMES: Array<[RegExp, string]> = [
  [/Grid-Wallet-Signature/g, 'Service-Wallet-Signature'],
  [/X-Grid-Signature/g, 'X-Service-Signature'],
  [/GRID_SWITCH_ERROR/g, 'SERVICE_SWITCH_ERROR'],
];

export const REFERENCE_PATH = join(__dirname, '..', '..', '..', 'shared', 'reference', 'openapi.yaml');

let reference: ContractDocument | null | undefined;

/** The production contract with our renames, or null where the file is absent (a clone outside CI). */
export function referenceContract(): ContractDocument | null {
  if (reference !== undefined) return reference;
  if (!existsSync(REFERENCE_PATH)) {
    reference = null;
    return reference;
  }
  let text = readFileSync(REFERENCE_PATH, 'utf8');
  for (const [pattern, replacement] of REFERENCE_RENAMES) text = text.replace(pattern, replacement);
  reference = contractFor('reference', parseYaml(text) as OpenApiDocument);
  return reference;
}

export function contractFor(name: string, document: OpenApiDocument): ContractDocument {
  const ajv = new Ajv2020({ strict: false, allErrors: true, discriminator: false, validateFormats: true });
  addFormats(ajv);
  for (const format of ['int32', 'int64', 'float', 'double', 'byte', 'binary', 'password']) ajv.addFormat(format, true);
  const base = `contract-${name}`;
  const schemas = rewriteRefs(document.components?.schemas ?? {}, base) as Record<string, unknown>;
  ajv.addSchema({ $id: base, $defs: schemas });

  const routes = Object.keys(document.paths)
    .map((template) => ({ template, regex: templateRegex(template), params: (template.match(/\{/g) ?? []).length }))
    .sort((a, b) => a.params - b.params || b.template.length - a.template.length);
  const validators = new Map<string, ValidateFunction | null>();
  const compile = (key: string, schema: unknown): ValidateFunction | null => {
    if (!validators.has(key)) validators.set(key, schema === undefined ? null : ajv.compile(rewriteRefs(schema, base) as object));
    return validators.get(key) ?? null;
  };

  const routeFor = (method: string, path: string) => {
    const bare = path.split('?')[0];
    const lower = method.toLowerCase();
    return routes.find((route) => route.regex.test(bare) && document.paths[route.template][lower] !== undefined);
  };

  const webhookSchemas = new Map<string, unknown>();
  for (const [webhookName, item] of Object.entries(document.webhooks ?? {})) {
    const schema = item.post?.requestBody?.content?.['application/json']?.schema;
    if (schema) webhookSchemas.set(webhookName, schema);
  }

  return {
    name,
    raw: document,
    operationFor(method, path) {
      const route = routeFor(method, path);
      return route ? `${method.toUpperCase()} ${route.template}` : undefined;
    },
    checkResponse(method, path, status, body) {
      const route = routeFor(method, path);
      if (!route) return [];
      const operation = document.paths[route.template][method.toLowerCase()];
      const responses = operation.responses ?? {};
      const declared = responses[String(status)] ?? responses[`${String(status)[0]}XX`] ?? responses.default;
      const where = `${method.toUpperCase()} ${route.template} -> ${status}`;
      if (!declared) return [`${where}: status ${status} is not declared by the ${name} document`];
      const content = declared.content;
      if (!content || Object.keys(content).length === 0) {
        return body === undefined || body === '' || (typeof body === 'object' && body !== null && Object.keys(body).length === 0)
          ? []
          : [`${where}: the ${name} document declares no body, the answer has one`];
      }
      const schema = content['application/json']?.schema ?? Object.values(content)[0]?.schema;
      const validate = compile(`${where}`, schema);
      if (!validate) return [];
      return validate(body) ? [] : describe(where, validate);
    },
    checkWebhook(body) {
      const type = (body as { type?: unknown } | null)?.type;
      const candidates = [...webhookSchemas.entries()];
      if (candidates.length === 0) return [];
      // A webhook's `type` enum names the document webhook it belongs to: try each, keep the one whose type matches.
      let best: string[] | undefined;
      for (const [webhookName, schema] of candidates) {
        const validate = compile(`webhook ${webhookName}`, schema);
        if (!validate) continue;
        if (validate(body)) return [];
        const typeMismatch = (validate.errors ?? []).some((error) => error.instancePath === '/type' && (error.keyword === 'enum' || error.keyword === 'const'));
        if (typeMismatch) continue;
        const problems = describe(`webhook ${webhookName} (type ${String(type)})`, validate);
        if (!best || problems.length < best.length) best = problems;
      }
      return best ?? [`webhook type ${String(type)} is not declared by the ${name} document`];
    },
  };
}

function templateRegex(template: string): RegExp {
  const escaped = template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\\?\{[^}]+\\?\}/g, '[^/]+');
  return new RegExp(`^${escaped.replace(/\{[^}]+\}/g, '[^/]+')}/?$`);
}

function rewriteRefs(value: unknown, base: string): unknown {
  if (Array.isArray(value)) return value.map((item) => rewriteRefs(item, base));
  if (value === null || typeof value !== 'object') return value;
  const discriminator = (value as { discriminator?: { propertyName: string; mapping?: Record<string, string> } }).discriminator;
  if (discriminator?.mapping && Array.isArray((value as { oneOf?: unknown }).oneOf)) {
    // Ajv's discriminator refuses `mapping`: the same choice as an if/then chain on the property.
    const { oneOf: _variants, discriminator: _d, ...rest } = value as Record<string, unknown>;
    const property = discriminator.propertyName;
    const entries = Object.entries(discriminator.mapping);
    let chain: unknown = { type: 'object', required: [property], properties: { [property]: { enum: entries.map(([tag]) => tag) } } };
    for (const [tag, target] of entries.reverse()) {
      chain = {
        if: { type: 'object', required: [property], properties: { [property]: { const: tag } } },
        then: { $ref: target.replace('#/components/schemas/', `${base}#/$defs/`) },
        else: chain,
      };
    }
    const combined = rewriteRefs(rest, base) as Record<string, unknown>;
    combined.allOf = [...((combined.allOf as unknown[]) ?? []), chain];
    return combined;
  }
  const result: Record<string, unknown> = {};
  for (const [key, child] of Object.entries(value)) {
    if (key === '$ref' && typeof child === 'string' && child.startsWith('#/components/schemas/')) {
      result[key] = `${base}#/$defs/${child.slice('#/components/schemas/'.length)}`;
    } else if (key === 'discriminator') {
      continue;
    } else {
      result[key] = rewriteRefs(child, base);
    }
  }
  return result;
}

function describe(where: string, validate: ValidateFunction): string[] {
  const seen = new Set<string>();
  for (const error of validate.errors ?? []) {
    const extra = error.keyword === 'additionalProperties' ? ` (${String((error.params as { additionalProperty?: string }).additionalProperty)})`
      : error.keyword === 'enum' ? ` (${JSON.stringify((error.params as { allowedValues?: unknown }).allowedValues)})`
      : '';
    seen.add(`${where}: ${error.instancePath || '/'} ${error.message ?? error.keyword}${extra}`);
  }
  return [...seen];
}
