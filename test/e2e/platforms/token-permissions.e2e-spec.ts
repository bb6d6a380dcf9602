import { createIndividual, uniqueId } from '../../support/customer-fixtures';
import { FundedCustomer, balances, fundedCustomer, quoteToSuffix } from '../../support/quote-fixtures';
import { PlatformClient, TestApp, platformClient, startTestApp } from '../../support/test-app';

type Permission = 'VIEW' | 'TRANSACT' | 'MANAGE';

interface Family {
  /** The permission the family's operation declares (docs/api.md "Permissions"). */
  needs: Permission;
  /** Sets up what the operation acts on, with the bootstrap credentials. */
  prepare?(): Promise<void>;
  /** Sends the operation through `client`; `expected` is its status when the permission is held. */
  send(client: PlatformClient): Promise<{ status: number; body: any }>;
  expected: number;
  /** What the operation would change, read with the bootstrap credentials: a refusal leaves it as it was. */
  observe(): Promise<unknown>;
}

/**
 * The permission matrix (docs/api.md "Permissions"): a token holding each permission alone, two
 * together, and the bootstrap credentials, against one operation of each family: a read
 * (`GET /customers/{id}`), a money movement (`POST /quotes/{id}/execute`) and a management change
 * (`POST /customers`). A held permission answers as the bootstrap credentials would; a missing one
 * is 403 FORBIDDEN naming it, and changes nothing.
 */
describe('API token permissions', () => {
  let testApp: TestApp;
  let owner: FundedCustomer;
  /** The money movement's payer and quote: fresh for each try, so no earlier payment settles meanwhile. */
  let payer: FundedCustomer;
  let quote: { id: string };

  beforeAll(async () => {
    testApp = await startTestApp();
    owner = await fundedCustomer(testApp.platform.api, 10_000_000);
  });

  afterAll(async () => {
    await testApp?.close();
  });

  const bootstrap = () => testApp.platform.api;
  const tokenWith = async (permissions: Permission[]): Promise<PlatformClient> => {
    const token = (await bootstrap().post('/tokens').send({ name: permissions.join('+'), permissions }).expect(201)).body;
    return platformClient(testApp.baseUrl, token.clientId, token.clientSecret);
  };

  const families = (): Record<string, Family> => ({
    read: {
      needs: 'VIEW',
      expected: 200,
      send: (client) => client.get(`/customers/${owner.customer.id}`),
      observe: async () => (await bootstrap().get(`/customers/${owner.customer.id}`).expect(200)).body,
    },
    moneyMovement: {
      needs: 'TRANSACT',
      expected: 200,
      prepare: async () => {
        payer = await fundedCustomer(bootstrap(), 100_000);
        quote = await quoteToSuffix(bootstrap(), payer, '789', 1_000);
      },
      send: (client) => client.post(`/quotes/${quote.id}/execute`),
      observe: async () => ({
        balance: await balances(bootstrap(), payer.usd.id),
        quote: (await bootstrap().get(`/quotes/${quote.id}`).expect(200)).body.status,
      }),
    },
    management: {
      needs: 'MANAGE',
      expected: 201,
      send: (client) => client.post('/customers').send({ customerType: 'INDIVIDUAL', platformCustomerId: uniqueId('perm'), fullName: 'Pat Matrix' }),
      observe: async () => (await bootstrap().get('/customers').query({ limit: 1 }).expect(200)).body.totalCount,
    },
  });

  const holders: Array<[string, Permission[] | 'bootstrap']> = [
    ['VIEW', ['VIEW']],
    ['TRANSACT', ['TRANSACT']],
    ['MANAGE', ['MANAGE']],
    ['VIEW and TRANSACT', ['VIEW', 'TRANSACT']],
    ['the bootstrap credentials (every permission)', 'bootstrap'],
  ];

  it.each(holders)('%s: each family answers as held, or 403 FORBIDDEN naming the permission and changing nothing', async (_name, permissions) => {
    const client = permissions === 'bootstrap' ? bootstrap() : await tokenWith(permissions);
    const held = permissions === 'bootstrap' ? ['VIEW', 'TRANSACT', 'MANAGE'] : permissions;
    for (const [name, family] of Object.entries(families())) {
      await family.prepare?.();
      if (held.includes(family.needs)) {
        const answer = await family.send(client);
        expect([name, answer.status]).toEqual([name, family.expected]);
        continue;
      }
      const before = await family.observe();
      const answer = await family.send(client);
      expect([name, answer.status, answer.body]).toEqual([
        name,
        403,
        { status: 403, code: 'FORBIDDEN', message: `This credential lacks the ${family.needs} permission`, details: { reason: 'MISSING_PERMISSION', missingPermissions: [family.needs] } },
      ]);
      expect(await family.observe()).toEqual(before);
    }
  });

  it('the permission is checked before the request is read: a VIEW token sending a bad body is refused, not told what is wrong', async () => {
    const viewer = await tokenWith(['VIEW']);
    const refused = await viewer.post('/customers').send({ customerType: 'ALIEN' }).expect(403);
    expect(refused.body.details).toEqual({ reason: 'MISSING_PERMISSION', missingPermissions: ['MANAGE'] });
    // Tokens are credentials administration: a VIEW token does not list them.
    expect((await viewer.get('/tokens').expect(403)).body.details.missingPermissions).toEqual(['MANAGE']);
  });

  it('a token acts for its own platform only: another platform\'s customer is 404 through a token holding every permission', async () => {
    const other = await testApp.createPlatform();
    const foreign = await createIndividual(other.api);
    const everything = await tokenWith(['VIEW', 'TRANSACT', 'MANAGE']);
    expect((await everything.get(`/customers/${foreign.id}`).expect(404)).body.code).toBe('USER_NOT_FOUND');
    expect((await everything.patch(`/customers/${foreign.id}`).send({ customerType: 'INDIVIDUAL', fullName: 'Taken Over' }).expect(404)).body.code).toBe('USER_NOT_FOUND');
    expect((await other.api.get(`/customers/${foreign.id}`).expect(200)).body.fullName).toBe(foreign.fullName);
  });
});
