import { streamType } from '../infra/commands/stream-type';
import { incomingPaymentDecider } from './domain/incoming-payment.decider';

/** The receiving context's streams, as the command store handles them (src/infra/commands). */
export const INCOMING_PAYMENT_STREAM = streamType({
  name: 'incoming payment',
  decider: incomingPaymentDecider,
  // The platform's approve and reject may race the webhook's answer and the deadline: each
  // re-decides on the fresh state, and the decision taken first stands.
  maxAttempts: 10,
});
