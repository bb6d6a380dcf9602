import { Injectable } from '@nestjs/common';
import { CommandStore } from '../../infra/commands/command-store';
import { parseId, streamNameFor } from '../../infra/ids';
import { ExistingProviderAccount } from '../domain/provider-account/provider-account.decider';
import { StablecoinProvider } from '../domain/provider-account/provider-account.events';
import { providerAccountInvalid, providerAccountNotFound, providerAccountRevoked, providerAccountSelectionRequired } from '../domain/stablecoins.errors';
import { StablecoinsQuery } from '../queries/stablecoins.query';
import { PROVIDER_ACCOUNT_STREAM } from '../streams';

/** Which link a request uses, checked on the link's own stream (the read model may lag a revocation). */
@Injectable()
export class ProviderAccountLinks {
  constructor(
    private readonly commands: CommandStore,
    private readonly query: StablecoinsQuery,
  ) {}

  /**
   * The named link, or the platform's only ACTIVE link of the provider: none is 404
   * STABLECOIN_PROVIDER_ACCOUNT_NOT_FOUND, several are 400 ..._SELECTION_REQUIRED.
   */
  async select(platformId: string, provider: StablecoinProvider, requestedId: string | null): Promise<ExistingProviderAccount> {
    if (requestedId !== null) return this.usable(platformId, requestedId);
    const active = await this.query.activeProviderAccountIds(platformId, provider);
    if (active.length === 0) throw providerAccountNotFound({ reason: 'NO_ACTIVE_LINK', provider });
    if (active.length > 1) throw providerAccountSelectionRequired(active);
    return this.usable(platformId, active[0]);
  }

  /** The platform's link if it can be used now: REVOKED and INVALID links are refused with their codes. */
  async usable(platformId: string, linkId: string): Promise<ExistingProviderAccount> {
    if (!parseId('StablecoinProviderAccount', linkId)) throw providerAccountNotFound();
    const { state } = await this.commands.load(PROVIDER_ACCOUNT_STREAM, streamNameFor(linkId));
    if (state.status === 'none' || state.platformId !== platformId) throw providerAccountNotFound();
    if (state.status === 'REVOKED') throw providerAccountRevoked(linkId);
    if (state.status === 'INVALID') throw providerAccountInvalid({ stablecoinProviderAccountId: linkId, reason: 'PROVIDER_CREDENTIALS_NO_LONGER_VALID' });
    return state;
  }
}
