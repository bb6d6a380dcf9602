import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query, Req } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiBody } from '@nestjs/swagger';
import type { Request } from 'express';
import { FieldError, ValidationError } from '../../infra/domain/domain-error';
import { Page } from '../../infra/http/pagination';
import { AuthenticatedPlatform } from '../../infra/http/platform-auth.guard';
import { QueryReader } from '../../infra/http/query-params';
import { Idempotent } from '../../infra/http/route-metadata';
import { checkBody, hasErrorAt, throwIfAny } from '../../infra/http/validation';
import { parseId } from '../../infra/ids';
import { requirePathId } from '../../shared/validation/path-ids';
import {
  EXTERNAL_ACCOUNT_TYPES,
  ExternalAccountType,
  beneficiaryRuleFor,
  checkIdentifiers,
  currencyConstraint,
  holdsCurrency,
  isExternalAccountType,
} from '../domain/external-account/account-identifiers';
import { ConfirmTrustChange } from '../commands/confirm-trust-change';
import { CreateExternalAccount } from '../commands/create-external-account';
import { DeleteExternalAccount } from '../commands/delete-external-account';
import { StartTrustChange, TrustStart } from '../commands/start-trust-change';
import { externalAccountNotFound } from '../domain/external-account/external-account.errors';
import { AccountInfo, Beneficiary, TrustAction } from '../domain/external-account/external-account.events';
import { ExternalAccountView } from '../queries/external-account.view';
import { ExternalAccountsQuery } from '../queries/external-accounts.query';
import { RequiresPermission } from '../../infra/http/permissions';
import {
  BusinessBeneficiaryDto,
  CreateExternalAccountDto,
  IndividualBeneficiaryDto,
  TrustConfirmDto,
  WalletIndividualBeneficiaryDto,
} from './accounts.dto';

type PlatformRequest = Request & { platform: AuthenticatedPlatform };

/** `/customers/external-accounts`: create, list, read, delete, trust and untrust (SCA regions). */
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
    const { value, errors } = checkBody(CreateExternalAccountDto, body);
    // A body that is not an object at all has one error (`body`) and nothing else to check.
    const isObjectBody = !hasErrorAt(errors, 'body');
    if (isObjectBody && !hasErrorAt(errors, 'customerId') && !parseId('Customer', value.customerId)) {
      errors.push({ field: 'customerId', constraint: { format: 'Customer-id' }, message: 'customerId must be a Customer:<uuid> id' });
    }
    const parsed = !isObjectBody || hasErrorAt(errors, 'accountInfo') ? null : parseAccountInfo(value.accountInfo, errors);
    if (parsed && !hasErrorAt(errors, 'currency') && !holdsCurrency(parsed.accountType, value.currency)) {
      const constraint = currencyConstraint(parsed.accountType);
      errors.push({
        field: 'currency',
        constraint,
        message: constraint.enum ? `${parsed.accountType} accounts hold ${constraint.enum.join(' or ')}` : 'currency must be an ISO 4217 code',
      });
    }
    throwIfAny(errors);
    if (parsed!.checksumErrors.length > 0) {
      throw new ValidationError(parsed!.checksumErrors, 'INVALID_BANK_ACCOUNT', 'The account identifiers are not valid');
    }
    return this.commandBus.execute(
      new CreateExternalAccount(
        request.platform.platformId,
        {
          customerId: value.customerId,
          currency: value.currency,
          platformAccountId: value.platformAccountId ?? null,
          ownershipType: value.ownershipType,
          defaultUmaDepositAccount: value.defaultUmaDepositAccount,
          accountInfo: parsed!.info,
          primaryIdentifier: parsed!.primaryIdentifier,
        },
        parsed!.primaryField,
      ),
    );
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

interface ParsedAccountInfo {
  accountType: ExternalAccountType;
  info: AccountInfo;
  primaryIdentifier: string;
  primaryField: string;
  checksumErrors: FieldError[];
}

/** accountInfo: accountType, the type's identifier fields, optional paymentRails, its beneficiary. */
function parseAccountInfo(raw: Record<string, unknown>, errors: FieldError[]): ParsedAccountInfo | null {
  const accountType = raw.accountType;
  if (accountType === undefined) {
    errors.push({ field: 'accountInfo.accountType', constraint: {}, message: 'accountInfo.accountType is required' });
    return null;
  }
  if (!isExternalAccountType(accountType)) {
    errors.push({ field: 'accountInfo.accountType', constraint: { enum: EXTERNAL_ACCOUNT_TYPES }, message: `accountInfo.accountType must be one of ${EXTERNAL_ACCOUNT_TYPES.join(', ')}` });
    return null;
  }
  const checked = checkIdentifiers(accountType, raw);
  errors.push(...checked.shapeErrors);
  const beneficiary = parseBeneficiary(accountType, raw.beneficiary, errors);
  if (!checked.value) return null;
  return {
    accountType,
    info: { accountType, identifiers: checked.value.identifiers, paymentRails: checked.value.paymentRails, beneficiary },
    primaryIdentifier: checked.value.primaryIdentifier,
    primaryField: checked.value.primaryField,
    checksumErrors: checked.checksumErrors,
  };
}

const BENEFICIARY = 'accountInfo.beneficiary';
/** INDIVIDUAL fields only some account types take (the rule's `individualExtra`). */
const TYPE_SPECIFIC_INDIVIDUAL_FIELDS = ['registrationNumber', 'documentType', 'documentNumber'];

/**
 * The beneficiary in the shape the account type takes (the reference's per-currency
 * `*Beneficiary`, BusinessBeneficiary, or the wallets' short form). Bank accounts need one;
 * wallets may carry one; Lightning takes none (refused as an unknown field by checkIdentifiers).
 */
function parseBeneficiary(accountType: ExternalAccountType, raw: unknown, errors: FieldError[]): Beneficiary | null {
  const rule = beneficiaryRuleFor(accountType);
  if (rule.kind === 'NONE') return null;
  if (raw === undefined) {
    if (rule.kind === 'BANK') errors.push({ field: BENEFICIARY, constraint: {}, message: `${BENEFICIARY} is required for ${accountType}` });
    return null;
  }
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
    errors.push({ field: BENEFICIARY, constraint: {}, message: 'Expected a JSON object' });
    return null;
  }
  const given = raw as Record<string, unknown>;
  const type = given.beneficiaryType;
  if (type !== 'INDIVIDUAL' && type !== 'BUSINESS') {
    errors.push({
      field: `${BENEFICIARY}.beneficiaryType`,
      constraint: type === undefined ? {} : { enum: ['INDIVIDUAL', 'BUSINESS'] },
      message: `${BENEFICIARY}.beneficiaryType must be INDIVIDUAL or BUSINESS`,
    });
    return null;
  }
  const shape = type === 'BUSINESS' ? BusinessBeneficiaryDto : rule.kind === 'WALLET' ? WalletIndividualBeneficiaryDto : IndividualBeneficiaryDto;
  const found = checkBody<object>(shape, given, BENEFICIARY).errors;
  if (type === 'INDIVIDUAL' && rule.kind === 'BANK') {
    for (const name of TYPE_SPECIFIC_INDIVIDUAL_FIELDS) {
      if (given[name] !== undefined && !rule.individualExtra.includes(name) && !hasErrorAt(found, `${BENEFICIARY}.${name}`)) {
        found.push({ field: `${BENEFICIARY}.${name}`, constraint: {}, message: `Unknown field ${BENEFICIARY}.${name} for ${accountType}` });
      }
    }
    for (const name of rule.individualRequired) {
      if (given[name] === undefined && !hasErrorAt(found, `${BENEFICIARY}.${name}`)) {
        found.push({ field: `${BENEFICIARY}.${name}`, constraint: {}, message: `${BENEFICIARY}.${name} is required for ${accountType}` });
      }
    }
  }
  errors.push(...found);
  if (found.length > 0) return null;
  // Only what was given is kept (the DTO checked every field; nothing else is present).
  return JSON.parse(JSON.stringify(given)) as Beneficiary;
}
