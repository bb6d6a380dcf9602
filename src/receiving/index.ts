/**
 * The receiving context's public entry: what other contexts, the read models and the app module may
 * use. Anything not exported here is internal to the context (test/architecture checks it).
 */
export { INCOMING_PAYMENT_EVENT_TYPES } from './domain/incoming-payment.events';
export type { IncomingPaymentEvent } from './domain/incoming-payment.events';
export { INCOMING_PAYMENT_TRANSACTION_REDUCERS } from './queries/incoming-payment.reducers';
export { ReceivingModule } from './receiving.module';
