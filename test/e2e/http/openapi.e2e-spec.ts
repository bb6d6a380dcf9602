import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import request from 'supertest';
import { TestApp, startTestApp } from '../../support/test-app';

/** The service publishes its own OpenAPI 3.1 document (src/infra/openapi/api-document.ts). */
describe('own OpenAPI document', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => {
    await t?.close();
  });

  it('is served without credentials at /openapi.json, as OpenAPI 3.1 with every route', async () => {
    const response = await request(t.baseUrl).get('/openapi.json').expect(200);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    const document = response.body;
    expect(document.openapi).toBe('3.1.0');
    expect(document.servers).toEqual([{ url: '/2025-10-13' }]);
    expect(document.components.securitySchemes.BasicAuth).toEqual({ type: 'http', scheme: 'basic' });
    for (const path of ['/customers', '/customers/{customerId}', '/quotes', '/quotes/{quoteId}/execute', '/audit/events', '/webhooks/deliveries', '/health']) {
      expect(Object.keys(document.paths)).toContain(path);
    }
    const getCustomer = document.paths['/customers/{customerId}'].get;
    expect(getCustomer.operationId).toBe('CustomersController.get');
    expect(getCustomer.responses['200'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/CustomerView' });
    expect(getCustomer.responses['404'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/Error404' });
    expect(document.components.schemas.Error404.properties.code.enum).toContain('USER_NOT_FOUND');
    const createCustomer = document.paths['/customers'].post;
    expect(createCustomer.requestBody.content['application/json'].schema.oneOf).toEqual(
      expect.arrayContaining([{ $ref: '#/components/schemas/CreateIndividualCustomerDto' }]),
    );
    // POST /documents takes multipart/form-data: the file part and the DTO's form fields.
    const upload = document.paths['/documents'].post.requestBody.content;
    expect(Object.keys(upload)).toEqual(['multipart/form-data']);
    expect(upload['multipart/form-data'].schema.properties.file).toEqual(expect.objectContaining({ type: 'string', format: 'binary' }));
    expect(upload['multipart/form-data'].schema.required).toEqual(expect.arrayContaining(['file', 'documentHolder', 'documentType', 'country']));
  });

  it('carries examples (a quote, the POST /quotes body), each valid against its own schema', async () => {
    const document = (await request(t.baseUrl).get('/openapi.json').expect(200)).body;
    const quoteAnswer = document.paths['/quotes/{quoteId}'].get.responses['200'].content['application/json'].schema;
    expect(quoteAnswer).toEqual({ $ref: '#/components/schemas/QuoteView' });
    expect(document.components.schemas.QuoteView.examples[0]).toEqual(expect.objectContaining({ id: expect.stringMatching(/^Quote:[0-9a-f-]{36}$/) }));
    const quoteBody = document.paths['/quotes'].post.requestBody.content['application/json'];
    expect(Object.values(quoteBody.examples).length).toBeGreaterThan(0);

    // Every example in the document, checked against the schema it illustrates (Ajv 2020, as test/support/openapi-contract.ts).
    const ajv = new Ajv2020({ strict: false, allErrors: true, discriminator: false, validateFormats: true });
    addFormats(ajv);
    for (const format of ['int32', 'int64', 'float', 'double', 'byte', 'binary', 'password']) ajv.addFormat(format, true);
    const rewrite = (value: unknown): unknown => {
      if (Array.isArray(value)) return value.map(rewrite);
      if (!value || typeof value !== 'object') return value;
      return Object.fromEntries(
        Object.entries(value).map(([key, child]) => [key, key === '$ref' && typeof child === 'string' ? child.replace('#/components/schemas/', 'own#/$defs/') : rewrite(child)]),
      );
    };
    ajv.addSchema({ $id: 'own', $defs: rewrite(document.components.schemas) as object });
    const failures: string[] = [];
    const check = (where: string, schema: unknown, example: unknown) => {
      const validate = ajv.compile(rewrite(schema) as object);
      if (!validate(example)) failures.push(`${where}: ${ajv.errorsText(validate.errors)}`);
    };
    let checked = 0;
    for (const [name, schema] of Object.entries(document.components.schemas as Record<string, { examples?: unknown[] }>)) {
      for (const example of schema.examples ?? []) {
        check(`components.schemas.${name}`, { $ref: `#/components/schemas/${name}` }, example);
        checked++;
      }
    }
    for (const [path, item] of Object.entries(document.paths as Record<string, Record<string, { requestBody?: { content?: Record<string, { schema?: unknown; examples?: Record<string, { value: unknown }> }> } }>>)) {
      for (const [method, operation] of Object.entries(item)) {
        for (const [type, media] of Object.entries(operation?.requestBody?.content ?? {})) {
          for (const [name, example] of Object.entries(media.examples ?? {})) {
            check(`${method.toUpperCase()} ${path} ${type} ${name}`, media.schema, example.value);
            checked++;
          }
        }
      }
    }
    expect(failures).toEqual([]);
    // 12 answer types and 7 request bodies carry examples today.
    expect(checked).toBeGreaterThanOrEqual(19);
  });

  it('is rendered as a reference page at /docs', async () => {
    const response = await request(t.baseUrl).get('/docs/').expect(200);
    expect(response.headers['content-type']).toMatch(/^text\/html/);
    expect(response.text).toContain('Payments Service API');
  });
});
