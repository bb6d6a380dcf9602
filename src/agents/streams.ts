import { streamType } from '../infra/commands/stream-type';
import { agentDecider } from './domain/agent.decider';

/**
 * One stream per agent, `agent-<uuid>`: the agent, its policy, device codes and token hash, and
 * (next steps of issue 26) its actions and usage, so an action's spend is reserved in the same
 * decision that checks the limits, at the stream's expected revision.
 */
export const AGENT_STREAM = streamType({
  name: 'agent',
  decider: agentDecider,
  // Concurrent actions of one agent re-decide on the fresh state (the limits then see every
  // reservation recorded before) this many times before 409 CONFLICT.
  maxAttempts: 50,
});
