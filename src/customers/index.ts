/**
 * The customers context's public entry: what other contexts, the read models and the app module may
 * use. Anything not exported here is internal to the context (test/architecture checks it).
 */
export { CustomerLifecycleHooks } from './customer-lifecycle-hooks';
export { CustomersHttpModule } from './customers-http.module';
export { BULK_IMPORT_STREAM, CUSTOMER_STREAM } from './streams';
export { CustomersModule } from './customers.module';
export { customerDecider } from './domain/customer/customer.decider';
export { CUSTOMER_EVENT_TYPES } from './domain/customer/customer.events';
export { evolveBeneficialOwners } from './domain/customer/beneficial-owners';
export type { CustomerEvent } from './domain/customer/customer.events';
export type { ContactVerificationStatus } from './domain/customer/contact-verification.events';
export type { BeneficialOwner, CustomerProfile, CustomerType, DocumentRecord, KybStatus, KycStatus } from './domain/customer/customer.events';
export { customerView, customerViewFromEvents, documentView, verificationView } from './queries/customer.view';
// The console's time travel: a folded customer view opened as GET shows it.
export { openCustomerView } from './queries/personal-data-views';
export { BULK_IMPORT_EVENT_TYPES } from './domain/bulk-import/bulk-import.events';
export type { BulkImportEvent, BulkImportRowResult } from './domain/bulk-import/bulk-import.events';
export type { BulkImportJobSummary } from './queries/bulk-import.view';
export type { CustomerView } from './queries/customer.view';
export { CustomersQuery } from './queries/customers.query';
export { assertEndUserTermsAccepted } from './domain/customer/end-user-terms';
