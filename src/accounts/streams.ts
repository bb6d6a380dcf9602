import { streamType } from '../infra/commands/stream-type';
import { externalAccountDecider } from './domain/external-account/external-account.decider';
import { transactionDecider } from './domain/transaction/transaction.decider';

/** The accounts context's streams, as the command store handles them (src/infra/commands). */
export const TRANSFER_STREAM = streamType({
  name: 'transfer',
  decider: transactionDecider,
});

export const EXTERNAL_ACCOUNT_STREAM = streamType({
  name: 'external account',
  decider: externalAccountDecider,
});
