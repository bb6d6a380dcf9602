import { Inject } from '@nestjs/common';
import { Command, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { randomUUID } from 'node:crypto';
import { CommandStore } from '../../infra/commands/command-store';
import { APP_CONFIG, AppConfig } from '../../infra/config';
import { ValidationError } from '../../infra/domain/domain-error';
import { streamNameFor } from '../../infra/ids';
import { ExternalAccountCommand } from '../domain/external-account/external-account.decider';
import { OwnershipChallengeIssued, OwnershipVerificationMethod } from '../domain/external-account/external-account.events';
import { OwnershipChallengeView, ownershipChallengeView } from '../queries/ownership-challenge.view';
import { EXTERNAL_ACCOUNT_STREAM } from '../streams';
import { ExternalAccountScope, assertOwned } from './external-account-guards';

/** The sandbox liveness provider's hosted flow (a reserved host: nothing is served there). */
const SANDBOX_LIVENESS_URL = 'https://sandbox.liveness.invalid/sessions/';

/** `POST /customers|platform/external-accounts/{id}/challenge`: answers the challenge's material (201). */
export class IssueOwnershipChallenge extends Command<OwnershipChallengeView> {
  constructor(
    readonly platformId: string,
    readonly externalAccountId: string,
    readonly method: OwnershipVerificationMethod,
    readonly scope: ExternalAccountScope,
  ) {
    super();
  }
}

/**
 * Issues a new challenge, abandoning any earlier one (the decider refuses an account with nothing
 * to prove: 409). LIVENESS needs a provider: the sandbox's completes the flow by itself (the
 * `liveness-check` reactor); a production service has none configured, so it is refused there.
 */
@CommandHandler(IssueOwnershipChallenge)
export class IssueOwnershipChallengeHandler implements ICommandHandler<IssueOwnershipChallenge, OwnershipChallengeView> {
  constructor(
    private readonly commands: CommandStore,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async execute({ platformId, externalAccountId, method, scope }: IssueOwnershipChallenge): Promise<OwnershipChallengeView> {
    if (method === 'LIVENESS' && this.config.mode !== 'sandbox') {
      throw new ValidationError([{ field: 'method', constraint: { enum: ['WALLET_SIGNATURE'] }, message: 'No liveness provider is configured; use WALLET_SIGNATURE' }]);
    }
    const nonce = randomUUID();
    const result = await this.commands.handle(EXTERNAL_ACCOUNT_STREAM, streamNameFor(externalAccountId), (state): ExternalAccountCommand => {
      assertOwned(state, platformId, scope);
      return {
        type: 'IssueOwnershipChallenge',
        method,
        nonce,
        ...(method === 'LIVENESS' ? { verificationLink: `${SANDBOX_LIVENESS_URL}${nonce}` } : {}),
        now: new Date().toISOString(),
      };
    });
    const issued = result.events.find((event): event is OwnershipChallengeIssued => event.type === 'OwnershipChallengeIssued')!;
    return ownershipChallengeView(issued.data);
  }
}
