import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import { validationMetadatasToSchemas } from 'class-validator-jsonschema';
import { CODES_BY_STATUS } from '../http/error-catalogue';
import routeTypes from './route-types.generated.json';

// class-transformer's @Type metadata (nested DTOs as $refs); the package publishes no typings for this path.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { defaultMetadataStorage: classTransformerMetadataStorage } = require('class-transformer/cjs/storage') as typeof import('class-transformer/types/storage');

/**
 * The service's own OpenAPI 3.1 document, assembled from its code:
 * - operations, paths, parameters and success statuses from Nest's route metadata (controllers);
 * - what each operation answers from its handler's TypeScript return type (JSDoc descriptions and
 *   `@example`s included), the DTO classes it validates its body with and the query parameters
 *   its QueryReader takes (route-types.generated.json, by scripts/openapi-generate.ts), or what
 *   the handler names with @ApiBody / @ApiQuery / @ApiResponse where that cannot be read;
 * - request body schemas from those DTOs' class-validator rules;
 * - error bodies from the error catalogue (src/infra/http/error-catalogue.ts).
 * Served without credentials at `GET /openapi.json` and rendered at `GET /docs` (docs/api.md).
 */
export function buildApiDocument(app: INestApplication, apiVersion: string): OpenAPIObject {
  const config = new DocumentBuilder()
    .setTitle('Payments Service API')
    .setDescription(
      'Quotes across currencies and rails, execution, Strong Customer Authentication, embedded wallets, cards and webhooks. ' +
        'Platforms authenticate with HTTP Basic (client id and secret); agent software with its Bearer token. Sandbox behaviour: docs/sandbox.md in the repository.',
    )
    .setVersion(apiVersion)
    .addServer(`/${apiVersion}`)
    .addBasicAuth(undefined, 'BasicAuth')
    .addSecurityRequirements('BasicAuth')
    // The agent software's token (`/agents/me*` routes declare it with @ApiBearerAuth('AgentAuth')).
    .addBearerAuth({ type: 'http', scheme: 'bearer', description: 'An agent access token (gat_...), from POST /agents/device-codes/{code}/redeem' }, 'AgentAuth')
    // The operators' key (OPERATOR_KEY): `/console/operations*` and `GET /metrics` (docs/console.md).
    .addBearerAuth({ type: 'http', scheme: 'bearer', description: 'The operator key (OPERATOR_KEY)' }, 'OperatorAuth')
    .build();
  const document = SwaggerModule.createDocument(app, config, {
    ignoreGlobalPrefix: true,
    operationIdFactory: (controller, method) => `${controller}.${method}`,
  });
  document.openapi = '3.1.0';

  const answers = routeTypes.answers as Record<string, object>;
  const bodies = routeTypes.bodies as Record<string, string[]>;
  const queries = routeTypes.queries as Record<string, string[]>;
  // Unknown request fields are refused (forbidNonWhitelisted): the DTO schemas say so.
  const dtoSchemas = Object.fromEntries(
    Object.entries(validationMetadatasToSchemas({ refPointerPrefix: '#/components/schemas/', classTransformerMetadataStorage })).map(([name, schema]) => [name, { ...schema, additionalProperties: false }]),
  ) as Record<string, object>;
  document.components = {
    ...document.components,
    schemas: { ...(routeTypes.schemas as Record<string, object>), ...dtoSchemas, ...errorSchemas() },
  };

  for (const [path, item] of Object.entries(document.paths)) {
    for (const method of ['get', 'post', 'put', 'patch', 'delete'] as const) {
      const operation = item[method];
      if (!operation?.operationId) continue;
      const route = operation.operationId;
      const answer = answers[route];
      if (routeTypes.variableStatus.includes(route)) {
        // A signed action answers 202 with the payload to sign first, then its result (docs/api.md).
        for (const status of ['200', '201', '202', '204']) operation.responses[status] ??= { description: 'Answered when the action reaches this step' };
      }
      for (const [status, response] of Object.entries(operation.responses)) {
        // A route answering another media type declares it itself (`GET /metrics`: Prometheus text).
        if (response && 'content' in response && response.content && !response.content['application/json']) continue;
        if (/^2/.test(status) && status !== '204' && !answer && response && !('$ref' in response)) {
          response.content = { 'application/json': { schema: {} } };
          continue;
        }
        if (!/^2/.test(status) || !answer || status === '204' || !response || '$ref' in response) continue;
        response.content = { 'application/json': { schema: answer } };
      }
      for (const name of queries[route] ?? []) {
        operation.parameters = [...(operation.parameters ?? []), { name, in: 'query', required: false, schema: { type: name === 'limit' ? 'integer' : 'string' } }];
      }
      const dtos = (bodies[route] ?? []).filter((name) => dtoSchemas[name]);
      if (dtos.length > 0 && method !== 'get' && method !== 'delete') {
        const refs = dtos.map((name) => ({ $ref: `#/components/schemas/${name}` }));
        // A handler's `@ApiBody({ ..., examples })` keeps its examples next to the DTOs' schema.
        const declared = operation.requestBody && 'content' in operation.requestBody ? operation.requestBody.content : undefined;
        const multipart = declared?.['multipart/form-data']?.schema;
        if (multipart && !('$ref' in multipart) && dtos.length === 1) {
          // A multipart handler (`@ApiConsumes('multipart/form-data')`) declares its file parts; its
          // DTO gives the other form fields.
          const fields = dtoSchemas[dtos[0]] as { properties?: object; required?: string[] };
          operation.requestBody = {
            required: true,
            content: {
              'multipart/form-data': {
                schema: {
                  ...multipart,
                  properties: { ...fields.properties, ...multipart.properties },
                  required: [...(fields.required ?? []), ...(multipart.required ?? [])],
                  additionalProperties: false,
                },
              },
            },
          };
        } else {
          const given = declared?.['application/json']?.examples;
          operation.requestBody = {
            required: true,
            content: { 'application/json': { schema: refs.length === 1 ? refs[0] : { oneOf: refs }, ...(given ? { examples: given } : {}) } },
          };
        }
      }
      for (const status of errorStatusesFor(path, method)) {
        operation.responses[String(status)] ??= {
          description: `Error (${CODES_BY_STATUS[status].join(', ')})`,
          content: { 'application/json': { schema: { $ref: `#/components/schemas/Error${status}` } } },
        };
      }
      operation.tags = [path.split('/')[1] || 'root'];
    }
    if (path.startsWith('/health') || path === '/metrics') item.servers = [{ url: '/' }];
  }
  return withoutDanglingRefs(document, new Set(Object.keys(document.components.schemas ?? {})));
}

/**
 * class-validator-jsonschema describes an `each` rule on a primitive array as items of a schema
 * named after the design type (`Array`), which exists nowhere: such an item accepts any value.
 */
function withoutDanglingRefs<T>(value: T, known: Set<string>): T {
  if (Array.isArray(value)) return value.map((item) => withoutDanglingRefs(item, known)) as T;
  if (value === null || typeof value !== 'object') return value;
  const ref = (value as { $ref?: unknown }).$ref;
  if (typeof ref === 'string' && ref.startsWith('#/components/schemas/') && !known.has(ref.slice('#/components/schemas/'.length))) return {} as T;
  return Object.fromEntries(Object.entries(value).map(([key, child]) => [key, withoutDanglingRefs(child, known)])) as T;
}

/**
 * The error statuses an operation may answer, by the mechanisms every route shares: bad input or a
 * reused Idempotency-Key (400), credentials (401), a sandbox-only or forbidden call (403), an unknown
 * id in the path or body (404), a state conflict or a customer outside SCA regions (409), a key
 * still running or a rate limit (429), failure (500), a store that is down (503); customers' paths a deleted
 * customer (410); SCA proofs a locked customer (423). Routes add their own with @ApiResponse.
 */
function errorStatusesFor(path: string, method: string): number[] {
  // 415: a body in a media type, charset or Content-Encoding the service cannot read (request-body.ts).
  const statuses = [400, 401, 403, 404, 409, 415, 429, 500, 503];
  if (path.startsWith('/customers/{')) statuses.push(410);
  if (/\/sca\/|\/authorize|\/trust/.test(path)) statuses.push(423);
  return statuses.sort();
}

function errorSchemas(): Record<string, object> {
  const fieldConstraint = {
    type: 'object',
    properties: {
      format: { type: 'string' },
      pattern: { type: 'string' },
      enum: { type: 'array', items: { type: 'string' } },
      minLength: { type: 'integer' },
      maxLength: { type: 'integer' },
    },
    additionalProperties: false,
  };
  const schemas: Record<string, object> = {
    FieldConstraint: fieldConstraint,
    FieldError: {
      type: 'object',
      required: ['field', 'constraint', 'message'],
      properties: { field: { type: 'string' }, constraint: { $ref: '#/components/schemas/FieldConstraint' }, message: { type: 'string' } },
      additionalProperties: false,
    },
  };
  for (const [status, codes] of Object.entries(CODES_BY_STATUS)) {
    schemas[`Error${status}`] = {
      type: 'object',
      required: ['status', 'code', 'message'],
      properties: {
        status: { type: 'integer', const: Number(status) },
        code: { type: 'string', enum: codes },
        message: { type: 'string' },
        details: {
          type: 'object',
          properties: { errors: { type: 'array', items: { $ref: '#/components/schemas/FieldError' } } },
          additionalProperties: true,
        },
      },
      additionalProperties: false,
    };
  }
  return schemas;
}
