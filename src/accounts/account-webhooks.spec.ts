import { RecordedEvent } from '../infra/event-store/event-store.port';
import { AccountWebhookMapper, accountWebhooks } from './account-webhooks';

const ref = { accountId: 'InternalAccount:0190a5a0-0000-7000-8000-000000000001', platformId: 'Platform:p1', currency: 'USD' };
const streamName = 'internalAccount-0190a5a0-0000-7000-8000-000000000001';

function recorded(revision: number, type: string, data: Record<string, unknown>): RecordedEvent {
  return {
    id: `e${revision}`,
    type,
    data: { ...ref, ...data },
    metadata: {} as RecordedEvent['metadata'],
    streamName,
    revision,
    position: { commit: BigInt(revision + 1), prepare: BigInt(revision + 1) },
    createdAt: new Date('2026-01-01T00:00:00Z'),
  };
}

const stream = [
  recorded(0, 'InternalAccountOpened', { customerId: 'Customer:c1', accountType: 'INTERNAL_FIAT', openedAt: '2026-01-01T00:00:00.000Z' }),
  recorded(1, 'FundsCredited', { available: 1000, held: 0, movementId: 'm1', amount: 1000, reason: 'X', reference: null, creditedAt: '2026-01-01T00:00:01.000Z' }),
  recorded(2, 'FundsHeld', { available: 600, held: 400, holdId: 'h1', amount: 400, reference: null, heldAt: '2026-01-01T00:00:02.000Z' }),
  recorded(3, 'HoldVoided', { holdId: 'h2', reason: 'R', voidedAt: '2026-01-01T00:00:03.000Z' }),
  recorded(4, 'HoldReleased', { available: 1000, held: 0, holdId: 'h1', amount: 400, reason: 'R', releasedAt: '2026-01-01T00:00:04.000Z' }),
  recorded(5, 'FundsHeld', { available: 900, held: 100, holdId: 'h3', amount: 100, reference: null, heldAt: '2026-01-01T00:00:05.000Z' }),
  recorded(6, 'HoldSettled', { available: 900, held: 0, holdId: 'h3', amount: 100, settledAt: '2026-01-01T00:00:06.000Z' }),
];

describe('AccountWebhookMapper', () => {
  it('maps every balance event exactly like folding the stream up to it, reading only the opening once', async () => {
    const reads: string[] = [];
    const mapper = new AccountWebhookMapper(
      async (event) => {
        reads.push(`upTo:${event.revision}`);
        return stream.slice(0, event.revision + 1);
      },
      async () => {
        reads.push('opening');
        return stream[0];
      },
    );
    for (const event of stream.filter((candidate) => mapper.eventTypes.includes(candidate.type))) {
      expect(await mapper.toWebhooks(event)).toEqual(accountWebhooks(event, stream.slice(0, event.revision + 1)));
    }
    expect(reads).toEqual(['opening']);
  });
});
