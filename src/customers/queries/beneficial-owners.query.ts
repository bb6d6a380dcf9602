import { Inject, Injectable } from '@nestjs/common';
import { Pool } from 'pg';
import { FieldError } from '../../infra/domain/domain-error';
import { Page, PageRequest, toPage } from '../../infra/http/pagination';
import { PG_POOL } from '../../infra/postgres/pool';
import { BeneficialOwnerView, BusinessCustomerView, CustomerView } from './customer.view';
import { CustomersQuery } from './customers.query';

/** The business customer whose owners a request names, or why it names none (a field error). */
type OwnersCustomer = { customer: BusinessCustomerView; error: null } | { customer: null; error: 'NOT_FOUND' | 'INDIVIDUAL' };

/**
 * Reads of beneficial owners: they live in their business's view (the `customers` read model),
 * found by id through `customer_beneficial_owners`, which maps each owner id ever shown to its
 * business. A deleted business's owners are not found (docs/customers.md "Beneficial owners").
 */
@Injectable()
export class BeneficialOwnersQuery {
  constructor(
    @Inject(PG_POOL) private readonly pool: Pool,
    private readonly customers: CustomersQuery,
  ) {}

  /** The platform's active business customer `customerId`, or why not. */
  async businessCustomer(platformId: string, customerId: string): Promise<OwnersCustomer> {
    return ownersCustomer(await this.customers.findById(platformId, customerId));
  }

  /** The business that has (or had) owner `beneficialOwnerId`, or null. */
  async customerIdOf(platformId: string, beneficialOwnerId: string): Promise<string | null> {
    const result = await this.pool.query<{ customer_id: string }>(
      `SELECT customer_id FROM customer_beneficial_owners WHERE platform_id = $1 AND beneficial_owner_id = $2`,
      [platformId, beneficialOwnerId],
    );
    return result.rows[0]?.customer_id ?? null;
  }

  /** The owner as `GET /beneficial-owners/{id}` shows it (identifier masked), or null. */
  async findById(platformId: string, beneficialOwnerId: string): Promise<BeneficialOwnerView | null> {
    const customerId = await this.customerIdOf(platformId, beneficialOwnerId);
    if (!customerId) return null;
    const { customer } = await this.businessCustomer(platformId, customerId);
    return customer?.beneficialOwners.find((owner) => owner.id === beneficialOwnerId) ?? null;
  }

  /** One page of the business's owners, by `(createdAt, id)` like every list. */
  list(customer: BusinessCustomerView, page: PageRequest): Page<BeneficialOwnerView> {
    const ordered = [...customer.beneficialOwners].sort((a, b) => compareKeys(keyOf(a), keyOf(b)));
    const cursor = page.cursor as { createdAt: string; id: string } | null;
    const after = cursor ? ordered.filter((owner) => compareKeys(keyOf(owner), cursor) > 0) : ordered;
    return toPage(after.slice(0, page.limit + 1), page.limit, (owner) => owner, keyOf, ordered.length);
  }
}

function ownersCustomer(view: CustomerView | null): OwnersCustomer {
  if (!view || view.isDeleted) return { customer: null, error: 'NOT_FOUND' };
  if (view.customerType !== 'BUSINESS') return { customer: null, error: 'INDIVIDUAL' };
  return { customer: view, error: null };
}

/** `customerId` in a list query names no business of the platform: the list declares 400, not 404. */
export function unknownCustomerError(): FieldError {
  return { field: 'customerId', constraint: {}, message: 'customerId names no customer of this platform (unknown or deleted)' };
}

function keyOf(owner: BeneficialOwnerView): { createdAt: string; id: string } {
  return { createdAt: owner.createdAt, id: owner.id };
}

function compareKeys(a: { createdAt: string; id: string }, b: { createdAt: string; id: string }): number {
  if (a.createdAt !== b.createdAt) return a.createdAt < b.createdAt ? -1 : 1;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}
