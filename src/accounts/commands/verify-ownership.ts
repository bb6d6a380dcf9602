import { Inject } from '@nestjs/common';
import { Command, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { CommandStore } from '../../infra/commands/command-store';
import { DomainError } from '../../infra/domain/domain-error';
import { streamNameFor } from '../../infra/ids';
import { READ_MODEL_WAITER, ReadModelWaiter, awaitOwnWrites } from '../../infra/projections/read-model-waiter';
import { ExternalAccountCommand } from '../domain/external-account/external-account.decider';
import { OwnershipVerificationFailed, SignatureScheme } from '../domain/external-account/external-account.events';
import { verifyOwnershipSignature } from '../ownership/wallet-signatures';
import { ExternalAccountView, externalAccountView } from '../queries/external-account.view';
import { EXTERNAL_ACCOUNT_STREAM } from '../streams';
import { ExternalAccountScope, assertOwned, existing } from './external-account-guards';

/** `POST /customers|platform/external-accounts/{id}/verify`: answers the account, ACTIVE. */
export class VerifyOwnership extends Command<ExternalAccountView> {
  constructor(
    readonly platformId: string,
    readonly externalAccountId: string,
    readonly signature: string,
    readonly signatureScheme: SignatureScheme | undefined,
    readonly scope: ExternalAccountScope,
  ) {
    super();
  }
}

const FAILURES: Record<OwnershipVerificationFailed['data']['reason'], string> = {
  INVALID_SIGNATURE: "The signature is not the wallet's over the challenge's message",
  CHALLENGE_EXPIRED: 'The challenge expired',
  LIVENESS_FAILED: 'The liveness check failed',
};

/**
 * Checks the signature against the outstanding challenge's message (wallet-signatures.ts) and
 * records the outcome either way: a failed or late answer is recorded (the account UNVERIFIED,
 * the challenge used up) and then answered 400, as the reference says.
 */
@CommandHandler(VerifyOwnership)
export class VerifyOwnershipHandler implements ICommandHandler<VerifyOwnership, ExternalAccountView> {
  constructor(
    private readonly commands: CommandStore,
    @Inject(READ_MODEL_WAITER) private readonly waiter: ReadModelWaiter,
  ) {}

  async execute({ platformId, externalAccountId, signature, signatureScheme, scope }: VerifyOwnership): Promise<ExternalAccountView> {
    const result = await this.commands.handle(EXTERNAL_ACCOUNT_STREAM, streamNameFor(externalAccountId), (state): ExternalAccountCommand => {
      assertOwned(state, platformId, scope);
      const message = state.ownershipChallenge?.messageToSign;
      const signatureValid =
        message !== undefined &&
        verifyOwnershipSignature({ accountType: state.accountInfo.accountType, address: state.accountInfo.identifiers.address, message, signature, signatureScheme });
      return { type: 'AnswerOwnershipChallenge', signature, ...(signatureScheme ? { signatureScheme } : {}), signatureValid, now: new Date().toISOString() };
    });
    const failure = result.events.find((event): event is OwnershipVerificationFailed => event.type === 'OwnershipVerificationFailed');
    if (failure) {
      // An error answer skips the response's read-your-writes wait, but this one changed the
      // account: a GET right after it shows UNVERIFIED.
      await awaitOwnWrites(this.waiter);
      const message = `${FAILURES[failure.data.reason]}; the account is UNVERIFIED: start a new challenge`;
      throw new DomainError('INVALID_INPUT', message, { reason: failure.data.reason, errors: [{ field: 'signature', constraint: {}, message }] });
    }
    return externalAccountView(existing(result.state));
  }
}
