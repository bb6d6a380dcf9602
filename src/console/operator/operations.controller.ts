import { Body, Controller, Get, HttpCode, Param, Post, UseGuards } from '@nestjs/common';
import { ApiBearerAuth } from '@nestjs/swagger';
import { HealthReport } from '../../health';
import { notFound } from '../../infra/http/api-error';
import { Public } from '../../infra/http/route-metadata';
import { checkBody, hasErrorAt, throwIfAny } from '../../infra/http/validation';
import { LagHistory, LagSample } from './lag-history';
import { OperationJob, OperationJobs } from './operation-jobs';
import { StartJobDto } from './operations.dto';
import { ConsumerView, OperationsQuery, QueueCounts } from './operations.query';
import { OperatorGuard } from './operator.guard';

/** `GET /console/operations`: what the operations page shows. */
export interface OperationsView {
  /** The body `GET /health` answers. */
  health: HealthReport;
  consumers: ConsumerView[];
  queues: Record<string, QueueCounts>;
  /** This process's jobs, newest first (running ones and the last finished ones). */
  jobs: OperationJob[];
}

/** `GET /console/operations/lag-history`: oldest first, the last hour. */
export interface LagHistoryView {
  samples: LagSample[];
}

/**
 * The operator API (docs/console.md "Operator access and metrics"): every consumer's progress,
 * the queues, health, rebuild and verify jobs, the lag history. Operator key only.
 */
@Controller('console/operations')
@Public()
@UseGuards(OperatorGuard)
@ApiBearerAuth('OperatorAuth')
export class OperationsController {
  constructor(
    private readonly operations: OperationsQuery,
    private readonly jobs: OperationJobs,
    private readonly lagHistory: LagHistory,
  ) {}

  @Get()
  async overview(): Promise<OperationsView> {
    const [health, consumers, queues] = await Promise.all([this.operations.healthReport(), this.operations.consumers(), this.operations.queueCounts()]);
    return { health, consumers, queues, jobs: this.jobs.list() };
  }

  /** Starts a rebuild or a verification in the background; poll `GET .../jobs/{id}` for its progress. */
  @Post('jobs')
  @HttpCode(202)
  startJob(@Body() body: unknown): OperationJob {
    const { value, errors } = checkBody(StartJobDto, body);
    const names = this.operations.projectionNames();
    if (typeof value.projection === 'string' && !hasErrorAt(errors, 'projection') && !names.includes(value.projection)) {
      errors.push({ field: 'projection', constraint: { enum: names }, message: `projection must be one of ${names.join(', ')}` });
    }
    throwIfAny(errors);
    return this.jobs.start(value.kind, value.projection);
  }

  @Get('jobs/:id')
  job(@Param('id') id: string): OperationJob {
    const job = this.jobs.find(id);
    if (!job) throw notFound('REFERENCE_NOT_FOUND', `Job ${id}`);
    return job;
  }

  @Get('lag-history')
  lagHistoryView(): LagHistoryView {
    return { samples: this.lagHistory.history() };
  }
}
