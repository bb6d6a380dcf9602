import { Inject } from '@nestjs/common';
import { Command, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { KEY_VAULT, KeyVault } from '../../infra/crypto/key-vault';
import { delegatedKeyNotFound } from '../domain/wallet-auth.errors';
import { DelegatedKeysQuery } from '../queries/delegated-keys.query';
import { WalletAuthStore } from '../services/wallet-auth.store';
import { WalletClock } from '../services/wallet-clock';
import { vaultIds } from '../wallet-auth.constants';

/** `DELETE /auth/delegated-keys/{id}`: 204. */
export class RevokeDelegatedKey extends Command<void> {
  constructor(
    readonly platformId: string,
    readonly delegatedKeyId: string,
  ) {
    super();
  }
}

/**
 * Revokes an ACTIVE key (a PENDING or REVOKED one is 400) on its funding source's stream, which
 * every signing check reads: the key signs nothing from the next request on. Its custodied
 * private key is then destroyed, as the reference's deleted signer identity takes its API key
 * along. A platform call, unsigned: the reference's operation takes no wallet signature, and a
 * platform must be able to cut a key off even when the owner cannot log in.
 */
@CommandHandler(RevokeDelegatedKey)
export class RevokeDelegatedKeyHandler implements ICommandHandler<RevokeDelegatedKey, void> {
  constructor(
    private readonly clock: WalletClock,
    private readonly store: WalletAuthStore,
    private readonly query: DelegatedKeysQuery,
    @Inject(KEY_VAULT) private readonly vault: KeyVault,
  ) {}

  async execute({ platformId, delegatedKeyId }: RevokeDelegatedKey): Promise<void> {
    const location = await this.query.find(platformId, delegatedKeyId);
    if (!location) throw delegatedKeyNotFound();
    await this.store.handleFundingSourceKeys(location.fundingSourceId, { type: 'RevokeDelegatedKey', delegatedKeyId, now: this.clock.now().toISOString() });
    await this.vault.destroy(vaultIds.delegatedKey(delegatedKeyId));
  }
}
