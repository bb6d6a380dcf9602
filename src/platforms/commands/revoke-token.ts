import { Command, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { CommandStore } from '../../infra/commands/command-store';
import { streamNameFor } from '../../infra/ids';
import { PlatformCredentialStore } from '../platform-credentials';
import { TOKEN_STREAM } from '../streams';

/** `DELETE /tokens/{tokenId}`: answers nothing (204). */
export class RevokeToken extends Command<void> {
  constructor(
    readonly platformId: string,
    readonly tokenId: string,
  ) {
    super();
  }
}

/**
 * Deletes the token's pair first, so that every process refuses it from the next request on
 * (PlatformCredentialStore), then records the revocation; an unknown, another platform's or an
 * already revoked token deletes nothing and is refused by the decider (TOKEN_NOT_FOUND). When the
 * recording fails, the token is already unusable and a retried `DELETE` records it.
 */
@CommandHandler(RevokeToken)
export class RevokeTokenHandler implements ICommandHandler<RevokeToken, void> {
  constructor(
    private readonly commands: CommandStore,
    private readonly credentials: PlatformCredentialStore,
  ) {}

  async execute({ platformId, tokenId }: RevokeToken): Promise<void> {
    await this.credentials.deleteToken(platformId, tokenId);
    await this.commands.handle(TOKEN_STREAM, streamNameFor(tokenId), { type: 'RevokeToken', platformId, now: new Date().toISOString() });
  }
}
