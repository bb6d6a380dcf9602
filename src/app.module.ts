import { DynamicModule, Module } from '@nestjs/common';
import { ALL_PROJECTIONS } from '../projections';
import { APP_FILTER, APP_GUARD, APP_INTERCEPTOR } from '@nestjs/core';
import { CqrsModule } from '@nestjs/cqrs';
import { AuditModule } from './audit';
import { HealthModule } from './health';
import { DependencyGuard } from './infra/http/dependency.guard';
import { HttpErrorFilter } from './infra/http/http-error.filter';
import { PlatformAuthGuard } from './infra/http/platform-auth.guard';
import { ResponseInterceptor } from './infra/http/response.interceptor';
import { InfraModule, InfraRuntime } from './infra/infra.module';
import { PlatformsModule } from './platforms';
import { RetentionModule } from './infra/retention/retention.module';
import { FEATURE_MODULES } from './feature-modules';

/**
 * Composition root: infrastructure (handed the read models: infra imports no business code),
 * cross-cutting HTTP behaviour, then the feature contexts.
 */
@Module({})
export class AppModule {
  static forRoot(runtime: Omit<InfraRuntime, 'projections'>): DynamicModule {
    return {
      module: AppModule,
      // CqrsModule first: its bootstrap registers the command handlers before InfraModule's starts
      // the projector and the task workers, which may send commands at once.
      imports: [CqrsModule.forRoot(), InfraModule.forRoot({ ...runtime, projections: ALL_PROJECTIONS }), PlatformsModule, AuditModule, HealthModule, RetentionModule, ...FEATURE_MODULES],
      providers: [
        { provide: APP_FILTER, useClass: HttpErrorFilter },
        { provide: APP_GUARD, useClass: PlatformAuthGuard },
        { provide: APP_GUARD, useClass: DependencyGuard },
        { provide: APP_INTERCEPTOR, useClass: ResponseInterceptor },
      ],
    };
  }
}
