import { ibanRemainder } from '../../../src/accounts/domain/external-account/account-identifiers';
import { clabe, germanIban } from '../../support/customer-fixtures';

/** An IBAN for `country` and `bban` with its mod-97 check digits. */
function ibanFor(country: string, bban: string): string {
  const check = 98 - ibanRemainder(`${bban}${country}00`.replace(/[A-Z]/g, (letter) => String(letter.charCodeAt(0) - 55)));
  return `${country}${String(check).padStart(2, '0')}${bban}`;
}

const individual = { beneficiaryType: 'INDIVIDUAL', fullName: 'Acme Treasury' };
const business = { beneficiaryType: 'BUSINESS', legalName: 'Acme Ltd' };
const address = { line1: '1 Main St', postalCode: '10115', country: 'DE' };
const EVM = '0x742d35Cc6634C0532925a3b844Bc454e4438f44e';

/**
 * One valid create body per account type the reference defines (ExternalAccountCreateInfoOneOf),
 * with the currency it holds and the rails it answers: [currency, accountInfo, paymentRails].
 */
export const ONE_ACCOUNT_PER_TYPE: Array<[string, Record<string, unknown>, string[]]> = [
  ['AED', { accountType: 'AED_ACCOUNT', iban: ibanFor('AE', '0331234567890123456'), beneficiary: { ...individual, address } }, ['BANK_TRANSFER']],
  ['BDT', { accountType: 'BDT_ACCOUNT', bankName: 'bKash', phoneNumber: '+8801712345678', beneficiary: individual }, ['MOBILE_MONEY']],
  ['BRL', { accountType: 'BRL_ACCOUNT', pixKey: 'ops@acme.example', pixKeyType: 'EMAIL', taxId: '12345678901', beneficiary: individual }, ['PIX']],
  ['BWP', { accountType: 'BWP_ACCOUNT', phoneNumber: '+26771234567', provider: 'Orange', beneficiary: individual }, ['MOBILE_MONEY']],
  ['CAD', { accountType: 'CAD_ACCOUNT', bankCode: '001', branchCode: '00011', accountNumber: '1234567', beneficiary: { ...individual, registrationNumber: 'R-1' } }, ['BANK_TRANSFER']],
  ['CNY', { accountType: 'CNY_ACCOUNT', bankName: 'ICBC', accountNumber: '6222021234567890', beneficiary: individual }, ['BANK_TRANSFER']],
  ['COP', { accountType: 'COP_ACCOUNT', bankName: 'Bancolombia', accountNumber: '1234567890', bankAccountType: 'SAVINGS', beneficiary: { ...individual, documentType: 'NIT', documentNumber: '900123456' } }, ['BANK_TRANSFER']],
  ['DKK', { accountType: 'DKK_ACCOUNT', iban: ibanFor('DK', '00400440116243'), swiftCode: 'DABADKKK', beneficiary: individual }, ['SEPA', 'SEPA_INSTANT']],
  ['EGP', { accountType: 'EGP_ACCOUNT', bankName: 'CIB', iban: ibanFor('EG', '0019000500000000263180002'), beneficiary: individual }, ['BANK_TRANSFER']],
  ['EUR', { accountType: 'EUR_ACCOUNT', iban: germanIban('789'), swiftCode: 'COBADEFFXXX', beneficiary: { ...individual, countryOfResidence: 'DE' } }, ['SEPA', 'SEPA_INSTANT']],
  ['GBP', { accountType: 'GBP_ACCOUNT', accountNumber: '12345678', sortCode: '123456', beneficiary: business }, ['FASTER_PAYMENTS']],
  ['GHS', { accountType: 'GHS_ACCOUNT', bankName: 'GCB', accountNumber: '1234567890', phoneNumber: '+233201234567', beneficiary: individual }, ['BANK_TRANSFER', 'MOBILE_MONEY']],
  ['GTQ', { accountType: 'GTQ_ACCOUNT', accountNumber: '1234567', bankAccountType: 'CHECKING', bankName: 'Banrural', beneficiary: { ...individual, countryOfResidence: 'GT', phoneNumber: '+50221234567' } }, ['BANK_TRANSFER']],
  ['HKD', { accountType: 'HKD_ACCOUNT', bankName: 'HSBC', accountNumber: '123456789', swiftCode: 'HSBCHKHH', beneficiary: business }, ['BANK_TRANSFER']],
  ['HTG', { accountType: 'HTG_ACCOUNT', phoneNumber: '+50934567890', beneficiary: individual }, ['MOBILE_MONEY']],
  ['IDR', { accountType: 'IDR_ACCOUNT', bankName: 'BCA', accountNumber: '1234567890', swiftCode: 'CENAIDJA', phoneNumber: '+628123456789', beneficiary: individual }, ['BANK_TRANSFER']],
  ['INR', { accountType: 'INR_ACCOUNT', accountNumber: '123456789012', ifsc: 'HDFC0001234', bankName: 'HDFC', beneficiary: individual }, ['NEFT', 'RTGS']],
  ['JMD', { accountType: 'JMD_ACCOUNT', accountNumber: '123456', branchCode: '12345', bankAccountType: 'SAVINGS', bankName: 'NCB', beneficiary: { ...individual, address, phoneNumber: '+18765551234' } }, ['BANK_TRANSFER']],
  ['KES', { accountType: 'KES_ACCOUNT', phoneNumber: '+254712345678', provider: 'M-Pesa', beneficiary: individual }, ['MOBILE_MONEY']],
  ['MWK', { accountType: 'MWK_ACCOUNT', phoneNumber: '+265991234567', provider: 'Airtel', beneficiary: individual }, ['MOBILE_MONEY']],
  ['MXN', { accountType: 'MXN_ACCOUNT', clabeNumber: clabe(), beneficiary: business }, ['SPEI']],
  ['MYR', { accountType: 'MYR_ACCOUNT', bankName: 'Maybank', accountNumber: '123456789012', swiftCode: 'MBBEMYKL', beneficiary: individual }, ['BANK_TRANSFER']],
  ['NGN', { accountType: 'NGN_ACCOUNT', accountNumber: '0123456789', bankName: 'GTBank', beneficiary: individual }, ['BANK_TRANSFER']],
  ['PHP', { accountType: 'PHP_ACCOUNT', bankName: 'BDO', accountNumber: '12345678', beneficiary: individual }, ['BANK_TRANSFER']],
  ['PKR', { accountType: 'PKR_ACCOUNT', bankName: 'HBL', iban: ibanFor('PK', 'SCBL0000001123456702'), beneficiary: individual }, ['BANK_TRANSFER']],
  ['RWF', { accountType: 'RWF_ACCOUNT', phoneNumber: '+250781234567', provider: 'MTN', beneficiary: individual }, ['MOBILE_MONEY']],
  ['SGD', { accountType: 'SGD_ACCOUNT', accountNumber: '1234567890', swiftCode: 'DBSSSGSG', beneficiary: individual }, ['FAST', 'BANK_TRANSFER']],
  ['USD', { accountType: 'SLV_ACCOUNT', phoneNumber: '+50371234567', paymentRails: ['MOBILE_MONEY'], beneficiary: individual }, ['MOBILE_MONEY']],
  ['THB', { accountType: 'THB_ACCOUNT', bankName: 'Bangkok Bank', accountNumber: '1234567890', swiftCode: 'BKKBTHBK', beneficiary: individual }, ['BANK_TRANSFER']],
  ['TZS', { accountType: 'TZS_ACCOUNT', phoneNumber: '+255712345678', provider: 'Vodacom', beneficiary: individual }, ['MOBILE_MONEY']],
  ['UGX', { accountType: 'UGX_ACCOUNT', phoneNumber: '+256712345678', provider: 'MTN', beneficiary: individual }, ['MOBILE_MONEY']],
  ['USD', { accountType: 'USD_ACCOUNT', accountNumber: '000123456789', routingNumber: '021000021', bankAccountType: 'CHECKING', beneficiary: business }, ['ACH', 'WIRE']],
  ['VND', { accountType: 'VND_ACCOUNT', bankName: 'Vietcombank', accountNumber: '0123456789', swiftCode: 'BFTVVNVX', beneficiary: individual }, ['BANK_TRANSFER']],
  ['XAF', { accountType: 'XAF_ACCOUNT', phoneNumber: '+237671234567', provider: 'MTN', region: 'CM', beneficiary: individual }, ['MOBILE_MONEY']],
  ['XOF', { accountType: 'XOF_ACCOUNT', phoneNumber: '+221771234567', provider: 'Orange', region: 'SN', beneficiary: individual }, ['MOBILE_MONEY']],
  ['ZAR', { accountType: 'ZAR_ACCOUNT', accountNumber: '123456789', bankName: 'FNB', beneficiary: individual }, ['BANK_TRANSFER']],
  ['ZMW', { accountType: 'ZMW_ACCOUNT', phoneNumber: '+260971234567', provider: 'Airtel', beneficiary: individual }, ['MOBILE_MONEY']],
  ['CHF', { accountType: 'SWIFT_ACCOUNT', country: 'CH', swiftCode: 'UBSWCHZH80A', bankName: 'UBS', iban: ibanFor('CH', '0023323312345678A'), beneficiary: business }, ['SWIFT']],
  ['BTC', { accountType: 'SPARK_WALLET', address: 'spark1pgssyuuuhnrrdjswal5c3s3rafw9w3y5dd4cjy3duxlf7hjzkp0rqx6dj6mrhu' }, ['SPARK']],
  ['BTC', { accountType: 'LIGHTNING', lightningAddress: 'treasury.789@wallet.example.com' }, ['LIGHTNING']],
  ['USDC', { accountType: 'SOLANA_WALLET', address: '7EcDhSYGxXyscszYEp35KHN8vvw3svAuLKTzXwCFLtV', vaspName: 'Phantom' }, ['SOLANA']],
  ['USDC', { accountType: 'BASE_WALLET', address: EVM, beneficiary: { ...individual, countryOfResidence: 'FR' } }, ['BASE']],
  ['USDC', { accountType: 'POLYGON_WALLET', address: EVM, beneficiary: business }, ['POLYGON']],
  ['USDT', { accountType: 'ETHEREUM_WALLET', address: EVM }, ['ETHEREUM']],
  ['USDT', { accountType: 'PLASMA_WALLET', address: EVM }, ['PLASMA']],
  ['USDT', { accountType: 'TRON_WALLET', address: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t' }, ['TRON']],
];
