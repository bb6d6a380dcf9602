import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '../../infra/config';
import { QuoteScenarioName, TimedSettlementStep, quoteScenarioByName, settlementSchedule } from '../../sandbox';
import { ExistingQuote } from '../domain/quote/quote.decider';

/**
 * The sandbox settlement steps of a quote (quote-scenarios.ts) with the configured delays: the
 * quote-process reactor schedules them, SettleQuoteStep applies them.
 */
@Injectable()
export class QuoteSettlementSchedule {
  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  stepsFor(funding: ExistingQuote['funding']): TimedSettlementStep[] {
    return settlementSchedule(quoteScenarioByName(funding.scenario as QuoteScenarioName, funding.scenarioSuffix), this.config.sandbox);
  }
}
