import { FieldError } from '../../infra/domain/domain-error';
import { checkBody, hasErrorAt, throwIfAny } from '../../infra/http/validation';
import { parseId } from '../../infra/ids';
import { CURRENCY_CODES, isCurrencyCode } from '../../shared/currencies';
import { PAYMENT_RAILS, isPaymentRail } from '../pricing/rails';
import { FundingMethod, checkRealtimeFunding } from '../pricing/realtime-funding';
import { parseUmaAddress } from '../../sandbox/uma-addresses';
import {
  AccountDestinationDto, AccountSourceDto, CreateQuoteDto, DESTINATION_TYPES, RealtimeFundingSourceDto, SOURCE_TYPES, UmaDestinationDto,
} from './quotes.dto';

/** A `POST /quotes` body whose every field has the right shape. */
export interface QuoteRequest {
  source:
    | { sourceType: 'ACCOUNT'; accountId: string; customerId: string | null }
    | { sourceType: 'REALTIME_FUNDING'; currency: string; customerId: string | null; cryptoNetwork: string | null; method: FundingMethod };
  destination:
    | { destinationType: 'ACCOUNT'; accountId: string; paymentRail: string | null }
    | { destinationType: 'UMA_ADDRESS'; umaAddress: string; currency: string | null };
  lockedCurrencySide: 'SENDING' | 'RECEIVING';
  lockedCurrencyAmount: number;
  description: string | null;
}

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
    errors.push({ field: 'destination.umaAddress', constraint: 'FORMAT', message: 'umaAddress must look like $user@domain.com' });
  }
  throwIfAny(errors);
  return {
    source: source!,
    destination: destination!,
    lockedCurrencySide: value.lockedCurrencySide,
    lockedCurrencyAmount: value.lockedCurrencyAmount,
    description: value.description ?? null,
  };
}

function discriminator(object: Record<string, unknown>, field: string, prefix: string, allowed: readonly string[], errors: FieldError[]): string | null {
  const value = object[field];
  const path = `${prefix}.${field}`;
  if (value === undefined) errors.push({ field: path, constraint: 'REQUIRED', message: `${path} is required` });
  else if (typeof value !== 'string') errors.push({ field: path, constraint: 'TYPE', message: `${path} must be a string` });
  else if (!allowed.includes(value)) errors.push({ field: path, constraint: 'ENUM', message: `${path} must be one of ${allowed.join(', ')}` });
  else return value;
  return null;
}

function checkIdField(errors: FieldError[], field: string, id: unknown, prefixes: Array<'InternalAccount' | 'ExternalAccount' | 'Customer'>): void {
  if (id === undefined || hasErrorAt(errors, field)) return;
  if (!prefixes.some((prefix) => parseId(prefix, id))) {
    errors.push({ field, constraint: 'FORMAT', message: `${field} must be a ${prefixes.map((prefix) => `${prefix}:<uuid>`).join(' or ')} id` });
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
    if (rail !== undefined && !hasErrorAt(errors, 'destination.paymentRail') && !isPaymentRail(rail)) {
      errors.push({ field: 'destination.paymentRail', constraint: 'ENUM', message: `destination.paymentRail must be one of ${PAYMENT_RAILS.join(', ')}` });
    }
    return { destinationType: 'ACCOUNT', accountId: checked.value.accountId, paymentRail: rail ?? null };
  }
  if (type === 'UMA_ADDRESS') {
    const checked = checkBody(UmaDestinationDto, destination, 'destination');
    errors.push(...checked.errors);
    const code = checked.value.currency;
    if (code !== undefined && !hasErrorAt(errors, 'destination.currency') && !isCurrencyCode(code)) {
      errors.push({ field: 'destination.currency', constraint: 'ENUM', message: `destination.currency must be one of ${CURRENCY_CODES.join(', ')}` });
    }
    return { destinationType: 'UMA_ADDRESS', umaAddress: checked.value.umaAddress, currency: code ?? null };
  }
  return null;
}
