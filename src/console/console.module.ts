import { Inject, Module, OnModuleInit } from '@nestjs/common';
import { HealthController } from '../health';
import { APP_CONFIG, AppConfig } from '../infra/config';
import { EventStoreService } from '../infra/event-store/event-store.service';
import { RequestObservers } from '../infra/http/request-observers';
import { WebhookTries, WebhooksModule } from '../webhooks';
import { CONSOLE_API_CONTROLLERS, CONSOLE_API_IMPORTS, CONSOLE_API_PROVIDERS } from './explorer/console-api.providers';
import { ConsoleStaticController } from './console-static.controller';
import { ConsoleMetrics } from './metrics/console-metrics';
import { MetricsController } from './metrics/metrics.controller';
import { LagHistory } from './operator/lag-history';
import { OperationJobs } from './operator/operation-jobs';
import { OperationsController } from './operator/operations.controller';
import { OperationsQuery } from './operator/operations.query';
import { OperatorKey } from './operator/operator-key';
import { OperatorGuard } from './operator/operator.guard';

/**
 * The console (issue 29, docs/console.md): the operator API and `GET /metrics` (operator key),
 * the platform console API (platform credentials), the single-page app's files.
 */
@Module({
  imports: [WebhooksModule, ...CONSOLE_API_IMPORTS],
  controllers: [OperationsController, MetricsController, ConsoleStaticController, ...CONSOLE_API_CONTROLLERS],
  providers: [OperatorKey, OperatorGuard, HealthController, OperationsQuery, OperationJobs, LagHistory, ConsoleMetrics, ...CONSOLE_API_PROVIDERS],
  exports: [OperatorKey],
})
export class ConsoleModule implements OnModuleInit {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly operatorKey: OperatorKey,
    private readonly metrics: ConsoleMetrics,
    private readonly events: EventStoreService,
    private readonly webhookTries: WebhookTries,
    private readonly requestObservers: RequestObservers,
  ) {}

  onModuleInit(): void {
    // Only api processes answer HTTP, so only they need the key (and create the sandbox's file).
    if (this.config.roles.has('api')) this.operatorKey.resolve();
    const appendDuration = this.metrics.appendDuration;
    this.events.observeAppendDurations((seconds) => appendDuration.observe(seconds));
    this.webhookTries.listen((attempt) => this.metrics.recordWebhookTry(attempt.outcome, attempt.latencyMs / 1000));
    this.requestObservers.listen((route, method, status, seconds) => this.metrics.recordRequest(route, method, status, seconds));
  }
}
