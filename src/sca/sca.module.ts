import { Module, OnModuleInit } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { CustomersModule } from '../customers';
import { ReactorRegistry } from '../infra/infra.module';
import { TaskScheduler } from '../infra/queue/task-scheduler';
import { PlatformsModule } from '../platforms';
import { CompleteScaLoginHandler } from './commands/complete-sca-login';
import { ConfirmPasskeyEnrollmentHandler } from './commands/confirm-passkey-enrollment';
import { ConfirmTotpEnrollmentHandler } from './commands/confirm-totp-enrollment';
import { ExpireScaChallenge, ExpireScaChallengeHandler } from './commands/expire-sca-challenge';
import { RemoveScaFactorHandler } from './commands/remove-sca-factor';
import { StartPasskeyEnrollmentHandler } from './commands/start-passkey-enrollment';
import { StartScaLoginHandler } from './commands/start-sca-login';
import { StartTotpEnrollmentHandler } from './commands/start-totp-enrollment';
import { ScaController } from './http/sca.controller';
import { ScaFactorsQuery } from './queries/sca-factors.query';
import { EXPIRE_SCA_CHALLENGE_TASK, scaChallengesReactor } from './reactors/sca-challenges.reactor';
import { ScaChallenges } from './sca-challenges.service';
import { ScaCustomers } from './sca-customers';
import { ScaFactorsService } from './sca-factors.service';
import { ScaProfiles } from './sca-profiles';
import { ScaProofs } from './sca-proofs';
import { ScaRateLimiter } from './sca-rate-limiter';
import { ScaSubjectHooks } from './sca-subject-hooks';
import { ScaTotp } from './sca-totp.service';

/**
 * Strong Customer Authentication (issue 6): factors (TOTP, passkeys), login sessions, the lock, and the challenge
 * engine. Exports what other contexts use: `ScaCustomers` (does SCA apply), `ScaProfiles`
 * (session and lock checks), `ScaChallenges` (the engine) and `ScaSubjectHooks` (reactions to
 * a sequence completing or failing).
 */
@Module({
  imports: [CustomersModule, PlatformsModule],
  controllers: [ScaController],
  providers: [
    StartPasskeyEnrollmentHandler,
    ConfirmPasskeyEnrollmentHandler,
    RemoveScaFactorHandler,
    StartTotpEnrollmentHandler,
    ConfirmTotpEnrollmentHandler,
    StartScaLoginHandler,
    CompleteScaLoginHandler,
    ExpireScaChallengeHandler,
    ScaCustomers,
    ScaProfiles,
    ScaProofs,
    ScaRateLimiter,
    ScaChallenges,
    ScaFactorsService,
    ScaFactorsQuery,
    ScaSubjectHooks,
    ScaTotp,
  ],
  exports: [ScaCustomers, ScaProfiles, ScaChallenges, ScaSubjectHooks],
})
export class ScaModule implements OnModuleInit {
  constructor(
    private readonly commandBus: CommandBus,
    private readonly reactors: ReactorRegistry,
    private readonly tasks: TaskScheduler,
    private readonly hooks: ScaSubjectHooks,
    private readonly limiter: ScaRateLimiter,
  ) {}

  async onModuleInit(): Promise<void> {
    await this.limiter.ensureSchema();
    this.reactors.register(scaChallengesReactor(this.tasks, this.hooks));
    this.tasks.register(EXPIRE_SCA_CHALLENGE_TASK, (payload) => this.commandBus.execute(new ExpireScaChallenge(String(payload.sequenceId), payload.subjectId)));
  }
}
