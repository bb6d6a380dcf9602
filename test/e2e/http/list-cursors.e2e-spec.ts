import { TestApp, startTestApp } from '../../support/test-app';
import { createIndividual } from '../../support/customer-fixtures';

/**
 * Cursors are opaque (DECISIONS.md section 1), but a client can still send one it made up: a
 * cursor that decodes and is not a position of that list is a 400 on the `cursor` parameter.
 */
describe('List cursors', () => {
  let testApp: TestApp;

  beforeAll(async () => {
    testApp = await startTestApp();
  });

  afterAll(async () => {
    await testApp?.close();
  });

  const encode = (value: unknown) => Buffer.from(JSON.stringify(value), 'utf8').toString('base64url');
  const forged = [
    encode({ x: 1 }),
    encode({ createdAt: 'yesterday', id: 'Customer:0190a0b0-0000-7000-8000-000000000000' }),
    encode({ createdAt: '2026-01-01T00:00:00.000Z', id: 42 }),
    encode({ createdAt: '2026-01-01T00:00:00.000Z', id: "x' OR 1=1 --" }),
    encode({ createdAt: '2026-13-45T00:00:00.000Z', id: 'Customer:0190a0b0-0000-7000-8000-000000000000' }),
  ];
  const lists = [
    '/customers',
    '/verifications',
    '/internal-accounts',
    '/customers/internal-accounts',
    '/customers/external-accounts',
    '/transactions',
    '/quotes',
    '/cards',
  ];

  it('answers 400 with the cursor field for a forged cursor on every list', async () => {
    for (const path of lists) {
      for (const cursor of forged) {
        const response = await testApp.platform.api.get(path).query({ cursor });
        expect({ path, cursor, status: response.status }).toEqual({ path, cursor, status: 400 });
        expect(response.body).toEqual({
          status: 400,
          code: 'INVALID_INPUT',
          message: expect.any(String),
          details: { errors: [{ field: 'cursor', constraint: {}, message: 'cursor is not a cursor this service issued' }] },
        });
      }
    }
  });

  it('still pages with the cursors the service issues', async () => {
    const first = await createIndividual(testApp.platform.api);
    const second = await createIndividual(testApp.platform.api);
    const page1 = await testApp.platform.api.get('/customers').query({ limit: 1 }).expect(200);
    expect(page1.body).toMatchObject({ hasMore: true, totalCount: 2 });
    const page2 = await testApp.platform.api.get('/customers').query({ limit: 1, cursor: page1.body.nextCursor }).expect(200);
    expect(page2.body).toMatchObject({ hasMore: false, totalCount: 2 });
    const seen = [...page1.body.data, ...page2.body.data].map((customer: { id: string }) => customer.id);
    expect(seen.sort()).toEqual([first.id, second.id].sort());
    expect(page2.body.nextCursor).toBeUndefined();
  });
});
