import { deciderSpec } from '../../../../test/support/decider-spec';
import { StablecoinCommand, stablecoinDecider } from './stablecoin.decider';
import { StablecoinEvent, StablecoinRegistered } from './stablecoin.events';

const NOW = '2026-05-20T16:40:00.000Z';
const PLATFORM = 'Platform:0199a000-0000-7000-8000-0000000000f1';
const COIN = 'Stablecoin:0199a000-0000-7000-8000-000000000002';
const ref = { stablecoinId: COIN, platformId: PLATFORM };
const OP_1 = 'StablecoinOperation:0199a000-0000-7000-8000-000000000301';
const OP_2 = 'StablecoinOperation:0199a000-0000-7000-8000-000000000302';

const registration: Omit<StablecoinRegistered['data'], 'registeredAt'> = {
  ...ref,
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
  stablecoinProviderAccountId: 'StablecoinProviderAccount:0199a000-0000-7000-8000-000000000001',
  providerEnvironment: 'SANDBOX',
  providerTokenIdentifier: 'acme',
};
const registered: StablecoinEvent = { type: 'StablecoinRegistered', data: { ...registration, registeredAt: NOW } };
const open = (operationId: string, operationType: 'MINT' | 'BURN', amount: number): StablecoinCommand => ({ type: 'OpenOperation', platformId: PLATFORM, operationId, operationType, amount, now: NOW });
const opened = (operationId: string, operationType: 'MINT' | 'BURN', amount: number): StablecoinEvent => ({
  type: 'StablecoinOperationOpened',
  data: { ...ref, operationId, operationType, amount, openedAt: NOW },
});
const settled = (operationId: string, operationType: 'MINT' | 'BURN', amount: number, minted: number, burned: number): StablecoinEvent => ({
  type: 'StablecoinSupplyChanged',
  data: { ...ref, operationId, operationType, amount, minted, burned, outstanding: minted - burned, changedAt: NOW },
});

describe('stablecoin decider (registration and supply)', () => {
  const spec = deciderSpec(stablecoinDecider);

  it('registers a coin once; the same token again is 409 CONFLICT', () => {
    spec.given([]).when({ type: 'RegisterStablecoin', ...registration, now: NOW }).then([registered]);
    spec.given([registered]).when({ type: 'RegisterStablecoin', ...registration, now: NOW }).thenError('CONFLICT', { reason: 'STABLECOIN_ALREADY_REGISTERED', stablecoinId: COIN });
  });

  it('opens a mint at once and changes the supply only when it settles', () => {
    spec.given([registered]).when(open(OP_1, 'MINT', 1_000_000)).then([opened(OP_1, 'MINT', 1_000_000)]);
    spec.given([registered, opened(OP_1, 'MINT', 1_000_000)]).when({ type: 'SettleOperation', operationId: OP_1, now: NOW }).then([settled(OP_1, 'MINT', 1_000_000, 1_000_000, 0)]);
    expect(spec.state([registered, opened(OP_1, 'MINT', 1_000_000)])).toMatchObject({ outstanding: 0, pendingMints: 1_000_000 });
  });

  it('a burn reserves its amount out of the outstanding supply; one that no longer fits is INVALID_AMOUNT (INSUFFICIENT_SUPPLY)', () => {
    const supplied = [registered, opened(OP_1, 'MINT', 100), settled(OP_1, 'MINT', 100, 100, 0)];
    spec.given(supplied).when(open(OP_2, 'BURN', 100)).then([opened(OP_2, 'BURN', 100)]);
    spec.given([...supplied, opened(OP_2, 'BURN', 60)]).when(open('StablecoinOperation:0199a000-0000-7000-8000-000000000303', 'BURN', 41)).thenError('INVALID_AMOUNT', {
      reason: 'INSUFFICIENT_SUPPLY',
      requested: 41,
      outstanding: 100,
      pendingBurns: 60,
    });
    spec.given([registered]).when(open(OP_2, 'BURN', 1)).thenError('INVALID_AMOUNT', { reason: 'INSUFFICIENT_SUPPLY' });
  });

  it('an abandoned burn gives its reservation back; settling or abandoning twice changes nothing', () => {
    const reserved = [registered, opened(OP_1, 'MINT', 100), settled(OP_1, 'MINT', 100, 100, 0), opened(OP_2, 'BURN', 100)];
    const abandoned: StablecoinEvent = { type: 'StablecoinOperationAbandoned', data: { ...ref, operationId: OP_2, operationType: 'BURN', amount: 100, abandonedAt: NOW } };
    spec.given(reserved).when({ type: 'AbandonOperation', operationId: OP_2, now: NOW }).then([abandoned]);
    expect(spec.state([...reserved, abandoned])).toMatchObject({ outstanding: 100, pendingBurns: 0, pending: {} });
    spec.given([...reserved, abandoned]).when({ type: 'AbandonOperation', operationId: OP_2, now: NOW }).then([]);
    spec.given([...reserved, settled(OP_2, 'BURN', 100, 100, 100)]).when({ type: 'SettleOperation', operationId: OP_2, now: NOW }).then([]);
  });

  it('opening the same operation twice is one reservation', () => {
    spec.given([registered, opened(OP_1, 'MINT', 5)]).when(open(OP_1, 'MINT', 5)).then([]);
  });

  it('another platform, or no coin, is 404 REFERENCE_NOT_FOUND', () => {
    spec.given([]).when(open(OP_1, 'MINT', 5)).thenError('REFERENCE_NOT_FOUND');
    spec.given([registered]).when({ ...open(OP_1, 'MINT', 5), platformId: 'Platform:0199a000-0000-7000-8000-0000000000f2' } as StablecoinCommand).thenError('REFERENCE_NOT_FOUND');
  });

  it('refuses a mint that could take the supply past the largest amount', () => {
    spec.given([registered, opened(OP_1, 'MINT', 9_000_000_000_000_000)]).when(open(OP_2, 'MINT', 1)).thenError('INVALID_AMOUNT', { reason: 'SUPPLY_LIMIT_EXCEEDED' });
  });
});
