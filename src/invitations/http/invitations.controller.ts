import { Body, Controller, Get, HttpCode, Param, Post, Req } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiBody, ApiResponse } from '@nestjs/swagger';
import type { Request } from 'express';
import { AuthenticatedPlatform } from '../../infra/http/platform-auth.guard';
import { Idempotent } from '../../infra/http/route-metadata';
import { checkBody, hasErrorAt, throwIfAny } from '../../infra/http/validation';
import { CancelInvitation } from '../commands/cancel-invitation';
import { ClaimInvitation } from '../commands/claim-invitation';
import { CreateInvitation } from '../commands/create-invitation';
import { invitationNotFound } from '../domain/invitations.errors';
import { invitationIdOf } from '../domain/invitation/invitation-code';
import { InvitationView } from '../queries/invitation.view';
import { InvitationsQuery } from '../queries/invitations.query';
import { ClaimInvitationDto, CreateInvitationDto, checkExpiresAt, checkUmaAddress, throwIfBadInvitationBody } from './invitations.dto';
import { RequiresPermission } from '../../infra/http/permissions';

type PlatformRequest = Request & { platform: AuthenticatedPlatform };

/** `POST /invitations`, `GET /invitations/{code}`, `POST .../claim`, `POST .../cancel` (docs/invitations.md). */
@Controller('invitations')
export class InvitationsController {
  constructor(
    private readonly commandBus: CommandBus,
    private readonly query: InvitationsQuery,
  ) {}

  /** Honours Idempotency-Key: a retried creation returns the first invitation instead of a second one. */
  @Post()
  @RequiresPermission('MANAGE')
  @Idempotent()
  @ApiBody({
    schema: { $ref: '#/components/schemas/CreateInvitationDto' },
    examples: {
      sendByLink: {
        summary: 'An invitation from a customer, offering $25.00, valid for a week',
        value: { inviterUma: '$alice@pay.example.com', firstName: 'Bob', amountToSend: 2500, expiresAt: '2025-11-10T14:22:30Z' },
      },
    },
  })
  async create(@Req() request: PlatformRequest, @Body() body: unknown): Promise<InvitationView> {
    const { value, errors } = checkBody(CreateInvitationDto, body);
    if (hasErrorAt(errors, 'body')) throwIfAny(errors);
    const inviterUma = checkUmaAddress('inviterUma', value.inviterUma, errors);
    checkExpiresAt(value.expiresAt, errors, Date.now());
    throwIfBadInvitationBody(errors);
    return this.commandBus.execute(new CreateInvitation(request.platform.platformId, {
      inviterUma,
      firstName: value.firstName ?? null,
      amountToSend: value.amountToSend ?? null,
      expiresAt: value.expiresAt === undefined ? null : new Date(value.expiresAt).toISOString(),
    }));
  }

  /** GET declares no 400: a text that cannot be a code names no invitation. */
  @Get(':invitationCode')
  @RequiresPermission('VIEW')
  async get(@Req() request: PlatformRequest, @Param('invitationCode') code: string): Promise<InvitationView> {
    if (!invitationIdOf(code)) throw invitationNotFound();
    const view = await this.query.findByCode(request.platform.platformId, code.toLowerCase());
    if (!view) throw invitationNotFound();
    return view;
  }

  @Post(':invitationCode/claim')
  @RequiresPermission('MANAGE')
  @HttpCode(200)
  @ApiResponse({ status: 200, description: 'The claimed invitation' })
  async claim(@Req() request: PlatformRequest, @Param('invitationCode') code: string, @Body() body: unknown): Promise<InvitationView> {
    const { value, errors } = checkBody(ClaimInvitationDto, body);
    if (hasErrorAt(errors, 'body')) throwIfAny(errors);
    const inviteeUma = checkUmaAddress('inviteeUma', value.inviteeUma, errors);
    throwIfBadInvitationBody(errors);
    return this.commandBus.execute(new ClaimInvitation(request.platform.platformId, code, inviteeUma));
  }

  @Post(':invitationCode/cancel')
  @RequiresPermission('MANAGE')
  @HttpCode(200)
  @ApiResponse({ status: 200, description: 'The cancelled invitation' })
  async cancel(@Req() request: PlatformRequest, @Param('invitationCode') code: string): Promise<InvitationView> {
    return this.commandBus.execute(new CancelInvitation(request.platform.platformId, code));
  }
}
