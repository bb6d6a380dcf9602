import { Controller, HttpCode, Param, Post, Req } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiResponse } from '@nestjs/swagger';
import type { Request } from 'express';
import { RequiresPermission } from '../../infra/http/permissions';
import { AuthenticatedPlatform } from '../../infra/http/platform-auth.guard';
import { CardRevealView, RevealCard } from '../commands/reveal-card';

type PlatformRequest = Request & { platform: AuthenticatedPlatform };

/**
 * `POST /cards/{id}/reveal` (docs/cards.md "Reveal"). MANAGE, not VIEW: the answer is a bearer
 * secret for the card's full number, more than a read-only credential should reach. Not
 * idempotent on purpose: a replay would store the URL with the Idempotency-Key, and each reveal
 * is its own audit record.
 */
@Controller('cards')
export class CardRevealController {
  constructor(private readonly commandBus: CommandBus) {}

  @Post(':cardId/reveal')
  @HttpCode(200)
  @RequiresPermission('MANAGE')
  // Declared responses replace the default one in the published document, so 200 is listed too.
  @ApiResponse({ status: 200, description: 'The reveal URL and when it stops loading' })
  // Beyond the statuses every operation has: outside the sandbox no card processor shows card details.
  @ApiResponse({ status: 501, description: 'Error (NOT_IMPLEMENTED)', schema: { $ref: '#/components/schemas/Error501' } })
  async reveal(@Req() request: PlatformRequest, @Param('cardId') cardId: string): Promise<CardRevealView> {
    const apiVersion = request.originalUrl.split('/')[1];
    const origin = `${request.protocol}://${request.get('host')}`;
    return this.commandBus.execute(new RevealCard(request.platform.platformId, cardId, origin, apiVersion));
  }
}
