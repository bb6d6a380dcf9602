import { FieldError } from '../../infra/domain/domain-error';
import type { QuoteRequest } from '../commands/create-quote';
import { perTransactionFactorError } from '../domain/quote/quote-authorization';
import { checkBody, hasErrorAt, throwIfAny } from '../../infra/http/validation';
import { idConstraint, parseId } from '../../infra/ids';
import { CURRENCY_CODES, isCurrencyCode } from '../../shared/currencies';
import { WIRE_PAYMENT_RAILS, isWirePaymentRail } from '../pricing/rails';
import { checkRealtimeFunding } from '../pricing/realtime-funding';
import { parseUmaAddress } from '../../sandbox';
import {
  AccountDestinationDto, AccountSourceDto, CreateQuoteDto, DESTINATION_TYPES, FixedFeeDto, PlatformFeeOverrideDto, RealtimeFundingSourceDto,
  SOURCE_TYPES, UmaDestinationDto,
} from './quotes.dto';

/** Limits of `senderCustomerInfo` (free-form, but stored with the quote): keys, key length, JSON size. */
const SENDER_INFO_MAX_KEYS = 50;
const SENDER_INFO_MAX_KEY_LENGTH = 100;
const SENDER_INFO_MAX_JSON_CHARS = 10_000;

/**
 * Checks the body and answers it typed, or throws 400 INVALID_INPUT listing every bad or unknown
 * field at once (the top level and both variants). A malformed `umaAddress` alone is left to the
 * UMA resolver, which answers 400 INVALID_UMA_ADDRESS; among other bad fields it is listed too.
 */
export function parseQuoteRequest(body: unknown): QuoteRequest {
  const { value, errors } = checkBody(CreateQuoteDto, body);
  if (hasErrorAt(errors, 'body')) throwIfAny(errors);
  const source = hasErrorAt(errors, 'source') ? null : checkSource(value.source, errors);
  const destination = hasErrorAt(errors, 'destination') ? null : checkDestination(value.destination, errors);
  const umaAddress = destination?.destinationType === 'UMA_ADDRESS' ? destination.umaAddress : undefined;
  if (errors.length > 0 && umaAddress !== undefined && !hasErrorAt(errors, 'destination.umaAddress') && !parseUmaAddress(umaAddress)) {
    errors.push({ field: 'destination.umaAddress', constraint: { format: 'uma-address' }, message: 'umaAddress must look like $user@domain.com' });
  }
  const platformFeeOverride = value.platformFeeOverride === undefined || hasErrorAt(errors, 'platformFeeOverride')
    ? null
    : checkPlatformFeeOverride(value.platformFeeOverride, errors);
  // The factor rule is the domain's; it is listed here with the other fields (one 400 for all).
  const factorError = value.scaFactor !== undefined && !hasErrorAt(errors, 'scaFactor') ? perTransactionFactorError(value.scaFactor) : null;
  if (factorError) errors.push(factorError);
  if (value.senderCustomerInfo !== undefined && !hasErrorAt(errors, 'senderCustomerInfo')) checkSenderCustomerInfo(value.senderCustomerInfo, errors);
  throwIfAny(errors);
  return {
    source: source!,
    destination: destination!,
    lockedCurrencySide: value.lockedCurrencySide,
    lockedCurrencyAmount: value.lockedCurrencyAmount,
    description: value.description ?? null,
    lookupId: value.lookupId ?? null,
    immediatelyExecute: value.immediatelyExecute ?? false,
    remittanceInformation: value.remittanceInformation ?? null,
    purposeOfPayment: value.purposeOfPayment ?? null,
    platformFeeOverride,
    scaFactor: value.scaFactor ?? null,
    senderCustomerInfo: value.senderCustomerInfo ?? null,
  };
}

function checkPlatformFeeOverride(override: Record<string, unknown>, errors: FieldError[]): QuoteRequest['platformFeeOverride'] {
  const checked = checkBody(PlatformFeeOverrideDto, override, 'platformFeeOverride');
  errors.push(...checked.errors);
  if (hasErrorAt(checked.errors, 'platformFeeOverride.platformFixedFee')) return null;
  const fixed = checkBody(FixedFeeDto, checked.value.platformFixedFee, 'platformFeeOverride.platformFixedFee');
  errors.push(...fixed.errors);
  const currencyField = 'platformFeeOverride.platformFixedFee.currency';
  if (!hasErrorAt(fixed.errors, currencyField) && !isCurrencyCode(fixed.value.currency)) {
    errors.push({ field: currencyField, constraint: { enum: CURRENCY_CODES }, message: `${currencyField} must be one of ${CURRENCY_CODES.join(', ')}` });
  }
  if (checked.errors.length > 0 || fixed.errors.length > 0) return null;
  return { fixedFee: fixed.value.amount, fixedFeeCurrency: fixed.value.currency, variableFeeBps: checked.value.platformVariableFeeBps };
}

/**
 * `senderCustomerInfo` is free-form (whatever the destination asked for), but it is stored with
 * the quote and travels with the payment: bounded in keys and size.
 */
function checkSenderCustomerInfo(info: Record<string, unknown>, errors: FieldError[]): void {
  const keys = Object.keys(info);
  if (keys.length > SENDER_INFO_MAX_KEYS) {
    errors.push({ field: 'senderCustomerInfo', constraint: {}, message: `senderCustomerInfo may have at most ${SENDER_INFO_MAX_KEYS} keys` });
    return;
  }
  for (const key of keys) {
    if (key.length === 0 || key.length > SENDER_INFO_MAX_KEY_LENGTH) {
      errors.push({ field: 'senderCustomerInfo', constraint: {}, message: `senderCustomerInfo keys must be 1 to ${SENDER_INFO_MAX_KEY_LENGTH} characters` });
      return;
    }
  }
  if (JSON.stringify(info).length > SENDER_INFO_MAX_JSON_CHARS) {
    errors.push({ field: 'senderCustomerInfo', constraint: {}, message: `senderCustomerInfo must be at most ${SENDER_INFO_MAX_JSON_CHARS} characters of JSON` });
  }
}

function discriminator(object: Record<string, unknown>, field: string, prefix: string, allowed: readonly string[], errors: FieldError[]): string | null {
  const value = object[field];
  const path = `${prefix}.${field}`;
  if (value === undefined) errors.push({ field: path, constraint: {}, message: `${path} is required` });
  else if (typeof value !== 'string') errors.push({ field: path, constraint: {}, message: `${path} must be a string` });
  else if (!allowed.includes(value)) errors.push({ field: path, constraint: { enum: allowed }, message: `${path} must be one of ${allowed.join(', ')}` });
  else return value;
  return null;
}

function checkIdField(errors: FieldError[], field: string, id: unknown, prefixes: ['InternalAccount' | 'ExternalAccount' | 'Customer', ...Array<'InternalAccount' | 'ExternalAccount' | 'Customer'>]): void {
  if (id === undefined || hasErrorAt(errors, field)) return;
  if (!prefixes.some((prefix) => parseId(prefix, id))) {
    errors.push({ field, constraint: idConstraint(...prefixes), message: `${field} must be a ${prefixes.map((prefix) => `${prefix}:<uuid>`).join(' or ')} id` });
  }
}

function checkSource(source: Record<string, unknown>, errors: FieldError[]): QuoteRequest['source'] | null {
  const type = discriminator(source, 'sourceType', 'source', SOURCE_TYPES, errors);
  if (type === 'ACCOUNT') {
    const checked = checkBody(AccountSourceDto, source, 'source');
    errors.push(...checked.errors);
    checkIdField(errors, 'source.accountId', checked.value.accountId, ['InternalAccount']);
    checkIdField(errors, 'source.customerId', checked.value.customerId, ['Customer']);
    return { sourceType: 'ACCOUNT', accountId: checked.value.accountId, customerId: checked.value.customerId ?? null };
  }
  if (type === 'REALTIME_FUNDING') {
    const checked = checkBody(RealtimeFundingSourceDto, source, 'source');
    errors.push(...checked.errors);
    checkIdField(errors, 'source.customerId', checked.value.customerId, ['Customer']);
    const funding = checkRealtimeFunding({
      currency: hasErrorAt(checked.errors, 'source.currency') ? undefined : checked.value.currency,
      cryptoNetwork: hasErrorAt(checked.errors, 'source.cryptoNetwork') ? undefined : checked.value.cryptoNetwork,
    });
    // Shape errors already name these fields; add only what the funding rules find on top.
    errors.push(...funding.errors.filter((error) => !hasErrorAt(checked.errors, error.field)));
    if (!funding.method) return null;
    return {
      sourceType: 'REALTIME_FUNDING',
      currency: checked.value.currency,
      customerId: checked.value.customerId ?? null,
      cryptoNetwork: checked.value.cryptoNetwork ?? null,
      method: funding.method,
    };
  }
  return null;
}

function checkDestination(destination: Record<string, unknown>, errors: FieldError[]): QuoteRequest['destination'] | null {
  const type = discriminator(destination, 'destinationType', 'destination', DESTINATION_TYPES, errors);
  if (type === 'ACCOUNT') {
    const checked = checkBody(AccountDestinationDto, destination, 'destination');
    errors.push(...checked.errors);
    checkIdField(errors, 'destination.accountId', checked.value.accountId, ['ExternalAccount', 'InternalAccount']);
    const rail = checked.value.paymentRail;
    // The contract's rail names only (wallet and UMA payouts name no rail).
    if (rail !== undefined && !hasErrorAt(errors, 'destination.paymentRail') && !isWirePaymentRail(rail)) {
      errors.push({
        field: 'destination.paymentRail',
        constraint: { enum: WIRE_PAYMENT_RAILS },
        message: `destination.paymentRail must be one of ${WIRE_PAYMENT_RAILS.join(', ')}`,
      });
    }
    return { destinationType: 'ACCOUNT', accountId: checked.value.accountId, paymentRail: rail ?? null };
  }
  if (type === 'UMA_ADDRESS') {
    const checked = checkBody(UmaDestinationDto, destination, 'destination');
    errors.push(...checked.errors);
    const code = checked.value.currency;
    if (code !== undefined && !hasErrorAt(errors, 'destination.currency') && !isCurrencyCode(code)) {
      errors.push({ field: 'destination.currency', constraint: { enum: CURRENCY_CODES }, message: `destination.currency must be one of ${CURRENCY_CODES.join(', ')}` });
    }
    return { destinationType: 'UMA_ADDRESS', umaAddress: checked.value.umaAddress, currency: code ?? null };
  }
  return null;
}
