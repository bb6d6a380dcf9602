import { Module, OnModuleInit } from '@nestjs/common';
import { CustomersModule } from '../customers';
import { ReactorRegistry } from '../infra/infra.module';
import { TaskScheduler } from '../infra/queue/task-scheduler';
import { PlatformsModule } from '../platforms';
import { ScaController } from './http/sca.controller';
import { ScaFactorsQuery } from './queries/sca-factors.query';
import { EXPIRE_SCA_CHALLENGE_TASK, scaChallengesReactor } from './reactors/sca-challenges.reactor';
import { ScaChallenges } from './sca-challenges.service';
import { ScaCustomers } from './sca-customers';
import { ScaFactorsService } from './sca-factors.service';
import { ScaLoginService } from './sca-login.service';
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
  providers: [ScaCustomers, ScaProfiles, ScaProofs, ScaRateLimiter, ScaChallenges, ScaFactorsService, ScaFactorsQuery, ScaLoginService, ScaSubjectHooks, ScaTotp],
  exports: [ScaCustomers, ScaProfiles, ScaChallenges, ScaSubjectHooks],
})
export class ScaModule implements OnModuleInit {
  constructor(
    private readonly reactors: ReactorRegistry,
    private readonly tasks: TaskScheduler,
    private readonly challenges: ScaChallenges,
    private readonly hooks: ScaSubjectHooks,
    private readonly limiter: ScaRateLimiter,
  ) {}

  async onModuleInit(): Promise<void> {
    await this.limiter.ensureSchema();
    this.reactors.register(scaChallengesReactor(this.tasks, this.hooks));
    this.tasks.register(EXPIRE_SCA_CHALLENGE_TASK, (payload) => this.challenges.expire(String(payload.sequenceId), payload.subjectId));
  }
}
