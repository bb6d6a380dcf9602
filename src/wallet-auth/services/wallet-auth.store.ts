import { Injectable } from '@nestjs/common';
import { HandledCommand } from '../../infra/commands/command-store';
import { EventStoreService } from '../../infra/event-store/event-store.service';
import { parseId, streamNameFor } from '../../infra/ids';
import { recordAppendedPosition } from '../../infra/request-context';
import { FundingSourceKeysCommand, FundingSourceKeysState } from '../domain/delegated-key/delegated-key.decider';
import { DelegatedKeyEvent } from '../domain/delegated-key/delegated-key.events';
import { WalletRequestCommand, WalletRequestState, walletRequestDecider } from '../domain/request/request.decider';
import { WalletRequestEvent } from '../domain/request/request.events';
import { WalletSessionCommand, WalletSessionState, walletSessionDecider } from '../domain/session/session.decider';
import { WalletSessionEvent } from '../domain/session/session.events';
import { WalletCommand, WalletState, walletDecider } from '../domain/wallet/wallet.decider';
import { WalletEvent } from '../domain/wallet/wallet.events';
import { walletAccountNotFound } from '../domain/wallet-auth.errors';
import { CommandStore } from '../../infra/commands/command-store';
import { CARD_FUNDING_SOURCE_STREAM, WALLET_REQUEST_STREAM, WALLET_SESSION_STREAM, WALLET_STREAM } from '../streams';

/**
 * The context's stream kinds: `walletAuth-<account uuid>` (credentials of one wallet),
 * `request-<uuid>` (a pending signed request), `session-<uuid>` and `cardFundingSource-<uuid>`
 * (the delegated keys of a card funding source). Every write goes through the
 * event store's read/decide/append loop with the expected revision.
 */
@Injectable()
export class WalletAuthStore {
  constructor(
    private readonly events: EventStoreService,
    private readonly commands: CommandStore,
  ) {}

  walletStream(accountId: string): string {
    const uuid = parseId('InternalAccount', accountId);
    if (!uuid) throw walletAccountNotFound();
    return `walletAuth-${uuid}`;
  }

  async loadWallet(accountId: string): Promise<WalletState> {
    return (await this.commands.load(WALLET_STREAM, this.walletStream(accountId))).state;
  }

  handleWallet(accountId: string, command: WalletCommand): Promise<HandledCommand<WalletState, WalletEvent>> {
    return this.commands.handle(WALLET_STREAM, this.walletStream(accountId), command);
  }

  /**
   * Makes the current request wait (read-your-writes) for the wallet stream as it is now, even when
   * this request appended nothing because a reactor did the same work first.
   */
  async includeWalletInOwnWrites(accountId: string): Promise<void> {
    const events = await this.events.readStream(this.walletStream(accountId));
    if (events.length > 0) recordAppendedPosition(events[events.length - 1].position);
  }

  async loadRequest(requestId: string): Promise<WalletRequestState> {
    return (await this.commands.load(WALLET_REQUEST_STREAM, streamNameFor(requestId))).state;
  }

  handleRequest(requestId: string, command: WalletRequestCommand): Promise<HandledCommand<WalletRequestState, WalletRequestEvent>> {
    return this.commands.handle(WALLET_REQUEST_STREAM, streamNameFor(requestId), command);
  }

  async loadSession(sessionId: string): Promise<WalletSessionState> {
    return (await this.commands.load(WALLET_SESSION_STREAM, streamNameFor(sessionId))).state;
  }

  handleSession(sessionId: string, command: WalletSessionCommand): Promise<HandledCommand<WalletSessionState, WalletSessionEvent>> {
    return this.commands.handle(WALLET_SESSION_STREAM, streamNameFor(sessionId), command);
  }

  /** Read fresh every time (the stream type keeps no cache): a revocation is seen by the next read in any process. */
  async loadFundingSourceKeys(fundingSourceId: string): Promise<FundingSourceKeysState> {
    return (await this.commands.load(CARD_FUNDING_SOURCE_STREAM, streamNameFor(fundingSourceId))).state;
  }

  handleFundingSourceKeys(fundingSourceId: string, command: FundingSourceKeysCommand): Promise<HandledCommand<FundingSourceKeysState, DelegatedKeyEvent>> {
    return this.commands.handle(CARD_FUNDING_SOURCE_STREAM, streamNameFor(fundingSourceId), command);
  }
}
