import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '../../infra/config';
import { QuoteScenarioName, TimedSettlementStep, quoteScenarioByName, settlementSchedule } from '../../sandbox';
import { ExistingQuote, FailedQuote } from '../domain/quote/quote.decider';

/**
 * The sandbox settlement steps of a quote (quote-scenarios.ts) with the configured delays: the
 * quote-process reactor schedules them (and the end of a failure's refund), SettleQuoteStep and
 * SettleQuoteRefund apply them.
 */
@Injectable()
export class QuoteSettlementSchedule {
  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  stepsFor(funding: ExistingQuote['funding']): TimedSettlementStep[] {
    return settlementSchedule(quoteScenarioByName(funding.scenario as QuoteScenarioName, funding.scenarioSuffix), this.config.sandbox);
  }

  /** How the refund the failed step started ends, and after what delay; null when it planned none. */
  refundFor(quote: Pick<FailedQuote, 'funding' | 'stepsApplied'>): TimedSettlementStep['refund'] {
    return this.stepsFor(quote.funding)[quote.stepsApplied - 1]?.refund ?? null;
  }
}
