import { Body, Controller, Param, Post, Req } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiBody } from '@nestjs/swagger';
import type { Request } from 'express';
import { AuthenticatedPlatform } from '../../infra/http/platform-auth.guard';
import { RequiresPermission } from '../../infra/http/permissions';
import { Idempotent } from '../../infra/http/route-metadata';
import { parseId } from '../../infra/ids';
import { IssueKycLink } from '../commands/kyc-links';
import { customerNotFound } from '../customers.errors';
import { KycLinkView } from '../queries/kyc-link.view';
import { parseKycLinkRequest } from './kyc-link-request';

type PlatformRequest = Request & { platform: AuthenticatedPlatform };

/**
 * `POST /customers/{customerId}/kyc-link`: a hosted, single-use link where the customer completes
 * what their verification lacks (docs/customers.md "Hosted KYC/KYB link"). The body is optional.
 */
@Controller('customers')
export class KycLinkController {
  constructor(private readonly commandBus: CommandBus) {}

  @Post(':customerId/kyc-link')
  @RequiresPermission('MANAGE')
  @Idempotent()
  @ApiBody({ required: false, schema: { $ref: '#/components/schemas/KycLinkCreateRequestDto' } })
  async create(@Req() request: PlatformRequest, @Param('customerId') customerId: string, @Body() body: unknown): Promise<KycLinkView> {
    // An id that cannot name a customer is one we do not have (the path's 404).
    if (!parseId('Customer', customerId)) throw customerNotFound();
    const { redirectUri } = parseKycLinkRequest(body);
    const apiVersion = request.originalUrl.split('/')[1];
    const origin = `${request.protocol}://${request.get('host')}`;
    return this.commandBus.execute(new IssueKycLink(request.platform.platformId, customerId, redirectUri, origin, apiVersion));
  }
}
