import type { ExternalAccountType } from '../../accounts';

/**
 * The sandbox's receiving institutions (`GET /discoveries`): per corridor (country, currency),
 * the banks and wallets a payout can reach, each under the `bankName` that
 * `POST /customers/external-accounts` takes for the corridor's account type. Only account types
 * that carry a `bankName` field are listed: where the identifiers find the institution themselves
 * (EUR and DKK IBANs, GBP sort codes, MXN CLABEs, BRL Pix keys, CAD institution numbers) or the
 * field is `provider` (the mobile-money-only types), there is nothing to discover. Every corridor
 * is one quotes price (tables.spec.ts): its account type holds the currency and has a rail.
 */
export interface DiscoveryEntry {
  readonly bankName: string;
  readonly displayName: string;
  /** ISO 3166-1 alpha-2. */
  readonly country: string;
  /** ISO 4217. */
  readonly currency: string;
  /** The external account type a customer's account at this institution is created as. */
  readonly accountType: ExternalAccountType;
}

interface Corridor {
  accountType: ExternalAccountType;
  country: string;
  currency: string;
  /** `[bankName, displayName]`; the display name defaults to the bank name. */
  institutions: ReadonlyArray<readonly [string, string?]>;
}

const CORRIDORS: readonly Corridor[] = [
  { accountType: 'SWIFT_ACCOUNT', country: 'AU', currency: 'AUD', institutions: [['Commonwealth Bank', 'Commonwealth Bank of Australia'], ['Westpac', 'Westpac Banking Corporation']] },
  { accountType: 'BDT_ACCOUNT', country: 'BD', currency: 'BDT', institutions: [['BRAC Bank'], ['Dutch-Bangla Bank'], ['bKash']] },
  { accountType: 'SWIFT_ACCOUNT', country: 'CH', currency: 'CHF', institutions: [['UBS', 'UBS Switzerland'], ['Zurich Cantonal Bank', 'Zürcher Kantonalbank']] },
  { accountType: 'CNY_ACCOUNT', country: 'CN', currency: 'CNY', institutions: [['Alipay'], ['Bank of China'], ['ICBC', 'Industrial and Commercial Bank of China']] },
  { accountType: 'COP_ACCOUNT', country: 'CO', currency: 'COP', institutions: [['Banco de Bogota', 'Banco de Bogotá'], ['Bancolombia'], ['Nequi']] },
  { accountType: 'EGP_ACCOUNT', country: 'EG', currency: 'EGP', institutions: [['Banque Misr'], ['National Bank of Egypt'], ['Vodafone Cash']] },
  { accountType: 'GHS_ACCOUNT', country: 'GH', currency: 'GHS', institutions: [['Ecobank Ghana'], ['GCB Bank'], ['MTN Mobile Money', 'MTN MoMo']] },
  { accountType: 'GTQ_ACCOUNT', country: 'GT', currency: 'GTQ', institutions: [['Banco Industrial'], ['Banrural', 'Banco de Desarrollo Rural']] },
  { accountType: 'HKD_ACCOUNT', country: 'HK', currency: 'HKD', institutions: [['Bank of China (Hong Kong)'], ['Hang Seng Bank'], ['HSBC Hong Kong', 'The Hongkong and Shanghai Banking Corporation']] },
  { accountType: 'IDR_ACCOUNT', country: 'ID', currency: 'IDR', institutions: [['Bank Central Asia', 'BCA'], ['Bank Mandiri'], ['Bank Rakyat Indonesia', 'BRI']] },
  { accountType: 'INR_ACCOUNT', country: 'IN', currency: 'INR', institutions: [['HDFC Bank'], ['ICICI Bank'], ['State Bank of India']] },
  { accountType: 'JMD_ACCOUNT', country: 'JM', currency: 'JMD', institutions: [['National Commercial Bank', 'NCB Jamaica'], ['Scotiabank Jamaica']] },
  { accountType: 'SWIFT_ACCOUNT', country: 'JP', currency: 'JPY', institutions: [['MUFG Bank'], ['Mizuho Bank']] },
  { accountType: 'SWIFT_ACCOUNT', country: 'KR', currency: 'KRW', institutions: [['KB Kookmin Bank'], ['Shinhan Bank']] },
  { accountType: 'MYR_ACCOUNT', country: 'MY', currency: 'MYR', institutions: [['CIMB Bank'], ['Maybank', 'Malayan Banking'], ['Public Bank']] },
  { accountType: 'NGN_ACCOUNT', country: 'NG', currency: 'NGN', institutions: [['Access Bank'], ['First Bank', 'First Bank of Nigeria'], ['GTBank', 'Guaranty Trust Bank'], ['Zenith Bank']] },
  { accountType: 'PHP_ACCOUNT', country: 'PH', currency: 'PHP', institutions: [['BDO Unibank'], ['BPI', 'Bank of the Philippine Islands'], ['Metrobank', 'Metropolitan Bank and Trust']] },
  { accountType: 'PKR_ACCOUNT', country: 'PK', currency: 'PKR', institutions: [['Habib Bank', 'HBL'], ['JazzCash'], ['Meezan Bank']] },
  { accountType: 'SGD_ACCOUNT', country: 'SG', currency: 'SGD', institutions: [['DBS Bank'], ['OCBC Bank'], ['UOB', 'United Overseas Bank']] },
  { accountType: 'SLV_ACCOUNT', country: 'SV', currency: 'USD', institutions: [['Banco Agricola', 'Banco Agrícola'], ['Banco Cuscatlan', 'Banco Cuscatlán']] },
  { accountType: 'THB_ACCOUNT', country: 'TH', currency: 'THB', institutions: [['Bangkok Bank'], ['Kasikornbank'], ['Siam Commercial Bank']] },
  { accountType: 'USD_ACCOUNT', country: 'US', currency: 'USD', institutions: [['Bank of America'], ['Citibank'], ['JPMorgan Chase', 'Chase'], ['Wells Fargo']] },
  { accountType: 'VND_ACCOUNT', country: 'VN', currency: 'VND', institutions: [['Techcombank'], ['Vietcombank'], ['VietinBank']] },
  { accountType: 'ZAR_ACCOUNT', country: 'ZA', currency: 'ZAR', institutions: [['Absa Bank'], ['Capitec Bank'], ['FNB', 'First National Bank'], ['Standard Bank']] },
];

/** Every institution, by country, then currency, then bankName (the listing's order). */
export const DISCOVERIES: readonly DiscoveryEntry[] = Object.freeze(
  CORRIDORS.flatMap((corridor) =>
    corridor.institutions.map(([bankName, displayName]) =>
      Object.freeze({ bankName, displayName: displayName ?? bankName, country: corridor.country, currency: corridor.currency, accountType: corridor.accountType }),
    ),
  ).sort((a, b) => compare(a.country, b.country) || compare(a.currency, b.currency) || compare(a.bankName, b.bankName)),
);

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
