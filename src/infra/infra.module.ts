import { DynamicModule, Global, Inject, Injectable, Module, OnApplicationBootstrap, BeforeApplicationShutdown, OnApplicationShutdown } from '@nestjs/common';
import { Pool } from 'pg';
import { APP_CONFIG, AppConfig, splitDeployment } from './config';
import { KEY_VAULT, KeyVault } from './crypto/key-vault';
import { RequestObservers } from './http/request-observers';
import { EVENT_STORE, EventStore } from './event-store/event-store.port';
import { CommandStore } from './commands/command-store';
import { EventStoreService } from './event-store/event-store.service';
import { IdempotencyService } from './http/idempotency.service';
import { PG_POOL } from './postgres/pool';
import { IN_PROCESS_POLL_INTERVAL_MS, ProjectionRunner } from './projections/projection-runner';
import { PROJECTIONS, Projection, Reactor } from './projections/projection';
import { ProjectorThread } from './projections/projector-thread';
import { RunnerReadModelWaiter } from './projections/in-process-read-model-waiter';
import { NotifiedReadModelWaiter } from './projections/notified-read-model-waiter';
import { READ_MODEL_WAITER, ReadModelWaiter } from './projections/read-model-waiter';
import { QUEUE_SERVICE, QueueService } from './queue/queue.service';
import { TaskScheduler } from './queue/task-scheduler';

/** What the process built before Nest starts (pool, event store, keys), handed to the module. */
export interface InfraRuntime {
  config: AppConfig;
  pool: Pool;
  eventStore: EventStore;
  masterKey: Buffer;
  /** Every read model (the app module hands them over: infra imports no business code). */
  projections: Projection[];
  /** Set when the projector role runs in a worker thread of this process (`npm start`). */
  projectorThread?: ProjectorThread;
}

/**
 * Reactors register here from their modules' onModuleInit; the runner starts them at bootstrap
 * when this process runs the projector role.
 */
@Injectable()
export class ReactorRegistry {
  readonly reactors: Reactor[] = [];
  register(reactor: Reactor): void {
    if (this.reactors.some((existing) => existing.name === reactor.name)) return;
    this.reactors.push(reactor);
  }
}

@Injectable()
export class InfraLifecycle implements OnApplicationBootstrap, BeforeApplicationShutdown, OnApplicationShutdown {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(PG_POOL) private readonly pool: Pool,
    @Inject(EVENT_STORE) private readonly eventStore: EventStore,
    @Inject(QUEUE_SERVICE) private readonly queues: QueueService,
    private readonly runner: ProjectionRunner,
    private readonly tasks: TaskScheduler,
    @Inject(READ_MODEL_WAITER) private readonly waiter: ReadModelWaiter,
  ) {}

  /** After every module's onModuleInit, so all reactors and task handlers are registered. */
  async onApplicationBootstrap(): Promise<void> {
    if (this.config.roles.has('projector')) {
      await this.runner.prepare();
      await this.runner.start();
    }
    this.tasks.start();
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.runner.stop();
    if (this.waiter instanceof NotifiedReadModelWaiter) await this.waiter.close();
    await this.queues.close();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.eventStore.close().catch(() => undefined);
    await this.pool.end().catch(() => undefined);
  }
}

@Global()
@Module({})
export class InfraModule {
  static forRoot(runtime: InfraRuntime): DynamicModule {
    return {
      module: InfraModule,
      providers: [
        { provide: APP_CONFIG, useValue: runtime.config },
        { provide: PG_POOL, useValue: runtime.pool },
        { provide: EVENT_STORE, useValue: runtime.eventStore },
        { provide: EventStoreService, useValue: eventStoreService(runtime) },
        { provide: CommandStore, inject: [EventStoreService], useFactory: (events: EventStoreService) => new CommandStore(events) },
        { provide: PROJECTIONS, useValue: runtime.projections },
        { provide: IdempotencyService, useValue: new IdempotencyService(runtime.pool) },
        { provide: KEY_VAULT, useValue: new KeyVault(runtime.pool, runtime.masterKey) },
        {
          provide: QUEUE_SERVICE,
          useValue: new QueueService(runtime.config.redisUrl, runtime.config.queuePrefix, runtime.config.roles.has('worker')),
        },
        ReactorRegistry,
        RequestObservers,
        { provide: TaskScheduler, inject: [QUEUE_SERVICE], useFactory: (queues: QueueService) => new TaskScheduler(queues) },
        {
          provide: ProjectionRunner,
          inject: [EventStoreService, ReactorRegistry],
          useFactory: (events: EventStoreService, registry: ReactorRegistry) => {
            const split = splitDeployment(runtime.config);
            return new ProjectionRunner(runtime.pool, events, runtime.projections, registry.reactors, {
              // Api processes without a projector wait on its NOTIFYs (NotifiedReadModelWaiter).
              notifyProgress: split,
              // All roles in this process: every append wakes the projector directly, so the poll
              // is only a safety net (and its 25 ms default cost 6% of a core while idle).
              pollIntervalMs: split ? undefined : IN_PROCESS_POLL_INTERVAL_MS,
            });
          },
        },
        {
          provide: READ_MODEL_WAITER,
          inject: [ProjectionRunner],
          useFactory: (runner: ProjectionRunner) =>
            runtime.projectorThread ??
            (runtime.config.roles.has('projector') ? new RunnerReadModelWaiter(runner) : new NotifiedReadModelWaiter(runtime.pool)),
        },
        InfraLifecycle,
      ],
      exports: [
        APP_CONFIG, PG_POOL, EVENT_STORE, EventStoreService, CommandStore, IdempotencyService, KEY_VAULT, QUEUE_SERVICE,
        ReactorRegistry, ProjectionRunner, READ_MODEL_WAITER, TaskScheduler, PROJECTIONS, RequestObservers,
      ],
    };
  }
}

/** The process's EventStoreService; with a projector thread, every append here also wakes that thread. */
function eventStoreService(runtime: InfraRuntime): EventStoreService {
  const events = new EventStoreService(runtime.eventStore);
  const thread = runtime.projectorThread;
  if (thread) events.onAppended((position) => thread.appended(position));
  return events;
}
