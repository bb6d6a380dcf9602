import { CommandBus } from '@nestjs/cqrs';
import { CustomersQuery } from '../../customers';
import { DomainError } from '../../infra/domain/domain-error';
import { RecordedEvent } from '../../infra/event-store/event-store.port';
import { Reactor } from '../../infra/projections/projection';
import { ReadModelWaiter } from '../../infra/projections/read-model-waiter';
import { DeleteAgent } from '../commands/delete-agent';
import { AgentsQuery } from '../queries/agents.query';

/** How long the reactor waits for the read models to reach the event before retrying later. */
const CATCH_UP_TIMEOUT_MS = 5000;

interface CustomerRef {
  platformId: string;
  customerId: string;
}

/**
 * A deleted customer's agents are deleted (docs/agents.md "Lifecycle"): `AgentDeleted` with this
 * reactor as its actor, so their tokens are refused, their device codes unknown and their pending
 * actions off the approval list. Checkpointed, at least once; an agent deleted already is skipped.
 * Both orders of a race are covered: on `CustomerDeleted` the agents read model (caught up to the
 * deletion) lists the agents created before it; on `AgentCreated` the customers read model (caught
 * up to the creation) says whether the customer was deleted before it.
 */
export function customerAgentsReactor(commandBus: CommandBus, agents: AgentsQuery, customers: CustomersQuery, waiter: ReadModelWaiter): Reactor {
  const deleteAgent = async (platformId: string, agentId: string) => {
    try {
      await commandBus.execute(new DeleteAgent(platformId, agentId));
    } catch (error) {
      if (!(error instanceof DomainError && error.code === 'REFERENCE_NOT_FOUND')) throw error;
    }
  };
  return {
    name: 'agent-customer-deletion',
    handles: ['CustomerDeleted', 'AgentCreated'],
    async react(event: RecordedEvent) {
      if (!(await waiter.waitFor(event.position, CATCH_UP_TIMEOUT_MS))) {
        // Thrown so the runner retries later: acting now could miss an agent or a deletion not projected yet.
        throw new Error('the read models have not reached this event yet');
      }
      const { platformId, customerId } = event.data as unknown as CustomerRef;
      if (event.type === 'AgentCreated') {
        const customer = await customers.findById(platformId, customerId);
        if (customer?.isDeleted) await deleteAgent(platformId, (event.data as unknown as { agentId: string }).agentId);
        return;
      }
      for (const agentId of await agents.idsOfCustomer(platformId, customerId)) await deleteAgent(platformId, agentId);
    },
  };
}
