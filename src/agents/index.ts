/**
 * The agents context's public entry: what other contexts, the read models and the app module may
 * use. Anything not exported here is internal to the context (test/architecture checks it).
 */
export { AgentsModule } from './agents.module';
export { AGENT_STREAM } from './streams';
export { AGENT_EVENT_TYPES } from './domain/agent.events';
export type { AgentEvent } from './domain/agent.events';
export type { AgentRecord } from './domain/agent.decider';
export { noUsage, reserveUsage } from './domain/usage';
export { releasedUsage } from './domain/agent-actions';
export { AGENT_ACTION_EVENT_TYPES } from './domain/agent-action.events';
export type { AgentActionEvent, AgentActionRequest, AgentActionStatus, AgentActionType } from './domain/agent-action.events';
export { agentView } from './queries/agent.view';
export type { AgentView } from './queries/agent.view';
export type { AuthenticatedAgent } from './http/agent-auth.guard';
export type { AgentActionSource } from './queries/agent-action.view';
