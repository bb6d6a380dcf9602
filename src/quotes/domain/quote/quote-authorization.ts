import { DomainError, FieldError } from '../../../infra/domain/domain-error';
import { QuoteEvent, QuoteFunding, QuoteScaChallenge, QuoteSource } from './quote.events';

/**
 * The PENDING_AUTHORIZATION part of the quote decider (SPEC.md quote status table, DECISIONS.md
 * section 3). The SCA context checks the proofs and sequences the challenges; the quote records
 * what the customer is shown and what happens at the end:
 *
 *   PENDING --execute (SCA region)--> PENDING_AUTHORIZATION --next challenge--> PENDING_AUTHORIZATION
 *   PENDING_AUTHORIZATION --last challenge satisfied--> EXECUTING (prefunded) | PENDING (REALTIME_FUNDING)
 *   PENDING_AUTHORIZATION --a challenge expired--> FAILED (SCA_NOT_COMPLETED, nothing moved)
 *
 * Each step names its sequence, so a step of another (older) sequence, or one already applied, is
 * a no-op: the SCA reactor and the authorizing request may both deliver it.
 */
export interface PendingAuthorization {
  sequenceId: string;
  scaFactor: string;
  scaChallenge: QuoteScaChallenge;
}

export interface AuthorizationRequest extends PendingAuthorization {
  scaPlan: Record<string, unknown>;
}

export type AuthorizationCommand =
  | ({ type: 'RequestAuthorization'; now: string } & AuthorizationRequest)
  | { type: 'RecordScaChallenge'; sequenceId: string; scaChallenge: QuoteScaChallenge; now: string }
  | { type: 'ReleaseAuthorized'; sequenceId: string; holdId: string; now: string }
  | { type: 'FailAuthorization'; sequenceId: string; failureReason: string; now: string };

/** What the authorization steps read of a quote. */
interface QuoteFacts {
  status: string;
  quoteId: string;
  transactionId: string;
  platformId: string;
  attempts: number;
  totalSendingAmount: number;
  source: QuoteSource;
  funding: QuoteFunding;
  authorization?: PendingAuthorization;
}

/** Per-transaction SCA factors (SPEC.md "Execute a quote"): TOTP cannot carry the dynamic linking a payment challenge needs. */
export const PER_TRANSACTION_FACTORS = ['SMS_OTP', 'PASSKEY'];

/** The field error for a `scaFactor` that cannot authorize a transfer, or null when it can. */
export function perTransactionFactorError(scaFactor: string): FieldError | null {
  if (PER_TRANSACTION_FACTORS.includes(scaFactor)) return null;
  return {
    field: 'scaFactor',
    constraint: { enum: PER_TRANSACTION_FACTORS },
    message: scaFactor === 'TOTP'
      ? 'TOTP cannot authorize a transfer (it cannot carry dynamic linking); use SMS_OTP or PASSKEY'
      : `scaFactor must be one of ${PER_TRANSACTION_FACTORS.join(', ')}`,
  };
}

/** Execute (or sandbox send) while the challenges are pending: 409 (SPEC.md quote status table). */
export function pendingAuthorizationConflict(): DomainError {
  return new DomainError('CONFLICT', 'The quote is waiting for SCA authorization: POST /quotes/{quoteId}/authorize', {
    reason: 'QUOTE_PENDING_AUTHORIZATION',
    status: 'PENDING_AUTHORIZATION',
  });
}

export function authorizationRequested(state: QuoteFacts, request: AuthorizationRequest, now: string): QuoteEvent {
  return {
    type: 'QuoteAuthorizationRequested',
    data: {
      quoteId: state.quoteId,
      transactionId: state.transactionId,
      platformId: state.platformId,
      sequenceId: request.sequenceId,
      scaFactor: request.scaFactor,
      scaChallenge: request.scaChallenge,
      scaPlan: request.scaPlan,
      requestedAt: now,
    },
  };
}

/** RecordScaChallenge, ReleaseAuthorized, FailAuthorization. */
export function decideAuthorizationStep(command: Exclude<AuthorizationCommand, { type: 'RequestAuthorization' }>, state: QuoteFacts): QuoteEvent[] {
  const authorization = state.authorization;
  if (state.status !== 'PENDING_AUTHORIZATION' || !authorization || authorization.sequenceId !== command.sequenceId) return [];
  const ref = { quoteId: state.quoteId, transactionId: state.transactionId, platformId: state.platformId, sequenceId: command.sequenceId };
  switch (command.type) {
    case 'RecordScaChallenge':
      if (authorization.scaChallenge.id === command.scaChallenge.id) return [];
      return [{ type: 'QuoteScaChallengeIssued', data: { ...ref, scaChallenge: command.scaChallenge, issuedAt: command.now } }];

    case 'ReleaseAuthorized': {
      const authorized: QuoteEvent = { type: 'QuoteAuthorized', data: { ...ref, authorizedAt: command.now } };
      if (state.source.sourceType === 'REALTIME_FUNDING' || state.funding.sourceAccountId === null) return [authorized];
      const { sequenceId: _sequenceId, ...quoteRef } = ref;
      return [
        authorized,
        {
          type: 'QuoteExecutionRequested',
          data: {
            ...quoteRef,
            attempt: state.attempts + 1,
            holdId: command.holdId,
            sourceAccountId: state.funding.sourceAccountId,
            amount: state.totalSendingAmount,
            scaFactor: authorization.scaFactor,
            requestedAt: command.now,
          },
        },
      ];
    }

    case 'FailAuthorization':
      return [{ type: 'QuoteAuthorizationFailed', data: { ...ref, failureReason: command.failureReason, failedAt: command.now } }];
  }
}
