import { Command, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { CommandStore } from '../../infra/commands/command-store';
import { streamNameFor } from '../../infra/ids';
import { sandboxCardDetails } from '../../sandbox';
import { IssuerDecision } from '../domain/card/card.decider';
import { CARD_STREAM } from '../streams';

/** The (sandbox) issuer's answer to a PROCESSING card; a task sends it (CARD_ISSUER_DECISION_TASK). */
export class RecordIssuerDecision extends Command<void> {
  constructor(readonly cardId: string) {
    super();
  }
}

/**
 * Issued (ACTIVE, with last4 and expiry) or rejected (CLOSED, `ISSUER_REJECTED`). Runs at least
 * once: a card already decided, or one whose issuer never answers, is left as it is.
 */
@CommandHandler(RecordIssuerDecision)
export class RecordIssuerDecisionHandler implements ICommandHandler<RecordIssuerDecision, void> {
  constructor(private readonly commands: CommandStore) {}

  async execute({ cardId }: RecordIssuerDecision): Promise<void> {
    const stream = streamNameFor(cardId);
    const { state } = await this.commands.load(CARD_STREAM, stream);
    if (state.status !== 'PROCESSING' || state.issuerScenario === 'NO_ANSWER') return;
    const scenario = state.issuerScenario;
    await this.commands.handle(CARD_STREAM, stream, () => {
      const now = new Date().toISOString();
      const decision: IssuerDecision = scenario === 'REJECT' ? { outcome: 'REJECTED' } : { outcome: 'ISSUED', ...sandboxCardDetails(cardId, now) };
      return { type: 'RecordIssuerDecision' as const, decision, now };
    });
  }
}
