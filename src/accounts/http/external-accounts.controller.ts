import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query, Req } from '@nestjs/common';
import type { Request } from 'express';
import { DomainError, FieldError, ValidationError } from '../../infra/domain/domain-error';
import { Page } from '../../infra/http/pagination';
import { AuthenticatedPlatform } from '../../infra/http/platform-auth.guard';
import { QueryReader } from '../../infra/http/query-params';
import { Idempotent } from '../../infra/http/route-metadata';
import { checkBody, hasErrorAt, throwIfAny } from '../../infra/http/validation';
import { parseId } from '../../infra/ids';
import { CURRENCY_CODES } from '../../shared/currencies';
import { toAddress } from '../../shared/validation/address.dto';
import { requirePathId } from '../../shared/validation/path-ids';
import { EXTERNAL_ACCOUNT_TYPES, checkIdentifiers, currenciesFor, isExternalAccountType } from '../domain/external-account/account-identifiers';
import { AccountInfo, Beneficiary, TrustAction } from '../domain/external-account/external-account.events';
import { ExternalAccountsService, TrustStart } from '../external-accounts.service';
import { ExternalAccountView } from '../queries/external-account.view';
import { ExternalAccountsQuery } from '../queries/external-accounts.query';
import { BeneficiaryDto, CreateExternalAccountDto, TrustConfirmDto } from './accounts.dto';

type PlatformRequest = Request & { platform: AuthenticatedPlatform };

/** `/customers/external-accounts`: create, list, read, delete, trust and untrust (SCA regions). */
@Controller('customers/external-accounts')
export class ExternalAccountsController {
  constructor(
    private readonly accounts: ExternalAccountsService,
    private readonly query: ExternalAccountsQuery,
  ) {}

  @Post()
  @Idempotent()
  async create(@Req() request: PlatformRequest, @Body() body: unknown): Promise<ExternalAccountView> {
    const { value, errors } = checkBody(CreateExternalAccountDto, body);
    // A body that is not an object at all has one error (`body`) and nothing else to check.
    const isObjectBody = !hasErrorAt(errors, 'body');
    if (isObjectBody && !hasErrorAt(errors, 'customerId') && !parseId('Customer', value.customerId)) {
      errors.push({ field: 'customerId', constraint: 'FORMAT', message: 'customerId must be a Customer:<uuid> id' });
    }
    const parsed = !isObjectBody || hasErrorAt(errors, 'accountInfo') ? null : parseAccountInfo(value.accountInfo, errors);
    if (parsed && !hasErrorAt(errors, 'currency') && !currenciesFor(parsed.info.accountType).includes(value.currency)) {
      errors.push({
        field: 'currency',
        constraint: 'ENUM',
        message: `${parsed.info.accountType} accounts hold ${currenciesFor(parsed.info.accountType).join(' or ')}`,
      });
    }
    throwIfAny(errors);
    if (parsed!.checksumErrors.length > 0) {
      throw new ValidationError(parsed!.checksumErrors, 'INVALID_BANK_ACCOUNT', 'The account identifiers are not valid');
    }
    return this.accounts.create(
      request.platform.platformId,
      {
        customerId: value.customerId,
        currency: value.currency,
        platformAccountId: value.platformAccountId ?? null,
        accountInfo: parsed!.info,
        primaryIdentifier: parsed!.primaryIdentifier,
      },
      parsed!.primaryField,
    );
  }

  @Get()
  async list(@Req() request: PlatformRequest, @Query() query: Record<string, unknown>): Promise<Page<ExternalAccountView>> {
    const reader = new QueryReader(query, ['customerId', 'currency']);
    const filters = { customerId: reader.id('customerId', 'Customer'), currency: reader.oneOf('currency', CURRENCY_CODES) };
    const page = reader.page('ExternalAccount');
    reader.done();
    return this.query.list(request.platform.platformId, filters, page);
  }

  @Get(':externalAccountId')
  async get(@Req() request: PlatformRequest, @Param('externalAccountId') id: string): Promise<ExternalAccountView> {
    requirePathId('ExternalAccount', 'externalAccountId', id);
    const view = await this.query.findView(request.platform.platformId, id);
    if (!view) throw new DomainError('NOT_FOUND', 'External account not found');
    return view;
  }

  @Delete(':externalAccountId')
  @HttpCode(204)
  async delete(@Req() request: PlatformRequest, @Param('externalAccountId') id: string): Promise<void> {
    requirePathId('ExternalAccount', 'externalAccountId', id);
    await this.accounts.delete(request.platform.platformId, id);
  }

  @Post(':externalAccountId/trust')
  @HttpCode(200)
  async startTrust(@Req() request: PlatformRequest, @Param('externalAccountId') id: string, @Body() body: unknown): Promise<TrustStart> {
    return this.start(request, id, body, 'TRUST');
  }

  @Post(':externalAccountId/trust/confirm')
  @HttpCode(200)
  async confirmTrust(@Req() request: PlatformRequest, @Param('externalAccountId') id: string, @Body() body: unknown): Promise<ExternalAccountView> {
    return this.confirm(request, id, body, 'TRUST');
  }

  @Post(':externalAccountId/untrust')
  @HttpCode(200)
  async startUntrust(@Req() request: PlatformRequest, @Param('externalAccountId') id: string, @Body() body: unknown): Promise<TrustStart> {
    return this.start(request, id, body, 'UNTRUST');
  }

  @Post(':externalAccountId/untrust/confirm')
  @HttpCode(200)
  async confirmUntrust(@Req() request: PlatformRequest, @Param('externalAccountId') id: string, @Body() body: unknown): Promise<ExternalAccountView> {
    return this.confirm(request, id, body, 'UNTRUST');
  }

  private async start(request: PlatformRequest, id: string, body: unknown, action: TrustAction): Promise<TrustStart> {
    requirePathId('ExternalAccount', 'externalAccountId', id);
    if (body && typeof body === 'object' && Object.keys(body).length > 0) {
      throwIfAny(Object.keys(body).map((field) => ({ field, constraint: 'UNKNOWN_FIELD' as const, message: `Unknown field ${field}` })));
    }
    return this.accounts.startTrustChange(request.platform.platformId, id, action);
  }

  private async confirm(request: PlatformRequest, id: string, body: unknown, action: TrustAction): Promise<ExternalAccountView> {
    requirePathId('ExternalAccount', 'externalAccountId', id);
    const { value, errors } = checkBody(TrustConfirmDto, body);
    throwIfAny(errors);
    return this.accounts.confirmTrustChange(request.platform.platformId, id, action, value.code);
  }
}

interface ParsedAccountInfo {
  info: AccountInfo;
  primaryIdentifier: string;
  primaryField: string;
  checksumErrors: FieldError[];
}

/** accountInfo: accountType, the type's identifier fields, optional paymentRails and beneficiary. */
function parseAccountInfo(raw: Record<string, unknown>, errors: FieldError[]): ParsedAccountInfo | null {
  const accountType = raw.accountType;
  if (accountType === undefined) {
    errors.push({ field: 'accountInfo.accountType', constraint: 'REQUIRED', message: 'accountInfo.accountType is required' });
    return null;
  }
  if (!isExternalAccountType(accountType)) {
    errors.push({ field: 'accountInfo.accountType', constraint: 'ENUM', message: `accountInfo.accountType must be one of ${EXTERNAL_ACCOUNT_TYPES.join(', ')}` });
    return null;
  }
  const checked = checkIdentifiers(accountType, raw);
  errors.push(...checked.shapeErrors);
  let beneficiary: Beneficiary | null = null;
  if (raw.beneficiary !== undefined) {
    const result = checkBody(BeneficiaryDto, raw.beneficiary, 'accountInfo.beneficiary');
    errors.push(...result.errors);
    if (result.errors.length === 0) {
      const dto = result.value;
      beneficiary = {
        beneficiaryType: dto.beneficiaryType,
        fullName: dto.fullName,
        birthDate: dto.birthDate ?? null,
        nationality: dto.nationality ?? null,
        email: dto.email ?? null,
        address: dto.address ? toAddress(dto.address) : null,
      };
    }
  }
  if (!checked.value) return null;
  const primaryField = `accountInfo.${Object.keys(checked.value.identifiers).find((name) => checked.value!.identifiers[name] === checked.value!.primaryIdentifier)}`;
  return {
    info: { accountType, identifiers: checked.value.identifiers, paymentRails: checked.value.paymentRails, beneficiary },
    primaryIdentifier: checked.value.primaryIdentifier,
    primaryField,
    checksumErrors: checked.checksumErrors,
  };
}
