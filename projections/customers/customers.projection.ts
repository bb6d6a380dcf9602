import { Projection, ProjectionTransaction } from '../../src/infra/projections/projection';
import { CUSTOMER_EVENT_TYPES, CustomerEvent, customerView, documentView, verificationView } from '../../src/customers';
import { CustomerRecord, evolveCustomerRecord } from './customer-record';

/**
 * `customers`: one row per customer with the read model's record of it (`state`,
 * customer-record.ts) and its GET view (`view`), plus indexed columns for the list filters.
 * `customer_verifications` and `customer_documents` hold the views of `GET /verifications/{id}`
 * and uploaded documents. Every column comes from the events, so a rebuild reproduces the rows
 * exactly. Secret personal fields stay sealed in `state` and `view`; queries open them at read time.
 */
export const customersProjection: Projection = {
  name: 'customers',
  // 2: views in the reference's shapes (beneficial owner ids, incorporatedOn...); uma_address and currencies columns.
  // 3: secret personal fields sealed; CustomerPersonalDataErased clears them from state and views.
  // 4: `state` is the read model's own record (no tax identifier), no longer the write side's state.
  // 5: contactVerification (the channels the provider requires and their statuses) in state and view.
  // 6: customer_beneficial_owners (owner id -> its business, for GET/PATCH /beneficial-owners/{id}).
  // 7: customer_documents keep deleted documents (deleted_at) and name their holder, indexed for GET /documents.
  // 8: the customers primary key is created after the other indexes (see customersPrimaryKey).
  version: 8,
  tables: ['customers', 'customer_verifications', 'customer_documents', 'customer_beneficial_owners'],
  schema: (t) => [
    `CREATE TABLE IF NOT EXISTS ${t('customers')} (
       platform_id text NOT NULL,
       customer_id text NOT NULL,
       platform_customer_id text NOT NULL,
       customer_type text NOT NULL,
       kyc_status text,
       kyb_status text,
       region text,
       email text,
       uma_address text NOT NULL,
       currencies text[],
       is_deleted boolean NOT NULL,
       state text NOT NULL,
       view text NOT NULL,
       created_at timestamptz NOT NULL,
       updated_at timestamptz NOT NULL
     )`,
    `CREATE INDEX ON ${t('customers')} (platform_id, created_at, customer_id)`,
    `CREATE INDEX ON ${t('customers')} (platform_id, platform_customer_id)`,
    customersPrimaryKey(t('customers')),
    `CREATE TABLE IF NOT EXISTS ${t('customer_verifications')} (
       platform_id text NOT NULL,
       verification_id text NOT NULL,
       customer_id text NOT NULL,
       verification_status text NOT NULL,
       view text NOT NULL,
       created_at timestamptz NOT NULL,
       PRIMARY KEY (platform_id, verification_id)
     )`,
    `CREATE INDEX ON ${t('customer_verifications')} (platform_id, customer_id, created_at)`,
    `CREATE TABLE IF NOT EXISTS ${t('customer_documents')} (
       platform_id text NOT NULL,
       document_id text NOT NULL,
       customer_id text NOT NULL,
       document_holder text NOT NULL,
       view text NOT NULL,
       created_at timestamptz NOT NULL,
       deleted_at timestamptz,
       PRIMARY KEY (platform_id, document_id)
     )`,
    // GET /documents pages by (created_at, document_id), all of the platform's or one holder's.
    `CREATE INDEX ON ${t('customer_documents')} (platform_id, created_at, document_id)`,
    `CREATE INDEX ON ${t('customer_documents')} (platform_id, document_holder, created_at, document_id)`,
    // Every owner id a business ever showed; rows of owners a PATCH /customers replaced stay (the view decides).
    `CREATE TABLE IF NOT EXISTS ${t('customer_beneficial_owners')} (
       platform_id text NOT NULL,
       beneficial_owner_id text NOT NULL,
       customer_id text NOT NULL,
       PRIMARY KEY (platform_id, beneficial_owner_id)
     )`,
  ],
  handles: CUSTOMER_EVENT_TYPES,
  async apply(event, tx) {
    const typed = { type: event.type, data: event.data } as unknown as CustomerEvent;
    if (ROW_UNCHANGED_EVENTS.has(typed.type)) return;
    // A creation starts the record afresh: nothing to read.
    const previous = typed.type === 'CustomerCreated' ? null : await readCustomer(tx, typed.data.platformId, typed.data.customerId);
    const record = evolveCustomerRecord(previous, typed);
    if (record === null) return;
    if (record !== previous) writeCustomer(tx, record);
    if (OWNER_ID_EVENTS.includes(typed.type) && record.customerType === 'BUSINESS') writeOwnerIds(tx, record);
    if (typed.type === 'VerificationSubmitted') {
      const verification = typed.data;
      await tx.query(
        `INSERT INTO ${tx.table('customer_verifications')} (platform_id, verification_id, customer_id, verification_status, view, created_at)
         VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (platform_id, verification_id) DO NOTHING`,
        [
          record.platformId,
          verification.verificationId,
          record.customerId,
          verification.verificationStatus,
          JSON.stringify(verificationView(record.customerId, verification)),
          verification.submittedAt,
        ],
      );
    }
    if (typed.type === 'CustomerPersonalDataErased') {
      // The document views were written once, at upload: rewrite them without the erased numbers.
      for (const document of record.documents) {
        await tx.query(`UPDATE ${tx.table('customer_documents')} SET view = $3 WHERE platform_id = $1 AND document_id = $2`, [
          record.platformId,
          document.documentId,
          JSON.stringify(documentView(record.customerId, document)),
        ]);
      }
    }
    if (typed.type === 'DocumentUploaded') {
      const document = record.documents.find((candidate) => candidate.documentId === typed.data.documentId)!;
      await tx.query(
        `INSERT INTO ${tx.table('customer_documents')} (platform_id, document_id, customer_id, document_holder, view, created_at)
         VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (platform_id, document_id) DO NOTHING`,
        [
          record.platformId,
          document.documentId,
          record.customerId,
          document.holderId ?? record.customerId,
          JSON.stringify(documentView(record.customerId, document)),
          document.uploadedAt,
        ],
      );
    }
    if (typed.type === 'DocumentReplaced') {
      const document = record.documents.find((candidate) => candidate.documentId === typed.data.documentId);
      if (document) {
        tx.execute(`UPDATE ${tx.table('customer_documents')} SET view = $3 WHERE platform_id = $1 AND document_id = $2`, [
          record.platformId,
          document.documentId,
          JSON.stringify(documentView(record.customerId, document)),
        ]);
      }
    }
    if (typed.type === 'DocumentDeleted') {
      // The row stays, without the document's number: the audit history finds the document's
      // customer through it. Reads skip it.
      tx.execute(
        `UPDATE ${tx.table('customer_documents')} SET deleted_at = $3, view = jsonb_set(view::jsonb, '{documentNumber}', 'null')::text
          WHERE platform_id = $1 AND document_id = $2`,
        [record.platformId, typed.data.documentId, typed.data.deletedAt],
      );
    }
  },
};

/**
 * Events after which evolveCustomerRecord answers the record as it was and no other row moves:
 * applied without reading the customer's row (a creation's accounts, contact codes).
 */
const ROW_UNCHANGED_EVENTS: ReadonlySet<string> = new Set(['CustomerInternalAccountsOpened', 'ContactVerificationCodeSent', 'ContactVerificationCodeRejected']);

/**
 * The customers primary key, created after the other indexes, and only once (the schema may run
 * again on existing tables). Why the order: statements are prepared per connection, and Postgres
 * keeps a generic plan made while the table was empty for as long as the connection lives (until
 * an ANALYZE). On an empty table every index costs the same and the planner keeps the last one
 * created: with the key first, `WHERE platform_id = $1 AND customer_id = $2` ran on
 * (platform_id, platform_customer_id) and read every customer of the platform, per event. The
 * spec checks the generic plan on an empty table uses this key.
 */
function customersPrimaryKey(table: string): string {
  return `DO $$ BEGIN
    IF NOT EXISTS (SELECT 1 FROM pg_index WHERE indrelid = '${table}'::regclass AND indisprimary) THEN
      ALTER TABLE ${table} ADD PRIMARY KEY (platform_id, customer_id);
    END IF;
  END $$`;
}

/** The read model's record of the customer, null before its creation. */
async function readCustomer(tx: ProjectionTransaction, platformId: string, customerId: string): Promise<CustomerRecord | null> {
  const existing = await tx.query<{ state: CustomerRecord }>(
    `SELECT state::json AS state FROM ${tx.table('customers')} WHERE platform_id = $1 AND customer_id = $2`,
    [platformId, customerId],
  );
  return existing.rows[0]?.state ?? null;
}

/** The events that can show a new owner id (an update keeps the owner's id). */
const OWNER_ID_EVENTS: string[] = ['CustomerCreated', 'CustomerUpdated', 'BeneficialOwnerAdded'];

function writeOwnerIds(tx: ProjectionTransaction, record: CustomerRecord): void {
  const view = customerView(record);
  if (view.customerType !== 'BUSINESS' || view.beneficialOwners.length === 0) return;
  tx.execute(
    `INSERT INTO ${tx.table('customer_beneficial_owners')} (platform_id, beneficial_owner_id, customer_id)
     SELECT $1, unnest($2::text[]), $3 ON CONFLICT (platform_id, beneficial_owner_id) DO NOTHING`,
    [record.platformId, view.beneficialOwners.map((owner) => owner.id), record.customerId],
  );
}

/** The customer's row: the record, its GET view and the columns the list filters on (pipelined). */
function writeCustomer(tx: ProjectionTransaction, record: CustomerRecord): void {
  tx.execute(
    `INSERT INTO ${tx.table('customers')}
       (platform_id, customer_id, platform_customer_id, customer_type, kyc_status, kyb_status, region, email,
        is_deleted, state, view, created_at, updated_at, uma_address, currencies)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15)
     ON CONFLICT (platform_id, customer_id) DO UPDATE SET
       kyc_status = EXCLUDED.kyc_status, kyb_status = EXCLUDED.kyb_status, region = EXCLUDED.region,
       email = EXCLUDED.email, is_deleted = EXCLUDED.is_deleted, state = EXCLUDED.state, view = EXCLUDED.view,
       updated_at = EXCLUDED.updated_at, uma_address = EXCLUDED.uma_address, currencies = EXCLUDED.currencies`,
    [
      record.platformId,
      record.customerId,
      record.platformCustomerId,
      record.customerType,
      record.kycStatus,
      record.kybStatus,
      record.profile.region,
      record.profile.email,
      record.status === 'deleted',
      JSON.stringify(record),
      JSON.stringify(customerView(record)),
      record.createdAt,
      record.updatedAt,
      record.umaAddress,
      record.profile.currencies ?? null,
    ],
  );
}
