import { deciderSpec } from '../../../../test/support/decider-spec';
import { OperationCommand, operationDecider } from './operation.decider';
import { StablecoinOperationCreated, StablecoinOperationEvent } from './operation.events';

const NOW = '2026-05-20T16:40:00.000Z';
const LATER = '2026-05-20T16:41:00.000Z';
const ref = {
  operationId: 'StablecoinOperation:0199a000-0000-7000-8000-000000000301',
  stablecoinId: 'Stablecoin:0199a000-0000-7000-8000-000000000002',
  platformId: 'Platform:0199a000-0000-7000-8000-0000000000f1',
};

const creation = (status: 'PENDING_FUNDING' | 'PENDING_PROVIDER'): StablecoinOperationCreated['data'] => ({
  ...ref,
  operationType: 'MINT',
  status,
  amount: 1_000_000,
  fiatAmount: 100,
  baseCurrency: 'USD',
  provider: 'BRALE',
  providerEnvironment: 'SANDBOX',
  stablecoinProviderAccountId: 'StablecoinProviderAccount:0199a000-0000-7000-8000-000000000001',
  source: { type: status === 'PENDING_FUNDING' ? 'WIRE' : 'PROVIDER_INTERNAL_BALANCE' },
  destination: { accountId: 'ExternalAccount:0199a000-0000-7000-8000-000000000201' },
  fundingInstructions: status === 'PENDING_FUNDING' ? { rail: 'WIRE' } : null,
  estimatedDelivery: null,
  expiresAt: status === 'PENDING_FUNDING' ? LATER : null,
  description: null,
  providerScenario: 'COMPLETE',
  ledger: { hold: null, credit: null },
  createdAt: NOW,
});
const awaitingFunding: StablecoinOperationEvent = { type: 'StablecoinOperationCreated', data: creation('PENDING_FUNDING') };
const awaitingProvider: StablecoinOperationEvent = { type: 'StablecoinOperationCreated', data: creation('PENDING_PROVIDER') };
const funded: StablecoinOperationEvent = { type: 'StablecoinOperationFunded', data: { ...ref, fundedAt: LATER } };
const completed: StablecoinOperationEvent = { type: 'StablecoinOperationCompleted', data: { ...ref, completedAt: LATER } };
const failed: StablecoinOperationEvent = { type: 'StablecoinOperationFailed', data: { ...ref, failureReason: 'PROVIDER_TRANSFER_FAILED', failedAt: LATER } };
const expired: StablecoinOperationEvent = { type: 'StablecoinOperationExpired', data: { ...ref, expiredAt: LATER } };

const fund: OperationCommand = { type: 'RecordFunding', now: LATER };
const complete: OperationCommand = { type: 'CompleteOperation', now: LATER };
const fail: OperationCommand = { type: 'FailOperation', failureReason: 'PROVIDER_TRANSFER_FAILED', now: LATER };
const expire: OperationCommand = { type: 'ExpireOperation', now: LATER };

describe('stablecoin operation decider (the provider lifecycle)', () => {
  const spec = deciderSpec(operationDecider);

  it('is created once, in the status its funding gives', () => {
    spec.given([]).when({ type: 'CreateOperation', ...creation('PENDING_FUNDING') }).then([awaitingFunding]);
    spec.given([awaitingFunding]).when({ type: 'CreateOperation', ...creation('PENDING_FUNDING') }).then([]);
    expect(spec.state([awaitingProvider])).toMatchObject({ status: 'PENDING_PROVIDER', failureReason: null, updatedAt: NOW });
  });

  it('awaiting funding: funded (PROCESSING) then completed, or expired, or failed', () => {
    spec.given([awaitingFunding]).when(fund).then([funded]);
    spec.given([awaitingFunding, funded]).when(complete).then([completed]);
    spec.given([awaitingFunding]).when(expire).then([expired]);
    spec.given([awaitingFunding]).when(fail).then([failed]);
    expect(spec.state([awaitingFunding, funded, completed])).toMatchObject({ status: 'COMPLETED', updatedAt: LATER });
  });

  it('awaiting the provider: completed or failed; it never expires nor gets funded', () => {
    spec.given([awaitingProvider]).when(complete).then([completed]);
    spec.given([awaitingProvider]).when(fail).then([failed]);
    spec.given([awaitingProvider]).when(expire).then([]);
    spec.given([awaitingProvider]).when(fund).then([]);
    expect(spec.state([awaitingProvider, failed])).toMatchObject({ status: 'FAILED', failureReason: 'PROVIDER_TRANSFER_FAILED' });
  });

  it('an ended operation takes no step (a replayed task changes nothing); an unfunded one cannot complete', () => {
    for (const ended of [[awaitingProvider, completed], [awaitingProvider, failed], [awaitingFunding, expired]]) {
      for (const command of [fund, complete, fail, expire]) spec.given(ended).when(command).then([]);
    }
    spec.given([awaitingFunding]).when(complete).then([]);
  });

  it('no operation: 404 REFERENCE_NOT_FOUND', () => {
    spec.given([]).when(complete).thenError('REFERENCE_NOT_FOUND');
  });
});
