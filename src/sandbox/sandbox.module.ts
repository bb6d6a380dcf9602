import { Module } from '@nestjs/common';
import { AccountsModule } from '../accounts/accounts.module';
import { SandboxFundingController } from './http/sandbox-funding.controller';

/**
 * Sandbox-only routes. The magic values themselves live beside this module as plain functions
 * (kyc-scenarios.ts, transfer-scenarios.ts, beneficiary-checks.ts) used by the contexts.
 */
@Module({
  imports: [AccountsModule],
  controllers: [SandboxFundingController],
})
export class SandboxModule {}
