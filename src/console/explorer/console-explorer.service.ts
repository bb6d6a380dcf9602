import { Inject, Injectable } from '@nestjs/common';
import { AuditEntry } from '../../audit';
import { CustomersQuery } from '../../customers';
import { DomainError, ValidationError } from '../../infra/domain/domain-error';
import { labelOf } from './resource-labels';
import { RelatedResource, RelatedResources } from './related-resources';
import { ResourceFolds } from './resource-folds';
import { ResourceHistories, ResourceHistory } from './resource-history';
import { PublicViews } from './public-views';

export const RESOURCE_FOLDS = Symbol('ResourceFolds');

/**
 * A search result: a resource of this platform.
 * @example { "id": "Customer:019a2a17-5758-7d2e-8b1f-6c3e9a0d4f21", "type": "Customer", "label": "Customer · Jane Doe · pc-48213 · APPROVED" }
 */
export interface SearchResult {
  id: string;
  type: string;
  label: string;
}

export interface SearchAnswer {
  data: SearchResult[];
}

/**
 * A resource's page: its state now (as its public GET shows it, or its folded stream when it
 * has no GET), its whole event history (as `GET /audit/events` gives it, oldest first) and the
 * resources around it.
 */
export interface ResourcePage {
  id: string;
  type: string;
  /** The resource as its public GET answers it now, or its folded stream (absent: nothing to show). */
  state?: unknown;
  events: AuditEntry[];
  related: RelatedResource[];
}

/**
 * The resource right after its stream's revision `revision`.
 * @example { "id": "Card:019a4a19-1874-7c6d-8e2a-4b9f0a3d1c58", "type": "Card", "revision": 0, "state": { "id": "Card:019a4a19-1874-7c6d-8e2a-4b9f0a3d1c58", "state": "PROCESSING" } }
 */
export interface ResourceStateAt {
  id: string;
  type: string;
  revision: number;
  /** Absent when the resource was not shown then (a transaction GET did not list yet). */
  state?: unknown;
}

/** The platform console's explorer: search, resource pages, time travel. */
@Injectable()
export class ConsoleExplorer {
  constructor(
    private readonly histories: ResourceHistories,
    private readonly views: PublicViews,
    private readonly relatedResources: RelatedResources,
    @Inject(RESOURCE_FOLDS) private readonly folds: ResourceFolds,
    @Inject(CustomersQuery) private readonly customers: CustomersQuery,
  ) {}

  /** An id of this platform's resource, or a platformCustomerId (exact): its customer. */
  async search(platformId: string, text: string): Promise<SearchAnswer> {
    const [byId, byPlatformCustomerId] = await Promise.all([this.searchById(platformId, text), this.searchByPlatformCustomerId(platformId, text)]);
    const results = new Map([...byId, ...byPlatformCustomerId].map((result) => [result.id, result]));
    return { data: [...results.values()] };
  }

  async page(platformId: string, id: string): Promise<ResourcePage> {
    const history = await this.find(platformId, id);
    const state = await this.currentState(platformId, history);
    const related = await this.relatedResources.of(history, state, platformId);
    return { id, type: history.type, state, events: history.events, related };
  }

  async stateAt(platformId: string, id: string, revision: number): Promise<ResourceStateAt> {
    const history = await this.find(platformId, id);
    const revisions = history.events.map((event) => event.revision);
    if (revisions.length === 0 || revision < revisions[0] || revision > revisions[revisions.length - 1]) {
      const range = revisions.length === 0 ? `${id} has no event history` : `revision must be from ${revisions[0]} to ${revisions[revisions.length - 1]}`;
      throw new ValidationError([{ field: 'revision', constraint: {}, message: range }]);
    }
    const events = history.events.filter((event) => event.revision <= revision);
    const { state } = await this.folds.stateAfter(events, { resourceId: id, platformId }, history.ownStream);
    return { id, type: history.type, revision, state };
  }

  private async find(platformId: string, id: string): Promise<ResourceHistory> {
    const history = await this.histories.find(id, platformId);
    if (!history) throw new DomainError('REFERENCE_NOT_FOUND', 'Resource not found');
    return history;
  }

  /** As GET shows it now; a resource without a GET (or not shown by it yet) is its folded stream. */
  private async currentState(platformId: string, history: ResourceHistory): Promise<unknown> {
    if (history.delivery) return history.delivery;
    const shown = await this.views.find(platformId, history.type, history.id);
    if (shown) return shown;
    return (await this.folds.stateAfter(history.events, { resourceId: history.id, platformId }, history.ownStream)).state;
  }

  private async searchById(platformId: string, text: string): Promise<SearchResult[]> {
    const history = await this.histories.find(text, platformId);
    if (!history) return [];
    return [{ id: history.id, type: history.type, label: labelOf(history.type, await this.currentState(platformId, history)) }];
  }

  private async searchByPlatformCustomerId(platformId: string, text: string): Promise<SearchResult[]> {
    const page = await this.customers.list(platformId, { platformCustomerId: text }, { limit: 10, cursor: null });
    return page.data.map((customer) => ({ id: customer.id, type: 'Customer', label: labelOf('Customer', customer) }));
  }
}
