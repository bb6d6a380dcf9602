import { Module, OnModuleInit } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { CustomersModule } from '../customers';
import { ReactorRegistry } from '../infra/infra.module';
import { TaskScheduler } from '../infra/queue/task-scheduler';
import { PlatformsModule } from '../platforms';
import { CompleteFactorResetHandler } from './commands/complete-factor-reset';
import { CompleteScaLoginHandler } from './commands/complete-sca-login';
import { ConfirmPasskeyEnrollmentHandler } from './commands/confirm-passkey-enrollment';
import { ConfirmTotpEnrollmentHandler } from './commands/confirm-totp-enrollment';
import { ExpireScaChallenge, ExpireScaChallengeHandler } from './commands/expire-sca-challenge';
import { RunFactorResetTask, RunFactorResetTaskHandler } from './commands/factor-reset-tasks';
import { RecordSecurityEventHandler } from './commands/record-security-event';
import { RemoveScaFactorHandler } from './commands/remove-sca-factor';
import { StartFactorResetHandler } from './commands/start-factor-reset';
import { StartPasskeyEnrollmentHandler } from './commands/start-passkey-enrollment';
import { StartScaLoginHandler } from './commands/start-sca-login';
import { StartTotpEnrollmentHandler } from './commands/start-totp-enrollment';
import { ScaResetController } from './http/sca-reset.controller';
import { ScaController } from './http/sca.controller';
import { ScaFactorsQuery } from './queries/sca-factors.query';
import { EXPIRE_SCA_CHALLENGE_TASK, scaChallengesReactor } from './reactors/sca-challenges.reactor';
import { EXPIRE_FACTOR_RESET_TASK, PASS_FACTOR_RESET_WAIT_TASK, scaFactorResetsReactor } from './reactors/sca-factor-resets.reactor';
import { ScaChallenges } from './sca-challenges.service';
import { ScaCustomers } from './sca-customers';
import { ScaFactorResets } from './sca-factor-resets';
import { ScaFactorsService } from './sca-factors.service';
import { ScaProfiles } from './sca-profiles';
import { ScaProofs } from './sca-proofs';
import { ScaRateLimiter } from './sca-rate-limiter';
import { ScaSubjectHooks } from './sca-subject-hooks';
import { ScaTotp } from './sca-totp.service';

/**
 * Strong Customer Authentication (issue 6): factors (TOTP, passkeys), login sessions, the lock, the challenge
 * engine, the platform's login-security events and 2FA resets (issue 25). Exports what other
 * contexts use: `ScaCustomers` (does SCA apply), `ScaProfiles`
 * (session and lock checks), `ScaChallenges` (the engine) and `ScaSubjectHooks` (reactions to
 * a sequence completing or failing).
 */
@Module({
  imports: [CustomersModule, PlatformsModule],
  controllers: [ScaController, ScaResetController],
  providers: [
    StartPasskeyEnrollmentHandler,
    ConfirmPasskeyEnrollmentHandler,
    RemoveScaFactorHandler,
    StartTotpEnrollmentHandler,
    ConfirmTotpEnrollmentHandler,
    StartScaLoginHandler,
    CompleteScaLoginHandler,
    ExpireScaChallengeHandler,
    RecordSecurityEventHandler,
    StartFactorResetHandler,
    CompleteFactorResetHandler,
    RunFactorResetTaskHandler,
    ScaFactorResets,
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
    this.reactors.register(scaFactorResetsReactor(this.tasks));
    this.tasks.register(PASS_FACTOR_RESET_WAIT_TASK, (payload) => this.commandBus.execute(new RunFactorResetTask(payload.subjectId, 'PassWaitingPeriod')));
    this.tasks.register(EXPIRE_FACTOR_RESET_TASK, (payload) => this.commandBus.execute(new RunFactorResetTask(payload.subjectId, 'ExpireReset')));
  }
}
