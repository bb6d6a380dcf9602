import { Body, Controller, HttpCode, Param, Post, Req } from '@nestjs/common';
import type { Request } from 'express';
import { AuthenticatedPlatform } from '../../infra/http/platform-auth.guard';
import { checkBody, throwIfAny } from '../../infra/http/validation';
import { ScaAuthorizationDto } from '../../sca/http/sca.dto';
import { requirePathId } from '../../shared/validation/path-ids';
import { QuoteAuthorizationService } from '../authorization/quote-authorization.service';
import { QuoteView } from '../queries/quote.view';

type PlatformRequest = Request & { platform: AuthenticatedPlatform };

/**
 * `POST /quotes/{quoteId}/authorize` with an `ScaAuthorization` (`{code}` or `{passkeyAssertion,
 * origin}`, optional `endUserIpAddress`), and `POST /quotes/{quoteId}/authorize/resend` (204).
 */
@Controller('quotes')
export class QuoteAuthorizationController {
  constructor(private readonly authorization: QuoteAuthorizationService) {}

  @Post(':quoteId/authorize')
  @HttpCode(200)
  async authorize(@Req() request: PlatformRequest, @Param('quoteId') quoteId: string, @Body() body: unknown): Promise<QuoteView> {
    requirePathId('Quote', 'quoteId', quoteId);
    const { value, errors } = checkBody(ScaAuthorizationDto, body);
    throwIfAny(errors);
    const proof = { code: value.code, passkeyAssertion: value.passkeyAssertion, origin: value.origin };
    return this.authorization.authorize(request.platform.platformId, quoteId, proof, value.endUserIpAddress ?? null);
  }

  @Post(':quoteId/authorize/resend')
  @HttpCode(204)
  async resend(@Req() request: PlatformRequest, @Param('quoteId') quoteId: string, @Body() body: unknown): Promise<void> {
    requirePathId('Quote', 'quoteId', quoteId);
    if (body && typeof body === 'object' && !Array.isArray(body) && Object.keys(body).length > 0) {
      throwIfAny(Object.keys(body).map((field) => ({ field, constraint: 'UNKNOWN_FIELD' as const, message: `Unknown field ${field}` })));
    }
    await this.authorization.resend(request.platform.platformId, quoteId);
  }
}
