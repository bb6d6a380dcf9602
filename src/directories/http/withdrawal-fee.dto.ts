import { IsDefined, IsIn, IsInt, IsString, Max, MaxLength, Min, MinLength } from 'class-validator';
import { FieldError } from '../../infra/domain/domain-error';
import { checkBody, hasErrorAt, throwIfAny } from '../../infra/http/validation';
import { parseId } from '../../infra/ids';
import { MAX_AMOUNT_MINOR } from '../../shared/currencies';
import { WithdrawalFeeRequest } from '../queries/withdrawal-fees.query';
import {
  WITHDRAWAL_CURRENCIES, WITHDRAWAL_NETWORK_NAMES, destinationAddressError, networkCurrencies, withdrawalNetwork,
} from '../tables/withdrawal-networks';

/** Longest destination: a BOLT11 invoice with its route hints (the Lightning identifier rule's bound). */
const MAX_DESTINATION_LENGTH = 2100;

/** `POST /crypto/estimate-withdrawal-fee`. */
export class EstimateWithdrawalFeeDto {
  @IsDefined() @IsString() internalAccountId: string;
  @IsDefined() @IsString() @IsIn(WITHDRAWAL_CURRENCIES) currency: string;
  @IsDefined() @IsString() @IsIn(WITHDRAWAL_NETWORK_NAMES) cryptoNetwork: string;
  @IsDefined() @IsInt() @Min(1) @Max(MAX_AMOUNT_MINOR) amount: number;
  @IsDefined() @IsString() @MinLength(1) @MaxLength(MAX_DESTINATION_LENGTH) destinationAddress: string;
}

/**
 * The body's shape and what it says on its own (the id's form, a network that carries the
 * currency, an address of that network's form), every bad field in one 400 INVALID_INPUT.
 */
export function parseWithdrawalFeeBody(body: unknown): WithdrawalFeeRequest {
  const { value, errors } = checkBody(EstimateWithdrawalFeeDto, body);
  if (hasErrorAt(errors, 'body')) throwIfAny(errors);
  if (!hasErrorAt(errors, 'internalAccountId') && !parseId('InternalAccount', value.internalAccountId)) {
    errors.push({ field: 'internalAccountId', constraint: { format: 'InternalAccount-id' }, message: 'internalAccountId must be an InternalAccount:<uuid> id' });
  }
  const network = hasErrorAt(errors, 'cryptoNetwork') ? undefined : withdrawalNetwork(value.cryptoNetwork);
  if (network && !hasErrorAt(errors, 'currency') && !networkCurrencies(network).includes(value.currency)) {
    const carrying = WITHDRAWAL_NETWORK_NAMES.filter((name) => networkCurrencies(withdrawalNetwork(name)!).includes(value.currency));
    errors.push(networkError(value.currency, value.cryptoNetwork, carrying));
  }
  if (network && !hasErrorAt(errors, 'destinationAddress')) {
    const addressError = destinationAddressError(network, value.destinationAddress);
    if (addressError) errors.push(addressError);
  }
  throwIfAny(errors);
  return { internalAccountId: value.internalAccountId, currency: value.currency, network: network!, amount: value.amount };
}

function networkError(currency: string, network: string, carrying: string[]): FieldError {
  return { field: 'cryptoNetwork', constraint: { enum: carrying }, message: `${network} does not carry ${currency}; use one of ${carrying.join(', ')}` };
}
