import { Body, Controller, HttpCode, Param, Post, Req } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { Request } from 'express';
import { AuthenticatedPlatform } from '../../infra/http/platform-auth.guard';
import { DomainError } from '../../infra/domain/domain-error';
import { checkBody, throwIfAny } from '../../infra/http/validation';
import { parseId } from '../../infra/ids';
import { ScaAuthorizationDto } from '../../sca';
import { lockedAsConflict } from '../../sca';
import { requirePathId } from '../../shared/validation/path-ids';
import { AuthorizeQuote } from '../commands/authorize-quote';
import { ResendQuoteChallenge } from '../commands/resend-quote-challenge';
import { QuoteView } from '../queries/quote.view';
import { RequiresPermission } from '../../infra/http/permissions';

type PlatformRequest = Request & { platform: AuthenticatedPlatform };

/**
 * `POST /quotes/{quoteId}/authorize` with an `ScaAuthorization` (`{code}` or `{passkeyAssertion,
 * origin}`, optional `endUserIpAddress`), and `POST /quotes/{quoteId}/authorize/resend` (204).
 */
@Controller('quotes')
@RequiresPermission('TRANSACT')
export class QuoteAuthorizationController {
  constructor(private readonly commandBus: CommandBus) {}

  @Post(':quoteId/authorize')
  @HttpCode(200)
  async authorize(@Req() request: PlatformRequest, @Param('quoteId') quoteId: string, @Body() body: unknown): Promise<QuoteView> {
    requirePathId('Quote', 'quoteId', quoteId);
    const { value, errors } = checkBody(ScaAuthorizationDto, body);
    throwIfAny(errors);
    // The contract's ScaAuthorization fields are nullable: null is "not given".
    const proof = { code: value.code ?? undefined, passkeyAssertion: value.passkeyAssertion ?? undefined, origin: value.origin ?? undefined };
    return this.commandBus.execute(new AuthorizeQuote(request.platform.platformId, quoteId, proof, value.endUserIpAddress ?? null));
  }

  /**
   * The contract declares no 400 here: the operation has no body (anything sent is not read), and
   * an id that cannot name a quote is simply a quote that does not exist.
   */
  @Post(':quoteId/authorize/resend')
  @HttpCode(204)
  async resend(@Req() request: PlatformRequest, @Param('quoteId') quoteId: string): Promise<void> {
    if (!parseId('Quote', quoteId)) throw new DomainError('QUOTE_NOT_FOUND', 'Quote not found');
    try {
      await this.commandBus.execute(new ResendQuoteChallenge(request.platform.platformId, quoteId));
    } catch (error) {
      // No 423 is declared for resend: the SCA lock is a 409 there.
      throw lockedAsConflict(error);
    }
  }
}
