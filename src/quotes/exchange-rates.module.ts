import { Module } from '@nestjs/common';
import { PlatformsModule } from '../platforms';
import { ExchangeRatesController } from './http/exchange-rates.controller';
import { RateSnapshots } from './pricing/rate-snapshots';

/**
 * Exchange rates (issue 4, part 1). Exports RateSnapshots so the quotes module prices from the
 * same snapshot source.
 */
@Module({
  imports: [PlatformsModule],
  controllers: [ExchangeRatesController],
  providers: [{ provide: RateSnapshots, useFactory: () => new RateSnapshots() }],
  exports: [RateSnapshots],
})
export class ExchangeRatesModule {}
