import { SeededRandom } from '../../../../test/support/seeded-random';
import { DomainError } from '../../../infra/domain/domain-error';
import { ExistingStablecoin, StablecoinCommand, StablecoinState, stablecoinDecider } from './stablecoin.decider';

const NOW = '2026-05-20T16:40:00.000Z';
const PLATFORM = 'Platform:0199a000-0000-7000-8000-0000000000f1';
const COIN = 'Stablecoin:0199a000-0000-7000-8000-000000000002';
const SEQUENCES = 300;
const STEPS = 80;

function registeredCoin(): StablecoinState {
  const [event] = stablecoinDecider.decide(
    {
      type: 'RegisterStablecoin',
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
      stablecoinProviderAccountId: 'StablecoinProviderAccount:0199a000-0000-7000-8000-000000000001',
      providerEnvironment: 'SANDBOX',
      providerTokenIdentifier: 'acme',
      now: NOW,
    },
    stablecoinDecider.initialState(),
  );
  return stablecoinDecider.evolve(stablecoinDecider.initialState(), event);
}

/** A random next command: open a mint or a burn, or settle or abandon a pending operation (or an unknown one). */
function nextCommand(random: SeededRandom, state: ExistingStablecoin, counter: { next: number }): StablecoinCommand {
  const pending = Object.keys(state.pending);
  const roll = random.next();
  if (roll < 0.5 || pending.length === 0) {
    const operationType = random.pick(['MINT', 'BURN'] as const);
    // Burns are drawn around the outstanding supply, so both accepted and refused ones occur.
    const amount = operationType === 'BURN' ? random.integer(1, Math.max(1, state.outstanding + 50)) : random.amount(1_000_000);
    return { type: 'OpenOperation', platformId: PLATFORM, operationId: `op-${counter.next++}`, operationType, amount, now: NOW };
  }
  const operationId = random.next() < 0.05 ? 'op-unknown' : random.pick(pending);
  return random.next() < 0.6 ? { type: 'SettleOperation', operationId, now: NOW } : { type: 'AbandonOperation', operationId, now: NOW };
}

/** The supply invariant, recomputed from the events the decider accepted (not from its own state). */
function assertInvariant(state: ExistingStablecoin, ledger: { minted: number; burned: number }, where: string): void {
  const pendingBurns = Object.values(state.pending).filter((entry) => entry.operationType === 'BURN').reduce((sum, entry) => sum + entry.amount, 0);
  const expected = { minted: ledger.minted, burned: ledger.burned, outstanding: ledger.minted - ledger.burned, pendingBurns };
  const actual = { minted: state.minted, burned: state.burned, outstanding: state.outstanding, pendingBurns: state.pendingBurns };
  if (JSON.stringify(actual) !== JSON.stringify(expected)) throw new Error(`${where}: supply ${JSON.stringify(actual)}, expected ${JSON.stringify(expected)}`);
  if (state.outstanding < 0) throw new Error(`${where}: negative outstanding supply ${state.outstanding}`);
  if (state.pendingBurns > state.outstanding) throw new Error(`${where}: pending burns ${state.pendingBurns} exceed the outstanding ${state.outstanding}`);
}

describe('stablecoin supply invariant (seeded random sequences on the decider)', () => {
  it(`minted - burned == outstanding >= 0 and pending burns <= outstanding after every step of ${SEQUENCES} sequences`, () => {
    let refusedBurns = 0;
    for (let seed = 1; seed <= SEQUENCES; seed++) {
      const random = new SeededRandom(seed);
      let state = registeredCoin() as ExistingStablecoin;
      const ledger = { minted: 0, burned: 0 };
      const counter = { next: 0 };
      for (let step = 0; step < STEPS; step++) {
        const command = nextCommand(random, state, counter);
        let events;
        try {
          events = stablecoinDecider.decide(command, state);
        } catch (error) {
          if (!(error instanceof DomainError) || error.details?.reason !== 'INSUFFICIENT_SUPPLY') throw error;
          refusedBurns++;
          continue;
        }
        for (const event of events) {
          if (event.type === 'StablecoinSupplyChanged') {
            if (event.data.operationType === 'MINT') ledger.minted += event.data.amount;
            else ledger.burned += event.data.amount;
          }
          state = stablecoinDecider.evolve(state, event) as ExistingStablecoin;
        }
        assertInvariant(state, ledger, `seed ${seed}, step ${step}, ${JSON.stringify(command)}`);
      }
    }
    // The sequences do reach the refusal: the property is tested at the boundary, not only below it.
    expect(refusedBurns).toBeGreaterThan(100);
  });
});
