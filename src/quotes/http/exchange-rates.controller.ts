import { Controller, Get, Query, Req } from '@nestjs/common';
import type { Request } from 'express';
import { AuthenticatedPlatform } from '../../infra/http/platform-auth.guard';
import { HttpResult, withStatus } from '../../infra/http/http-result';
import { PlatformConfigQuery } from '../../platforms';
import { ExchangeRateEntry, listExchangeRates } from '../pricing/exchange-rate-listing';
import { RateSnapshots } from '../pricing/rate-snapshots';
import { parseExchangeRatesQuery } from './exchange-rates.query';
import { ApiQuery } from '@nestjs/swagger';
import { RequiresPermission } from '../../infra/http/permissions';

type PlatformRequest = Request & { platform: AuthenticatedPlatform };

/**
 * `GET /exchange-rates`: the current snapshot's corridors with this platform's fees included.
 * The snapshot is current for five minutes; Cache-Control says how much of that is left.
 */
@Controller('exchange-rates')
@RequiresPermission('VIEW')
export class ExchangeRatesController {
  constructor(
    private readonly platformConfig: PlatformConfigQuery,
    private readonly rates: RateSnapshots,
  ) {}

  @Get()
  @ApiQuery({ name: 'sourceCurrency', required: false, schema: { type: 'string' } })
  @ApiQuery({ name: 'destinationCurrency', required: false, schema: { type: 'array', items: { type: 'string' } } })
  @ApiQuery({ name: 'sendingAmount', required: false, schema: { type: 'integer' } })
  async list(@Req() request: PlatformRequest, @Query() query: Record<string, unknown>): Promise<HttpResult<{ data: ExchangeRateEntry[] }>> {
    const parsed = parseExchangeRatesQuery(query);
    const config = await this.platformConfig.findRaw(request.platform.platformId);
    const snapshot = this.rates.current();
    const data = listExchangeRates(
      {
        snapshot,
        sourceCurrency: parsed.sourceCurrency,
        destinationCurrencies: parsed.destinationCurrencies,
        sendingAmount: parsed.sendingAmount,
        feeConfigs: config?.feeConfigs ?? [],
        amountLimits: config?.supportedCurrencies ?? [],
      },
      this.rates.boundsCacheFor(snapshot),
    );
    return withStatus(200, { data }, { 'Cache-Control': `private, max-age=${this.rates.secondsRemaining(snapshot)}` });
  }
}
