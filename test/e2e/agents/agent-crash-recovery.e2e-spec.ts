import { CommandBus } from '@nestjs/cqrs';
import { TransferOut } from '../../../src/accounts';
import { transferTransactionId } from '../../../src/agents/commands/agent-action-runner';
import { EventStoreService } from '../../../src/infra/event-store/event-store.service';
import { RecordedEvent } from '../../../src/infra/event-store/event-store.port';
import { newId, streamNameFor } from '../../../src/infra/ids';
import { createUsdExternalAccount } from '../../support/customer-fixtures';
import { fundedCustomer } from '../../support/quote-fixtures';
import { TestApp, eventually, startTestApp } from '../../support/test-app';
import { actionPolicy, agentQuote, connectedAgent } from './agent-action-fixtures';

/**
 * An approved agent action whose request died between its reservation and its outcome: each case
 * appends to the agent's stream what such a request leaves (a killed process writes nothing more),
 * then watches the agent-action-process reactor and its settle task finish it, reading the EVENT
 * STORE: exactly one transaction, one outcome, the action settled (docs/agents.md "Crash safety").
 */
describe('agents: an approved action survives the request that ran it dying', () => {
  let testApp: TestApp;
  let events: EventStoreService;

  beforeAll(async () => {
    testApp = await startTestApp({ env: { AGENT_ACTION_SETTLE_DELAY_MS: '300' } });
    events = testApp.app.get(EventStoreService);
  });

  afterAll(async () => {
    await testApp?.close();
  });

  const api = () => testApp.platform.api;
  // The settle task checks 300 ms after the approval (AGENT_ACTION_SETTLE_DELAY_MS), then retries with backoff.
  const SETTLE_TIMEOUT_MS = 20_000;

  async function setUp() {
    const owner = await fundedCustomer(api(), 1_000_000);
    const external = await createUsdExternalAccount(api(), owner.customer.id, '789');
    const { agent, me } = await connectedAgent(testApp, owner.customer.id, actionPolicy());
    return { owner, external, agent, me };
  }

  /** Appends what the dying request had recorded: the action APPROVED with its reservation (and a claim). */
  async function appendDeadRequest(agent: any, customerId: string, request: Record<string, unknown>, claimedBy: string | null): Promise<string> {
    const stream = streamNameFor(agent.id);
    const recorded = await events.readStream(stream);
    const actionId = newId('AgentAction');
    const now = new Date().toISOString();
    const ref = { agentId: agent.id, platformId: testApp.platform.platformId, actionId };
    const reservation = { amount: request.amount, currency: 'USD', day: now.slice(0, 10), month: now.slice(0, 7) };
    const appended: Array<{ type: string; data: Record<string, unknown> }> = [
      { type: 'AgentActionSubmitted', data: { ...ref, customerId, request, status: 'APPROVED', approvalCause: null, reservation, submittedAt: now } },
    ];
    if (claimedBy) appended.push({ type: 'AgentActionRunClaimed', data: { ...ref, runId: claimedBy, claimedAt: now } });
    await events.append(stream, appended, recorded[recorded.length - 1].revision, { platformId: testApp.platform.platformId, actor: `agent:${agent.id}` });
    return actionId;
  }

  const ofAction = (recorded: RecordedEvent[], actionId: string, type: string) => recorded.filter((event) => event.type === type && (event.data as any).actionId === actionId);
  const holdsOn = async (accountId: string) => (await events.readStream(streamNameFor(accountId))).filter((event) => event.type === 'FundsHeld');

  it('an executed quote recorded APPROVED, nothing run: the task executes the quote once and records the transaction', async () => {
    const { owner, external, agent, me } = await setUp();
    const quote = await agentQuote(me, owner.usd.id, external.id, 10_000);
    const request = { type: 'EXECUTE_QUOTE', accountId: owner.usd.id, amount: quote.totalSendingAmount, currency: 'USD', quoteId: quote.id, quoteTransactionId: quote.transactionId, transfer: null };
    const actionId = await appendDeadRequest(agent, owner.customer.id, request, null);

    const recorded = await eventually(async () => {
      const all = await events.readStream(streamNameFor(agent.id));
      return ofAction(all, actionId, 'AgentActionExecuted').length > 0 && all;
    }, SETTLE_TIMEOUT_MS);
    expect(ofAction(recorded, actionId, 'AgentActionExecuted').map((event) => (event.data as any).transactionId)).toEqual([quote.transactionId]);
    expect(ofAction(recorded, actionId, 'AgentActionFailed')).toEqual([]);
    expect(await holdsOn(owner.usd.id)).toHaveLength(1);
    const action = (await me.get(`/agents/me/actions/${actionId}`).expect(200)).body;
    expect(action).toMatchObject({ status: 'APPROVED', transaction: { id: quote.transactionId } });
  });

  it('a quote executed by a run that died before recording it: the task records that execution, executing nothing again', async () => {
    const { owner, external, agent, me } = await setUp();
    const quote = await agentQuote(me, owner.usd.id, external.id, 10_000);
    const request = { type: 'EXECUTE_QUOTE', accountId: owner.usd.id, amount: quote.totalSendingAmount, currency: 'USD', quoteId: quote.id, quoteTransactionId: quote.transactionId, transfer: null };
    const actionId = await appendDeadRequest(agent, owner.customer.id, request, 'dead-run');
    // What the dead run did before dying: the quote's execution.
    await api().post(`/quotes/${quote.id}/execute`).expect(200);

    const recorded = await eventually(async () => {
      const all = await events.readStream(streamNameFor(agent.id));
      return ofAction(all, actionId, 'AgentActionExecuted').length > 0 && all;
    }, SETTLE_TIMEOUT_MS);
    expect(ofAction(recorded, actionId, 'AgentActionExecuted').map((event) => (event.data as any).transactionId)).toEqual([quote.transactionId]);
    expect(await holdsOn(owner.usd.id)).toHaveLength(1);
  });

  it('a transfer-out recorded APPROVED, never started: the task claims it and creates exactly one transfer', async () => {
    const { owner, external, agent, me } = await setUp();
    const transfer = { sourceAccountId: owner.usd.id, destinationAccountId: external.id, paymentRail: null, amount: 12_000, currency: 'USD' };
    const request = { type: 'TRANSFER_OUT', accountId: owner.usd.id, amount: 12_000, currency: 'USD', quoteId: null, quoteTransactionId: null, transfer };
    const actionId = await appendDeadRequest(agent, owner.customer.id, request, null);

    const recorded = await eventually(async () => {
      const all = await events.readStream(streamNameFor(agent.id));
      return ofAction(all, actionId, 'AgentActionExecuted').length > 0 && all;
    }, SETTLE_TIMEOUT_MS);
    expect(ofAction(recorded, actionId, 'AgentActionRunClaimed')).toHaveLength(1);
    const executed = ofAction(recorded, actionId, 'AgentActionExecuted');
    expect(executed).toHaveLength(1);
    const transactionId = (executed[0].data as any).transactionId;
    expect(transactionId).toBe(transferTransactionId(actionId));
    expect((await events.readStream(streamNameFor(transactionId)))[0]).toMatchObject({ type: 'TransferOutRequested', data: { amount: 12_000, sourceAccountId: owner.usd.id } });
    expect(await holdsOn(owner.usd.id)).toHaveLength(1);
    expect((await me.get(`/agents/me/actions/${actionId}`).expect(200)).body).toMatchObject({ status: 'APPROVED', transaction: { id: transactionId } });
  });

  it('a transfer-out whose claiming run died after starting it: the task records that transfer, starting nothing again', async () => {
    const { owner, external, agent } = await setUp();
    const transfer = { sourceAccountId: owner.usd.id, destinationAccountId: external.id, paymentRail: null, amount: 12_000, currency: 'USD' };
    const request = { type: 'TRANSFER_OUT', accountId: owner.usd.id, amount: 12_000, currency: 'USD', quoteId: null, quoteTransactionId: null, transfer };
    const actionId = await appendDeadRequest(agent, owner.customer.id, request, 'dead-run');
    // What the dead run did before it died: the transfer, under the action's own transaction id.
    const parties = { sourceAccountId: owner.usd.id, destinationAccountId: external.id, paymentRail: null, amount: 12_000 };
    const started = await testApp.app.get(CommandBus).execute(new TransferOut(testApp.platform.platformId, parties, transferTransactionId(actionId)));
    expect(started.id).toBe(transferTransactionId(actionId));

    const recorded = await eventually(async () => {
      const all = await events.readStream(streamNameFor(agent.id));
      return ofAction(all, actionId, 'AgentActionExecuted').length > 0 && all;
    }, SETTLE_TIMEOUT_MS);
    expect(ofAction(recorded, actionId, 'AgentActionExecuted').map((event) => (event.data as any).transactionId)).toEqual([started.id]);
    expect(ofAction(recorded, actionId, 'AgentActionFailed')).toEqual([]);
    const transferEvents = await events.readStream(streamNameFor(started.id));
    expect(transferEvents.filter((event) => event.type === 'TransferOutRequested')).toHaveLength(1);
    expect(await holdsOn(owner.usd.id)).toHaveLength(1);
  });
});
