import { Injectable } from '@nestjs/common';
import { DomainError } from '../../infra/domain/domain-error';
import { EventStoreService } from '../../infra/event-store/event-store.service';
import { streamNameFor } from '../../infra/ids';
import { recordAppendedPosition } from '../../infra/request-context';
import { foldTransactionRow } from '../queries/transaction.view';
import { WireTransaction, transactionOnWire } from '../queries/transaction-wire';
import { TRANSFER_TRANSACTION_REDUCERS } from '../queries/transfer-transaction.reducers';

/**
 * What a transfer request answers: the transaction as GET returns it, folded from its stream
 * (independent of read-model lag) as of the last revision the request observed. A settlement that
 * already ran, e.g. a sandbox failure "at once", shows in the next GET and in webhooks, never in
 * the 201 that created the transfer. Used by TransferOut and TransferIn.
 */
@Injectable()
export class TransferAnswers {
  constructor(private readonly events: EventStoreService) {}

  async asOf(platformId: string, transactionId: string, upToRevision: number | 'no_stream'): Promise<WireTransaction> {
    const all = await this.events.readStream(streamNameFor(transactionId));
    const recorded = typeof upToRevision === 'number' ? all.filter((event) => event.revision <= upToRevision) : all;
    if (recorded.length > 0) recordAppendedPosition(recorded[recorded.length - 1].position);
    const row = foldTransactionRow(TRANSFER_TRANSACTION_REDUCERS, recorded);
    if (!row) throw new DomainError('TRANSACTION_NOT_FOUND', 'Transaction not found');
    return transactionOnWire(row.view, platformId);
  }
}
