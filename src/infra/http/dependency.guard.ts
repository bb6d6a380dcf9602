import { CanActivate, ExecutionContext, Inject, Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { QUEUE_SERVICE, QueueService } from '../queue/queue.service';
import { serviceUnavailable } from './dependency-errors';

/** How long a write waits for a Redis connection that is not up before it is refused. */
const REDIS_READY_GRACE_MS = 250;

/** Methods that change state: their effects run on through reactors, tasks and webhooks (Redis). */
const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * Refuses writes with 503 `SERVICE_UNAVAILABLE` (and `Retry-After`) while Redis is down. A write
 * would commit in Postgres and answer 200 while what must follow it (a quote's settlement task,
 * its webhooks) could not be queued: an executed quote would hold funds with nothing settling
 * it until Redis came back. Reads go on. The check is ioredis's own connection state, no round
 * trip; Postgres being down needs no check here, as every write fails on it and answers 503
 * (src/infra/http/dependency-errors.ts). Runs after PlatformAuthGuard (app.module.ts).
 */
@Injectable()
export class DependencyGuard implements CanActivate {
  constructor(@Inject(QUEUE_SERVICE) private readonly queues: QueueService) {}

  canActivate(context: ExecutionContext): boolean | Promise<boolean> {
    if (context.getType() !== 'http') return true;
    const request = context.switchToHttp().getRequest<Request>();
    if (!WRITE_METHODS.has(request.method) || this.queues.isRedisReady()) return true;
    // Not connected: a connection on its way (the first moments after start, a reconnect under
    // way) gets a moment before the request is refused.
    return this.queues.redisReadyWithin(REDIS_READY_GRACE_MS).then((ready) => {
      if (!ready) throw serviceUnavailable('The service cannot queue the work this request starts right now (its Redis is down); retry shortly');
      return true;
    });
  }
}
