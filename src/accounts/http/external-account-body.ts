import { FieldError, ValidationError } from '../../infra/domain/domain-error';
import { checkBody, hasErrorAt, throwIfAny } from '../../infra/http/validation';
import { parseId } from '../../infra/ids';
import { NewExternalAccount } from '../commands/create-external-account';
import {
  EXTERNAL_ACCOUNT_TYPES,
  ExternalAccountType,
  beneficiaryRuleFor,
  checkIdentifiers,
  currencyConstraint,
  holdsCurrency,
  isExternalAccountType,
} from '../domain/external-account/account-identifiers';
import { AccountInfo, Beneficiary } from '../domain/external-account/external-account.events';
import { BusinessBeneficiaryDto, CreateExternalAccountDto, CreatePlatformExternalAccountDto, IndividualBeneficiaryDto, WalletIndividualBeneficiaryDto } from './accounts.dto';

/** A create body once checked: the account to create and the field of its primary identifier. */
export interface ParsedExternalAccount {
  input: NewExternalAccount;
  primaryField: string;
}

/**
 * `POST /customers/external-accounts` (ExternalAccountCreateRequest: without `customerId` the
 * account is the platform's own) and `POST /platform/external-accounts`
 * (PlatformExternalAccountCreateRequest: no customer, no UMA deposit default). One parse for both,
 * so a platform's account is checked exactly as a customer's: every bad field at once (400
 * INVALID_INPUT), then checksum problems (400 INVALID_BANK_ACCOUNT).
 */
export function parseExternalAccountBody(body: unknown, route: 'CUSTOMERS' | 'PLATFORM'): ParsedExternalAccount {
  const { value, errors } =
    route === 'CUSTOMERS' ? checkBody(CreateExternalAccountDto, body) : checkBody<CreateExternalAccountDto>(CreatePlatformExternalAccountDto, body);
  // A body that is not an object at all has one error (`body`) and nothing else to check.
  const isObjectBody = !hasErrorAt(errors, 'body');
  if (isObjectBody && value.customerId !== undefined && !hasErrorAt(errors, 'customerId') && !parseId('Customer', value.customerId)) {
    errors.push({ field: 'customerId', constraint: { format: 'Customer-id' }, message: 'customerId must be a Customer:<uuid> id' });
  }
  if (isObjectBody && value.customerId === undefined && value.defaultUmaDepositAccount === true && !hasErrorAt(errors, 'defaultUmaDepositAccount')) {
    errors.push({ field: 'defaultUmaDepositAccount', constraint: {}, message: "Only a customer's account receives its UMA payments: give customerId" });
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
  return {
    input: {
      customerId: value.customerId ?? null,
      currency: value.currency,
      platformAccountId: value.platformAccountId ?? null,
      ownershipType: value.ownershipType,
      defaultUmaDepositAccount: value.defaultUmaDepositAccount,
      accountInfo: parsed!.info,
      primaryIdentifier: parsed!.primaryIdentifier,
    },
    primaryField: parsed!.primaryField,
  };
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
