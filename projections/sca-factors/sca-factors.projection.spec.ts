import { projectionSpec, ProjectionSpec } from '../../test/support/projection-spec';
import { scaFactorsProjection } from './sca-factors.projection';

const PLATFORM = 'Platform:0199a000-0000-7000-8000-0000000000f1';
const OTHER_PLATFORM = 'Platform:0199a000-0000-7000-8000-0000000000f2';
const CUSTOMER = 'Customer:0199a000-0000-7000-8000-000000000001';
const FACTOR = 'ScaFactor:0199a000-0000-7000-8000-0000000000a1';
const SECOND_FACTOR = 'ScaFactor:0199a000-0000-7000-8000-0000000000a2';
const THIRD_FACTOR = 'ScaFactor:0199a000-0000-7000-8000-0000000000a3';
const T0 = '2025-10-13T12:00:00.000Z';
const T1 = '2025-10-13T12:01:00.000Z';
const EXPIRY = '2025-10-13T12:05:00.000Z';
const stream = 'scaProfile-0199a000-0000-7000-8000-000000000001';

const started = (factorId: string, options: { platformId?: string; nickname?: string | null; startedAt?: string; expiresAt?: string } = {}) => ({
  stream: `${stream}-${options.platformId ?? PLATFORM}`,
  type: 'ScaPasskeyEnrollmentStarted',
  data: {
    platformId: options.platformId ?? PLATFORM,
    customerId: CUSTOMER,
    factorId,
    challengeId: 'ScaChallenge:0199a000-0000-7000-8000-0000000000e1',
    registrationChallenge: 'cmVnaXN0cmF0aW9uLWNoYWxsZW5nZQ',
    rpId: 'bank.example',
    allowedOrigins: ['https://bank.example'],
    nickname: options.nickname ?? null,
    expiresAt: options.expiresAt ?? EXPIRY,
    startedAt: options.startedAt ?? T0,
  },
});
const enrolled = (factorId: string, platformId = PLATFORM) => ({
  stream: `${stream}-${platformId}`,
  type: 'ScaPasskeyEnrolled',
  data: { platformId, customerId: CUSTOMER, factorId, credentialId: 'Y3JlZA', publicKey: 'a2V5', counter: 0, transports: ['internal'], enrolledAt: T1 },
});
const removed = (factorId: string, platformId = PLATFORM) => ({
  stream: `${stream}-${platformId}`,
  type: 'ScaPasskeyRemoved',
  data: { platformId, customerId: CUSTOMER, factorId, removedAt: '2025-10-13T12:02:00.000Z' },
});

const COLUMNS = 'factor_id, platform_id, customer_id, status, expires_at, view::json AS view';

describe('sca-factors projection', () => {
  let spec: ProjectionSpec;
  beforeEach(async () => {
    spec = await projectionSpec(scaFactorsProjection);
  });
  afterEach(async () => {
    await spec.close();
  });

  it('a started enrollment is one PENDING_CONFIRMATION row with its expiry and its list view', async () => {
    await spec.given([started(FACTOR, { nickname: 'My phone' })]);
    expect(await spec.rows(`SELECT ${COLUMNS} FROM sca_factors`)).toEqual([
      {
        factor_id: FACTOR,
        platform_id: PLATFORM,
        customer_id: CUSTOMER,
        status: 'PENDING_CONFIRMATION',
        expires_at: new Date(EXPIRY),
        view: {
          id: FACTOR,
          customerId: CUSTOMER,
          type: 'PASSKEY',
          status: 'PENDING_CONFIRMATION',
          nickname: 'My phone',
          credentialId: null,
          createdAt: T0,
          updatedAt: T0,
        },
      },
    ]);
  });

  it('a confirmed enrollment is ACTIVE, without expiry, with its credential id and enrollment time', async () => {
    await spec.given([started(FACTOR), enrolled(FACTOR)]);
    expect(await spec.rows(`SELECT ${COLUMNS} FROM sca_factors`)).toEqual([
      {
        factor_id: FACTOR,
        platform_id: PLATFORM,
        customer_id: CUSTOMER,
        status: 'ACTIVE',
        expires_at: null,
        view: {
          id: FACTOR,
          customerId: CUSTOMER,
          type: 'PASSKEY',
          status: 'ACTIVE',
          nickname: null,
          credentialId: 'Y3JlZA',
          createdAt: T0,
          updatedAt: T1,
        },
      },
    ]);
  });

  it("a new enrollment replaces the customer's unconfirmed one; a late confirmation of the replaced one writes nothing", async () => {
    await spec.given([
      started(FACTOR),
      started(SECOND_FACTOR, { startedAt: T1, expiresAt: '2025-10-13T12:06:00.000Z' }),
      enrolled(FACTOR),
    ]);
    expect(await spec.rows('SELECT factor_id, status, expires_at FROM sca_factors')).toEqual([
      { factor_id: SECOND_FACTOR, status: 'PENDING_CONFIRMATION', expires_at: new Date('2025-10-13T12:06:00.000Z') },
    ]);
  });

  it("a new enrollment replaces only its customer's pending one: not the same customer id's on another platform, nor another customer's", async () => {
    const OTHER_CUSTOMER = 'Customer:0199a000-0000-7000-8000-000000000002';
    const otherCustomers = { ...started(SECOND_FACTOR), data: { ...started(SECOND_FACTOR).data, customerId: OTHER_CUSTOMER } };
    await spec.given([started(FACTOR, { platformId: OTHER_PLATFORM }), otherCustomers, started(THIRD_FACTOR, { startedAt: T1 })]);
    expect(await spec.rows('SELECT factor_id, platform_id, customer_id, status FROM sca_factors ORDER BY factor_id')).toEqual([
      { factor_id: FACTOR, platform_id: OTHER_PLATFORM, customer_id: CUSTOMER, status: 'PENDING_CONFIRMATION' },
      { factor_id: SECOND_FACTOR, platform_id: PLATFORM, customer_id: OTHER_CUSTOMER, status: 'PENDING_CONFIRMATION' },
      { factor_id: THIRD_FACTOR, platform_id: PLATFORM, customer_id: CUSTOMER, status: 'PENDING_CONFIRMATION' },
    ]);
  });

  it('a removed passkey loses its row, confirmed or not; a new enrollment may follow', async () => {
    await spec.given([started(FACTOR), removed(FACTOR), started(SECOND_FACTOR), enrolled(SECOND_FACTOR), removed(SECOND_FACTOR), started(THIRD_FACTOR, { startedAt: T1 })]);
    expect(await spec.rows('SELECT factor_id, status FROM sca_factors')).toEqual([
      { factor_id: THIRD_FACTOR, status: 'PENDING_CONFIRMATION' },
    ]);
  });

  it('confirming or removing a factor it never saw started writes no row', async () => {
    await spec.given([enrolled(FACTOR), removed(SECOND_FACTOR)]);
    expect(await spec.rows('SELECT factor_id FROM sca_factors')).toEqual([]);
  });
});
