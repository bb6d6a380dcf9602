import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query, Req } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiBody } from '@nestjs/swagger';
import type { Request } from 'express';
import { Page } from '../../infra/http/pagination';
import { AuthenticatedPlatform } from '../../infra/http/platform-auth.guard';
import { QueryReader } from '../../infra/http/query-params';
import { Idempotent } from '../../infra/http/route-metadata';
import { checkBody, hasErrorAt, throwIfAny, validateBody } from '../../infra/http/validation';
import { parseId } from '../../infra/ids';
import { requirePathId } from '../../shared/validation/path-ids';
import { ConfirmTrustChange } from '../commands/confirm-trust-change';
import { CreateExternalAccount } from '../commands/create-external-account';
import { DeleteExternalAccount } from '../commands/delete-external-account';
import { IssueOwnershipChallenge } from '../commands/issue-ownership-challenge';
import { StartTrustChange, TrustStart } from '../commands/start-trust-change';
import { VerifyOwnership } from '../commands/verify-ownership';
import { externalAccountNotFound } from '../domain/external-account/external-account.errors';
import { TrustAction } from '../domain/external-account/external-account.events';
import { ExternalAccountView } from '../queries/external-account.view';
import { ExternalAccountsQuery } from '../queries/external-accounts.query';
import { OwnershipChallengeView } from '../queries/ownership-challenge.view';
import { RequiresPermission } from '../../infra/http/permissions';
import { OwnershipChallengeDto, OwnershipVerifyDto, TrustConfirmDto } from './accounts.dto';
import { parseExternalAccountBody } from './external-account-body';

type PlatformRequest = Request & { platform: AuthenticatedPlatform };

/**
 * `/customers/external-accounts`: create, list, read, delete, trust and untrust (SCA regions),
 * ownership verification. These reach every external account of the platform, its own included
 * (created here without `customerId`, or under `/platform/external-accounts`), as
 * `/internal-accounts` does.
 */
@Controller('customers/external-accounts')
export class ExternalAccountsController {
  constructor(
    private readonly commandBus: CommandBus,
    private readonly query: ExternalAccountsQuery,
  ) {}

  @Post()
  @RequiresPermission('MANAGE')
  @Idempotent()
  @ApiBody({
    schema: { $ref: '#/components/schemas/CreateExternalAccountDto' },
    examples: {
      euroIban: {
        summary: 'A euro bank account of a third party, with the beneficiary to check',
        value: {
          customerId: 'Customer:019a2a17-5758-7d2e-8b1f-6c3e9a0d4f21',
          currency: 'EUR',
          platformAccountId: 'payee-77',
          ownershipType: 'THIRD_PARTY',
          accountInfo: {
            accountType: 'EUR_ACCOUNT',
            iban: 'DE89370400440532013000',
            swiftCode: 'COBADEFFXXX',
            paymentRails: ['SEPA_INSTANT', 'SEPA'],
            beneficiary: { beneficiaryType: 'INDIVIDUAL', fullName: 'Lukas Weber', nationality: 'DE', countryOfResidence: 'DE', address: { line1: 'Friedrichstrasse 123', city: 'Berlin', postalCode: '10117', country: 'DE' } },
          },
        },
      },
    },
  })
  async create(@Req() request: PlatformRequest, @Body() body: unknown): Promise<ExternalAccountView> {
    const { input, primaryField } = parseExternalAccountBody(body, 'CUSTOMERS');
    return this.commandBus.execute(new CreateExternalAccount(request.platform.platformId, input, primaryField));
  }

  @Get()
  @RequiresPermission('VIEW')
  async list(@Req() request: PlatformRequest, @Query() query: Record<string, unknown>): Promise<Page<ExternalAccountView>> {
    const reader = new QueryReader(query, ['customerId', 'currency']);
    // Any currency code filters: a code no account holds lists nothing (the reference types it as a string).
    const filters = { customerId: reader.id('customerId', 'Customer'), currency: reader.string('currency', 8) };
    const page = reader.page('ExternalAccount');
    reader.done();
    return this.query.list(request.platform.platformId, filters, page);
  }

  @Get(':externalAccountId')
  @RequiresPermission('VIEW')
  async get(@Req() request: PlatformRequest, @Param('externalAccountId') id: string): Promise<ExternalAccountView> {
    // The reference declares no 400 here: an id that cannot exist is simply not found.
    if (!parseId('ExternalAccount', id)) throw externalAccountNotFound();
    const view = await this.query.findView(request.platform.platformId, id);
    if (!view) throw externalAccountNotFound();
    return view;
  }

  @Delete(':externalAccountId')
  @RequiresPermission('MANAGE')
  @HttpCode(204)
  async delete(@Req() request: PlatformRequest, @Param('externalAccountId') id: string): Promise<void> {
    if (!parseId('ExternalAccount', id)) throw externalAccountNotFound();
    await this.commandBus.execute(new DeleteExternalAccount(request.platform.platformId, id));
  }

  @Post(':externalAccountId/trust')
  @RequiresPermission('MANAGE')
  @HttpCode(200)
  async startTrust(@Req() request: PlatformRequest, @Param('externalAccountId') id: string, @Body() body: unknown): Promise<TrustStart> {
    return this.start(request, id, body, 'TRUST');
  }

  @Post(':externalAccountId/trust/confirm')
  @RequiresPermission('MANAGE')
  @HttpCode(200)
  async confirmTrust(@Req() request: PlatformRequest, @Param('externalAccountId') id: string, @Body() body: unknown): Promise<ExternalAccountView> {
    return this.confirm(request, id, body, 'TRUST');
  }

  @Post(':externalAccountId/untrust')
  @RequiresPermission('MANAGE')
  @HttpCode(200)
  async startUntrust(@Req() request: PlatformRequest, @Param('externalAccountId') id: string, @Body() body: unknown): Promise<TrustStart> {
    return this.start(request, id, body, 'UNTRUST');
  }

  @Post(':externalAccountId/untrust/confirm')
  @RequiresPermission('MANAGE')
  @HttpCode(200)
  async confirmUntrust(@Req() request: PlatformRequest, @Param('externalAccountId') id: string, @Body() body: unknown): Promise<ExternalAccountView> {
    return this.confirm(request, id, body, 'UNTRUST');
  }

  @Post(':externalAccountId/challenge')
  @RequiresPermission('MANAGE')
  async challenge(@Req() request: PlatformRequest, @Param('externalAccountId') id: string, @Body() body: unknown): Promise<OwnershipChallengeView> {
    // A malformed id is 400 here: the ownership operations declare it.
    requirePathId('ExternalAccount', 'externalAccountId', id);
    const { method } = validateBody(OwnershipChallengeDto, body);
    return this.commandBus.execute(new IssueOwnershipChallenge(request.platform.platformId, id, method, 'ANY'));
  }

  @Post(':externalAccountId/verify')
  @RequiresPermission('MANAGE')
  @HttpCode(200)
  async verify(@Req() request: PlatformRequest, @Param('externalAccountId') id: string, @Body() body: unknown): Promise<ExternalAccountView> {
    requirePathId('ExternalAccount', 'externalAccountId', id);
    const { signature, signatureScheme } = validateBody(OwnershipVerifyDto, body);
    return this.commandBus.execute(new VerifyOwnership(request.platform.platformId, id, signature, signatureScheme, 'ANY'));
  }

  private async start(request: PlatformRequest, id: string, body: unknown, action: TrustAction): Promise<TrustStart> {
    requirePathId('ExternalAccount', 'externalAccountId', id);
    if (body && typeof body === 'object' && Object.keys(body).length > 0) {
      throwIfAny(Object.keys(body).map((field) => ({ field, constraint: {}, message: `Unknown field ${field}` })));
    }
    return this.commandBus.execute(new StartTrustChange(request.platform.platformId, id, action));
  }

  private async confirm(request: PlatformRequest, id: string, body: unknown, action: TrustAction): Promise<ExternalAccountView> {
    requirePathId('ExternalAccount', 'externalAccountId', id);
    const { value, errors } = checkBody(TrustConfirmDto, body);
    if (!hasErrorAt(errors, 'body') && !hasErrorAt(errors, 'challengeId') && typeof value.challengeId === 'string' && !parseId('ScaChallenge', value.challengeId)) {
      errors.push({ field: 'challengeId', constraint: { format: 'ScaChallenge-id' }, message: 'challengeId must be a ScaChallenge:<uuid> id' });
    }
    throwIfAny(errors);
    return this.commandBus.execute(
      new ConfirmTrustChange(request.platform.platformId, id, action, {
        challengeId: value.challengeId ?? null,
        proof: {
          ...(value.code != null ? { code: value.code } : {}),
          ...(value.passkeyAssertion != null ? { passkeyAssertion: value.passkeyAssertion } : {}),
          ...(value.origin != null ? { origin: value.origin } : {}),
        },
      }),
    );
  }
}
