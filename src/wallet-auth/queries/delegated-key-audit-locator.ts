import { AuditResourceLocator, eventNames } from '../../audit';
import { streamNameFor } from '../../infra/ids';
import { DelegatedKeysQuery } from './delegated-keys.query';

/**
 * `GET /audit/events?resourceId=DelegatedKey:<id>`: a key's events (created, activated, revoked,
 * each with who did it) live in its card funding source's stream, among the other keys' events.
 */
export function delegatedKeyAuditLocator(query: DelegatedKeysQuery): AuditResourceLocator {
  return {
    prefixes: ['DelegatedKey'],
    async locate(resourceId, platformId) {
      const found = await query.find(platformId, resourceId);
      return found && { streamName: streamNameFor(found.fundingSourceId), concerns: (event) => eventNames(event, resourceId) };
    },
  };
}
