import { Inject, Injectable } from '@nestjs/common';
import { Pool } from 'pg';
import { PersonalDataKeys } from '../../infra/crypto/personal-data';
import { DomainError } from '../../infra/domain/domain-error';
import { PG_POOL, lookup } from '../../infra/postgres/pool';
import { Page, PageRequest, toPage } from '../../infra/http/pagination';
import { CustomerType, KybStatus, KycStatus } from '../domain/customer/customer.events';
import { CustomerView, StoredCustomerView, VerificationView } from './customer.view';
import { openCustomerView } from './personal-data-views';

export interface CustomerFilters {
  platformCustomerId?: string;
  customerType?: CustomerType;
  /** Inclusive bounds, ISO instants. */
  createdAfter?: string;
  createdBefore?: string;
  updatedAfter?: string;
  updatedBefore?: string;
  region?: string;
  /** Customers whose `currencies` include it; customers created without `currencies` use the platform's and match any. */
  currency?: string;
  umaAddress?: string;
  /** The reference's KycStatus/KybStatus (HOLD included, though the sandbox never sets it). */
  kycStatus?: KycStatus | 'HOLD';
  kybStatus?: KybStatus | 'HOLD';
  email?: string;
  includeDeleted?: boolean;
}

export interface VerificationFilters {
  customerId?: string;
  verificationStatus?: string;
}

/**
 * Read side of the customers context (the `customers` projection). Exported to other contexts:
 * `findById` answers the customer exactly as `GET /customers/{id}` shows it (deleted customers
 * included, with `isDeleted: true`), or null for an unknown id or another platform's customer.
 * The read model keeps secret personal fields sealed; views are opened here, at read time.
 */
@Injectable()
export class CustomersQuery {
  constructor(
    @Inject(PG_POOL) private readonly pool: Pool,
    private readonly personalData: PersonalDataKeys,
  ) {}

  async findById(platformId: string, customerId: string): Promise<CustomerView | null> {
    const result = await lookup<{ view: StoredCustomerView }>(
      this.pool,
      `SELECT view::json AS view FROM customers WHERE platform_id = $1 AND customer_id = $2`,
      [platformId, customerId],
    );
    const view = result.rows[0]?.view;
    return view ? openCustomerView(view, this.personalData) : null;
  }

  /** The platform's customer (not deleted) at this UMA address, compared case-insensitively. */
  async findByUmaAddress(platformId: string, umaAddress: string): Promise<CustomerView | null> {
    const result = await lookup<{ view: StoredCustomerView }>(
      this.pool,
      `SELECT view::json AS view FROM customers WHERE platform_id = $1 AND lower(uma_address) = lower($2) AND NOT is_deleted LIMIT 1`,
      [platformId, umaAddress],
    );
    const view = result.rows[0]?.view;
    return view ? openCustomerView(view, this.personalData) : null;
  }

  /**
   * A customer who may move money: exists (404 USER_NOT_FOUND), not deleted (410
   * CUSTOMER_DELETED) and approved, KYC or KYB (403 with reason CUSTOMER_NOT_APPROVED).
   */
  async findApprovedToTransact(platformId: string, customerId: string): Promise<CustomerView> {
    const customer = await this.findById(platformId, customerId);
    if (!customer) throw new DomainError('USER_NOT_FOUND', 'Customer not found');
    if (customer.isDeleted) throw new DomainError('CUSTOMER_DELETED', 'The customer was deleted');
    const status = customer.customerType === 'INDIVIDUAL' ? customer.kycStatus : customer.kybStatus;
    if (status !== 'APPROVED') {
      throw new DomainError('FORBIDDEN', 'The customer is not approved to transact', {
        reason: 'CUSTOMER_NOT_APPROVED',
        [customer.customerType === 'INDIVIDUAL' ? 'kycStatus' : 'kybStatus']: status,
      });
    }
    return customer;
  }

  /** Ids of the platform's customers that are not deleted, oldest first, `batchSize` at a time. */
  async *activeCustomerIds(platformId: string, batchSize = 500): AsyncGenerator<string[]> {
    let after: { createdAt: Date; customerId: string } | null = null;
    for (;;) {
      const params: unknown[] = [platformId, batchSize];
      let keyset = '';
      if (after) {
        params.push(after.createdAt, after.customerId);
        keyset = 'AND (created_at, customer_id) > ($3::timestamptz, $4)';
      }
      const result: { rows: Array<{ customer_id: string; created_at: Date }> } = await this.pool.query(
        `SELECT customer_id, created_at FROM customers WHERE platform_id = $1 AND NOT is_deleted ${keyset}
          ORDER BY created_at, customer_id LIMIT $2`,
        params,
      );
      if (result.rows.length === 0) return;
      yield result.rows.map((row) => row.customer_id);
      const last = result.rows[result.rows.length - 1];
      after = { createdAt: last.created_at, customerId: last.customer_id };
    }
  }

  async list(platformId: string, filters: CustomerFilters, page: PageRequest): Promise<Page<CustomerView>> {
    const conditions = ['platform_id = $1'];
    const params: unknown[] = [platformId];
    const add = (sql: string, value: unknown) => {
      params.push(value);
      conditions.push(sql.replace('?', `$${params.length}`));
    };
    if (filters.platformCustomerId !== undefined) add('platform_customer_id = ?', filters.platformCustomerId);
    if (filters.customerType !== undefined) add('customer_type = ?', filters.customerType);
    if (filters.kycStatus !== undefined) add('kyc_status = ?', filters.kycStatus);
    if (filters.kybStatus !== undefined) add('kyb_status = ?', filters.kybStatus);
    if (filters.createdAfter !== undefined) add('created_at >= ?::timestamptz', filters.createdAfter);
    if (filters.createdBefore !== undefined) add('created_at <= ?::timestamptz', filters.createdBefore);
    if (filters.updatedAfter !== undefined) add('updated_at >= ?::timestamptz', filters.updatedAfter);
    if (filters.updatedBefore !== undefined) add('updated_at <= ?::timestamptz', filters.updatedBefore);
    if (filters.region !== undefined) add('region = ?', filters.region);
    if (filters.currency !== undefined) add('(currencies IS NULL OR ? = ANY(currencies))', filters.currency);
    if (filters.umaAddress !== undefined) add('lower(uma_address) = lower(?)', filters.umaAddress);
    if (filters.email !== undefined) add('lower(email) = lower(?)', filters.email);
    if (!filters.includeDeleted) conditions.push('NOT is_deleted');
    const where = conditions.join(' AND ');
    const total = await this.pool.query<{ count: string }>(`SELECT count(*) FROM customers WHERE ${where}`, params);
    const pageConditions = [...conditions];
    const pageParams = [...params];
    if (page.cursor) {
      pageParams.push(String(page.cursor.createdAt), String(page.cursor.id));
      pageConditions.push(`(created_at, customer_id) > ($${pageParams.length - 1}::timestamptz, $${pageParams.length})`);
    }
    pageParams.push(page.limit + 1);
    const rows = await this.pool.query<{ view: StoredCustomerView; created_at: Date; customer_id: string }>(
      `SELECT view::json AS view, created_at, customer_id FROM customers WHERE ${pageConditions.join(' AND ')}
        ORDER BY created_at, customer_id LIMIT $${pageParams.length}`,
      pageParams,
    );
    const opened = await Promise.all(rows.rows.map(async (row) => ({ ...row, view: await openCustomerView(row.view, this.personalData) })));
    return toPage(
      opened,
      page.limit,
      (row) => row.view,
      (row) => ({ createdAt: row.created_at.toISOString(), id: row.customer_id }),
      Number(total.rows[0].count),
    );
  }

  async findVerification(platformId: string, verificationId: string): Promise<VerificationView | null> {
    const result = await this.pool.query<{ view: VerificationView }>(
      `SELECT view::json AS view FROM customer_verifications WHERE platform_id = $1 AND verification_id = $2`,
      [platformId, verificationId],
    );
    return result.rows[0]?.view ?? null;
  }

  async listVerifications(platformId: string, filters: VerificationFilters, page: PageRequest): Promise<Page<VerificationView>> {
    const conditions = ['platform_id = $1'];
    const params: unknown[] = [platformId];
    if (filters.customerId !== undefined) {
      params.push(filters.customerId);
      conditions.push(`customer_id = $${params.length}`);
    }
    if (filters.verificationStatus !== undefined) {
      params.push(filters.verificationStatus);
      conditions.push(`verification_status = $${params.length}`);
    }
    const total = await this.pool.query<{ count: string }>(`SELECT count(*) FROM customer_verifications WHERE ${conditions.join(' AND ')}`, params);
    if (page.cursor) {
      params.push(String(page.cursor.createdAt), String(page.cursor.id));
      conditions.push(`(created_at, verification_id) > ($${params.length - 1}::timestamptz, $${params.length})`);
    }
    params.push(page.limit + 1);
    const rows = await this.pool.query<{ view: VerificationView; created_at: Date; verification_id: string }>(
      `SELECT view::json AS view, created_at, verification_id FROM customer_verifications WHERE ${conditions.join(' AND ')}
        ORDER BY created_at, verification_id LIMIT $${params.length}`,
      params,
    );
    return toPage(
      rows.rows,
      page.limit,
      (row) => row.view,
      (row) => ({ createdAt: row.created_at.toISOString(), id: row.verification_id }),
      Number(total.rows[0].count),
    );
  }
}
