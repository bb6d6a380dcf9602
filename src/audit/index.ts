/**
 * The audit context's public entry: what other contexts, the read models and the app module may
 * use. Anything not exported here is internal to the context (test/architecture checks it).
 */
export { AuditResourceLocators, eventNames } from './audit-locators';
export type { AuditDataPresenter, AuditResourceLocator } from './audit-locators';
export { AuditModule } from './audit.module';
// The console: a resource's whole history, as GET /audit/events answers it.
export { AuditService } from './audit.service';
export type { AuditEntry } from './audit.service';
