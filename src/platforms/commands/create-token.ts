import { randomBytes } from 'node:crypto';
import { Command, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { CommandStore } from '../../infra/commands/command-store';
import { Permission, forbidden, missingPermissions } from '../../infra/http/permissions';
import { newId, streamNameFor } from '../../infra/ids';
import { logger } from '../../infra/logger';
import { PlatformCredentialStore } from '../platform-credentials';
import { CreatedApiTokenView } from '../queries/token.view';
import { TOKEN_STREAM } from '../streams';

export interface TokenRequest {
  name: string;
  /** At least one, each once (the controller checked it). */
  permissions: Permission[];
}

/** `POST /tokens`: answers the token with its secret, the only time the secret is shown. */
export class CreateToken extends Command<CreatedApiTokenView> {
  constructor(
    readonly platformId: string,
    /** The permissions of the credential that asks: a token is granted no more than these. */
    readonly grantedBy: readonly Permission[],
    readonly request: TokenRequest,
  ) {
    super();
  }
}

/**
 * Generates the pair (a 128-bit client id, a 256-bit secret), stores it hashed, then records the
 * token. The pair is stored first so that a token anyone can list (and revoke) always has its row:
 * a revocation then always finds what to delete. When the recording fails, the row is deleted
 * again (nobody has its secret, and nobody could revoke a token that was never recorded).
 */
@CommandHandler(CreateToken)
export class CreateTokenHandler implements ICommandHandler<CreateToken, CreatedApiTokenView> {
  constructor(
    private readonly commands: CommandStore,
    private readonly credentials: PlatformCredentialStore,
  ) {}

  async execute({ platformId, grantedBy, request }: CreateToken): Promise<CreatedApiTokenView> {
    // Least privilege holds for tokens made by tokens: a MANAGE token cannot mint a TRANSACT one.
    const missing = missingPermissions(request.permissions, grantedBy);
    if (missing.length > 0) throw forbidden(missing);
    const tokenId = newId('Token');
    const clientId = randomBytes(16).toString('hex');
    const clientSecret = randomBytes(32).toString('hex');
    const createdAt = new Date().toISOString();
    const { name, permissions } = request;
    await this.credentials.storeToken({ platformId, tokenId, clientId, clientSecret, permissions });
    try {
      await this.commands.handle(TOKEN_STREAM, streamNameFor(tokenId), {
        type: 'CreateToken',
        token: { tokenId, platformId, name, permissions, clientId, createdAt },
      });
    } catch (error) {
      await this.credentials.deleteToken(platformId, tokenId).catch((cleanup: unknown) =>
        logger.warn('an unrecorded token pair could not be deleted', { tokenId, error: cleanup instanceof Error ? cleanup.message : String(cleanup) }),
      );
      throw error;
    }
    return { id: tokenId, name, permissions, clientId, clientSecret, createdAt, updatedAt: createdAt };
  }
}
