import { scaDynamicLinkingChallengeHex } from '../../src/infra/crypto/webauthn';
import { germanIban } from './customer-fixtures';
import { FundedCustomer, accountQuoteBody, fundedCustomer } from './quote-fixtures';
import { scaLogin } from './sca-client';
import { PlatformClient } from './test-app';
import { createUsdExternalAccount } from './customer-fixtures';

/** An EU (SCA region) customer with a funded USD account, a USD and a EUR beneficiary, logged in for SCA. */
export interface EuropeanSender extends FundedCustomer {
  usdPayee: any;
  eurPayee: any;
}

export async function europeanSender(api: PlatformClient, amount = 1_000_000, options: { login?: boolean } = {}): Promise<EuropeanSender> {
  const owner = await fundedCustomer(api, amount, { region: 'DE' });
  const usdPayee = await createUsdExternalAccount(api, owner.customer.id, '789');
  const eur = await api.post('/customers/external-accounts').send({
    customerId: owner.customer.id,
    currency: 'EUR',
    accountInfo: { accountType: 'EUR_ACCOUNT', iban: germanIban('789'), beneficiary: { beneficiaryType: 'INDIVIDUAL', fullName: 'Marie Curie', countryOfResidence: 'DE' } },
  });
  if (eur.status !== 201) throw new Error(`EUR payee: ${eur.status} ${JSON.stringify(eur.body)}`);
  if (options.login !== false) await scaLogin(api, owner.customer.id);
  return { ...owner, usdPayee, eurPayee: eur.body };
}

/** A PENDING quote from the sender's USD account to `payee` (USD: same currency, EUR: cross-currency). */
export async function quoteTo(api: PlatformClient, sender: EuropeanSender, payee: any, amount = 10_000): Promise<any> {
  const response = await api.post('/quotes').send(accountQuoteBody(sender.usd.id, payee.id, amount));
  if (response.status !== 201) throw new Error(`quoteTo: ${response.status} ${JSON.stringify(response.body)}`);
  return response.body;
}

/** The dynamic-linking challenge hex a PASSKEY challenge of `quote` must carry for a step. */
export function linkedChallengeHex(quote: any, challengeId: string, side: 'SENDING' | 'RECEIVING'): string {
  return scaDynamicLinkingChallengeHex({
    challengeId,
    quoteId: quote.id,
    amount: side === 'SENDING' ? quote.totalSendingAmount : quote.totalReceivingAmount,
    currency: side === 'SENDING' ? quote.sendingCurrency.code : quote.receivingCurrency.code,
    payee: quote.destination.accountId ?? quote.destination.umaAddress,
  });
}
