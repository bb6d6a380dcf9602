import { Module } from '@nestjs/common';
import { AccountsModule } from '../accounts';
import { PlatformsModule } from '../platforms';
import { DirectoriesController } from './http/directories.controller';
import { WithdrawalFeeController } from './http/withdrawal-fee.controller';
import { WithdrawalFeesQuery } from './queries/withdrawal-fees.query';

/**
 * Directories (issue 23, part 6): UMA providers, VASPs, receiving institutions and crypto
 * withdrawal fees, read from the sandbox tables in ./tables that are kept consistent with what
 * quotes price (tables/tables.spec.ts). Reads only: no streams, commands or read models.
 */
@Module({
  imports: [AccountsModule, PlatformsModule],
  controllers: [DirectoriesController, WithdrawalFeeController],
  providers: [WithdrawalFeesQuery],
})
export class DirectoriesModule {}
