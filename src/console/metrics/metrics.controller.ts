import { Controller, Get, Header, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiProduces } from '@nestjs/swagger';
import { Registry } from 'prom-client';
import { Public } from '../../infra/http/route-metadata';
import { OperatorGuard } from '../operator/operator.guard';
import { ConsoleMetrics } from './console-metrics';

/**
 * `GET /metrics` (unversioned, like /health): this process's metrics in the Prometheus text
 * format, for a scraper holding the operator key (docs/console.md "Operator access and metrics").
 */
@Controller('metrics')
@Public()
@UseGuards(OperatorGuard)
@ApiBearerAuth('OperatorAuth')
export class MetricsController {
  constructor(private readonly metrics: ConsoleMetrics) {}

  @Get()
  @Header('Content-Type', Registry.PROMETHEUS_CONTENT_TYPE)
  @Header('Cache-Control', 'no-store')
  @ApiProduces('text/plain')
  @ApiOkResponse({ description: 'The Prometheus text exposition format, version 0.0.4', content: { 'text/plain': {} } })
  metricsText(): Promise<string> {
    return this.metrics.render();
  }
}
