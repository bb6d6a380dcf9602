import { projectionSpec, ProjectionSpec } from '../../test/support/projection-spec';
import { stablecoinsProjection } from './stablecoins.projection';

const PLATFORM = 'Platform:0199a000-0000-7000-8000-0000000000f1';
const LINK = 'StablecoinProviderAccount:0199a000-0000-7000-8000-000000000001';
const COIN = 'Stablecoin:0199a000-0000-7000-8000-000000000002';
const OPERATION = 'StablecoinOperation:0199a000-0000-7000-8000-000000000301';
const NOW = '2026-05-20T16:35:00.000Z';
const LATER = '2026-05-20T16:36:00.000Z';

const linked = {
  stream: 'stablecoinProviderAccount-0199a000-0000-7000-8000-000000000001',
  type: 'StablecoinProviderAccountLinked',
  data: {
    stablecoinProviderAccountId: LINK,
    platformId: PLATFORM,
    provider: 'BRALE',
    providerAccountId: '2VcUIonJeVQzFoBuC7LdFT0dRe4',
    providerEnvironment: 'SANDBOX',
    apiClientId: 'client-1',
    secretRef: `stablecoin-provider-secret:${LINK}`,
    providerOutcome: 'KEEP',
    linkedAt: NOW,
  },
};
const revoked = { stream: linked.stream, type: 'StablecoinProviderAccountRevoked', data: { stablecoinProviderAccountId: LINK, platformId: PLATFORM, revokedAt: LATER } };
const coinStream = 'stablecoin-0199a000-0000-7000-8000-000000000002';
const registered = {
  stream: coinStream,
  type: 'StablecoinRegistered',
  data: {
    stablecoinId: COIN,
    platformId: PLATFORM,
    name: 'ACME Stablecoin',
    symbol: 'ACME',
    baseCurrency: 'USD',
    network: 'SPARK',
    decimals: 6,
    issuanceStatus: 'PROVISIONED',
    gridOperationsStatus: 'NOT_ENABLED',
    networkTokenIdentifier: 'btkn1acme',
    currency: null,
    provider: 'BRALE',
    stablecoinProviderAccountId: LINK,
    providerEnvironment: 'SANDBOX',
    providerTokenIdentifier: 'acme',
    registeredAt: NOW,
  },
};
const opened = { stream: coinStream, type: 'StablecoinOperationOpened', data: { stablecoinId: COIN, platformId: PLATFORM, operationId: OPERATION, operationType: 'BURN', amount: 10_000, openedAt: NOW } };
const opStream = 'stablecoinOperation-0199a000-0000-7000-8000-000000000301';
const ref = { operationId: OPERATION, stablecoinId: COIN, platformId: PLATFORM };
const created = {
  stream: opStream,
  type: 'StablecoinOperationCreated',
  data: {
    ...ref,
    operationType: 'BURN',
    status: 'PENDING_FUNDING',
    amount: 10_000,
    fiatAmount: 1,
    baseCurrency: 'USD',
    provider: 'BRALE',
    providerEnvironment: 'SANDBOX',
    stablecoinProviderAccountId: LINK,
    source: { type: 'EXTERNAL_ACCOUNT' },
    destination: { accountId: 'ExternalAccount:0199a000-0000-7000-8000-000000000205', rail: 'ACH_CREDIT' },
    fundingInstructions: { rail: 'SPARK', network: 'SPARK', address: 'sparkrt1xyz', valueType: 'acme' },
    estimatedDelivery: { rail: 'ACH_CREDIT', amount: '1', currency: 'USD', timing: '1-3 business days' },
    expiresAt: '2026-05-27T16:35:00.000Z',
    description: 'Redeem',
    providerScenario: 'COMPLETE',
    ledger: { hold: null, credit: null },
    createdAt: NOW,
  },
};
const funded = { stream: opStream, type: 'StablecoinOperationFunded', data: { ...ref, fundedAt: LATER } };
const failed = { stream: opStream, type: 'StablecoinOperationFailed', data: { ...ref, failureReason: 'PROVIDER_TRANSFER_FAILED', failedAt: '2026-05-20T16:37:00.000Z' } };

describe('stablecoins projection', () => {
  let spec: ProjectionSpec;
  beforeEach(async () => {
    spec = await projectionSpec(stablecoinsProjection);
  });
  afterEach(async () => {
    await spec.close();
  });

  it('a link is one row with its status and GET view (no client id, no secret reference)', async () => {
    await spec.given([linked, revoked]);
    const [row] = await spec.rows('SELECT platform_id, link_id, provider, status, view::json AS view FROM stablecoin_provider_accounts');
    expect(row).toEqual({
      platform_id: PLATFORM,
      link_id: LINK,
      provider: 'BRALE',
      status: 'REVOKED',
      view: { id: LINK, provider: 'BRALE', providerAccountId: '2VcUIonJeVQzFoBuC7LdFT0dRe4', providerEnvironment: 'SANDBOX', status: 'REVOKED', lastVerifiedAt: NOW, createdAt: NOW, updatedAt: LATER },
    });
  });

  it('a coin is one row from its registration; supply events change nothing shown', async () => {
    await spec.given([registered, opened]);
    const [row] = await spec.rows('SELECT stablecoin_id, issuance_status, grid_operations_status, provider, view::json AS view FROM stablecoins');
    const { stablecoinId: _id, platformId: _platform, registeredAt: _at, currency: _none, ...shown } = registered.data;
    expect(row).toEqual({
      stablecoin_id: COIN,
      issuance_status: 'PROVISIONED',
      grid_operations_status: 'NOT_ENABLED',
      provider: 'BRALE',
      view: { id: COIN, ...shown, createdAt: NOW, updatedAt: NOW },
    });
  });

  it('an operation: instructions and expiry only while funding is awaited, the failure reason once failed', async () => {
    await spec.given([created]);
    const [pending] = await spec.rows('SELECT view::json AS view FROM stablecoin_operations');
    expect(pending.view).toEqual({
      id: OPERATION,
      stablecoinId: COIN,
      operationType: 'BURN',
      status: 'PENDING_FUNDING',
      amount: '10000',
      provider: 'BRALE',
      providerEnvironment: 'SANDBOX',
      stablecoinProviderAccountId: LINK,
      source: created.data.source,
      destination: created.data.destination,
      fundingInstructions: created.data.fundingInstructions,
      estimatedDelivery: created.data.estimatedDelivery,
      expiresAt: created.data.expiresAt,
      description: 'Redeem',
      createdAt: NOW,
      updatedAt: NOW,
    });
    await spec.given([funded, failed]);
    const [row] = await spec.rows('SELECT stablecoin_id, operation_type, view::json AS view FROM stablecoin_operations');
    expect(row.stablecoin_id).toBe(COIN);
    expect(row.operation_type).toBe('BURN');
    expect(row.view).toMatchObject({ status: 'FAILED', failureReason: 'PROVIDER_TRANSFER_FAILED', updatedAt: '2026-05-20T16:37:00.000Z' });
    expect(row.view.fundingInstructions).toBeUndefined();
    expect(row.view.expiresAt).toBeUndefined();
  });
});
