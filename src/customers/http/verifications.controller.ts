import { Body, Controller, Get, HttpCode, Param, Post, Query, Req } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { Request } from 'express';
import { Page } from '../../infra/http/pagination';
import { AuthenticatedPlatform } from '../../infra/http/platform-auth.guard';
import { QueryReader } from '../../infra/http/query-params';
import { checkBody, hasErrorAt, throwIfAny } from '../../infra/http/validation';
import { parseId } from '../../infra/ids';
import { verificationNotFound } from '../customers.errors';
import { SubmitVerification } from '../commands/submit-verification';
import { VerificationView } from '../queries/customer.view';
import { CustomersQuery } from '../queries/customers.query';
import { SubmitVerificationDto } from './customers.dto';
import { RequiresPermission } from '../../infra/http/permissions';

type PlatformRequest = Request & { platform: AuthenticatedPlatform };

/** The reference's VerificationStatus (the sandbox never produces IN_PROGRESS or READY_FOR_VERIFICATION). */
const VERIFICATION_STATUSES = ['RESOLVE_ERRORS', 'PENDING_MANUAL_REVIEW', 'IN_PROGRESS', 'APPROVED', 'REJECTED', 'READY_FOR_VERIFICATION'] as const;

/** `POST /verifications` (submit a customer for KYC/KYB), `GET /verifications[/{id}]`. */
@Controller('verifications')
export class VerificationsController {
  constructor(
    private readonly commandBus: CommandBus,
    private readonly query: CustomersQuery,
  ) {}

  @Post()
  @RequiresPermission('MANAGE')
  @HttpCode(200)
  async submit(@Req() request: PlatformRequest, @Body() body: unknown): Promise<VerificationView> {
    const { value, errors } = checkBody(SubmitVerificationDto, body);
    if (!hasErrorAt(errors, 'customerId') && !parseId('Customer', value.customerId)) {
      errors.push({ field: 'customerId', constraint: { format: 'Customer-id' }, message: 'customerId must be a Customer:<uuid> id' });
    }
    throwIfAny(errors);
    return this.commandBus.execute(new SubmitVerification(request.platform.platformId, value.customerId));
  }

  @Get()
  @RequiresPermission('VIEW')
  async list(@Req() request: PlatformRequest, @Query() query: Record<string, unknown>): Promise<Page<VerificationView>> {
    const reader = new QueryReader(query, ['customerId', 'verificationStatus']);
    const filters = { customerId: reader.id('customerId', 'Customer'), verificationStatus: reader.oneOf('verificationStatus', VERIFICATION_STATUSES) };
    const page = reader.page('Verification');
    reader.done();
    return this.query.listVerifications(request.platform.platformId, filters, page);
  }

  @Get(':verificationId')
  @RequiresPermission('VIEW')
  async get(@Req() request: PlatformRequest, @Param('verificationId') verificationId: string): Promise<VerificationView> {
    // The reference declares no 400 here: an id that cannot name a verification is not found.
    if (!parseId('Verification', verificationId)) throw verificationNotFound();
    const view = await this.query.findVerification(request.platform.platformId, verificationId);
    if (!view) throw verificationNotFound();
    return view;
  }
}
