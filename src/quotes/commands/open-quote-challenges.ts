import { Command, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { AuthorizationRequest } from '../domain/quote/quote-authorization';
import { QuoteSca } from './quote-sca';

/**
 * Opens the SCA sequence a `QuoteAuthorizationRequested` planned: the quote-authorization reactor
 * sends it, so a request that died between recording the quote and opening the sequence is finished.
 */
export class OpenQuoteChallenges extends Command<void> {
  constructor(readonly request: Pick<AuthorizationRequest, 'scaPlan'>) {
    super();
  }
}

/** A no-op when the request opened it already. */
@CommandHandler(OpenQuoteChallenges)
export class OpenQuoteChallengesHandler implements ICommandHandler<OpenQuoteChallenges, void> {
  constructor(private readonly sca: QuoteSca) {}

  async execute({ request }: OpenQuoteChallenges): Promise<void> {
    await this.sca.open(request);
  }
}
