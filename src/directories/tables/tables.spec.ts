import { EXTERNAL_ACCOUNT_TYPES, checkIdentifiers, currenciesFor } from '../../accounts';
import { CRYPTO_NETWORKS, RAILS_BY_ACCOUNT_TYPE, isPricedCurrency, rateSnapshotAt, sendingBounds, supportedRails } from '../../quotes';
import { parseUmaAddress, resolveSandboxUmaReceiver } from '../../sandbox';
import { MAX_AMOUNT_MINOR, isCurrencyCode } from '../../shared/currencies';
import { DISCOVERIES } from './discoveries';
import { SANDBOX_UMA_PROVIDER_DOMAIN, UMA_PROVIDERS } from './uma-providers';
import { VASPS } from './vasps';
import { WITHDRAWAL_NETWORKS, destinationAddressError, networkCurrencies, networkFeeInAsset, networkFeeUsdCents } from './withdrawal-networks';

/** The sandbox tables agree with what quotes price and what accounts accept. */
describe('directory tables', () => {
  const snapshot = rateSnapshotAt(new Date('2026-01-15T12:00:00Z'));

  describe('discoveries', () => {
    it('lists each institution once, in country, currency, bankName order', () => {
      const keys = DISCOVERIES.map((entry) => `${entry.country}|${entry.currency}|${entry.bankName}`);
      expect(new Set(keys).size).toBe(keys.length);
      expect([...keys].sort()).toEqual(keys);
    });

    it('names only account types that take a bankName, that hold the corridor currency', () => {
      for (const entry of DISCOVERIES) {
        expect(EXTERNAL_ACCOUNT_TYPES).toContain(entry.accountType);
        const held = currenciesFor(entry.accountType);
        if (held !== null) expect(held).toContain(entry.currency);
        // A bankName the account type rejects shows up as an error on that very field.
        const { shapeErrors } = checkIdentifiers(entry.accountType, { bankName: entry.bankName });
        expect(shapeErrors.filter((error) => error.field === 'accountInfo.bankName')).toEqual([]);
        expect(shapeErrors.some((error) => error.message.startsWith('Unknown field accountInfo.bankName'))).toBe(false);
        expect(entry.country).toMatch(/^[A-Z]{2}$/);
      }
    });

    it('lists only corridors a quote can price, from USD, on the account type default rail', () => {
      for (const entry of DISCOVERIES) {
        expect(isPricedCurrency(entry.currency)).toBe(true);
        const rail = RAILS_BY_ACCOUNT_TYPE[entry.accountType].defaultRail;
        expect(supportedRails(entry.accountType)).toContain(rail);
        const bounds = sendingBounds({ snapshot, sendingCurrency: 'USD', receivingCurrency: entry.currency, rail });
        expect({ corridor: `${entry.country}/${entry.currency}`, priced: bounds !== null }).toEqual({ corridor: `${entry.country}/${entry.currency}`, priced: true });
      }
    });
  });

  describe('UMA providers', () => {
    it('are sorted by unique name, on well-formed UMA domains, in currencies UMA quotes pay', () => {
      const names = UMA_PROVIDERS.map((entry) => entry.name);
      expect([...names].sort()).toEqual(names);
      expect(new Set(names).size).toBe(names.length);
      for (const entry of UMA_PROVIDERS) {
        expect(parseUmaAddress(`$someone@${entry.domain}`)).not.toBeNull();
        expect(entry.supportedCurrencies.filter((code) => !isCurrencyCode(code))).toEqual([]);
        expect(entry.supportedRegions.every((region) => /^[A-Z]{2}$/.test(region))).toBe(true);
      }
    });

    it('lists the sandbox provider, whose test receivers answer in every currency it lists', () => {
      const sandbox = UMA_PROVIDERS.find((entry) => entry.domain === SANDBOX_UMA_PROVIDER_DOMAIN)!;
      expect(sandbox.allowListStatus).toBe(true);
      for (const code of sandbox.supportedCurrencies) {
        expect(resolveSandboxUmaReceiver(`$success.${code.toLowerCase()}@${sandbox.domain}`).currency).toBe(code);
      }
    });
  });

  it('lists VASPs once each, sorted, with a vaspName a wallet account takes', () => {
    const names = VASPS.map((entry) => entry.vaspName);
    expect(new Set(names).size).toBe(names.length);
    expect([...names].sort()).toEqual(names);
    for (const name of names) {
      const { shapeErrors } = checkIdentifiers('SOLANA_WALLET', { address: '4Nd1mBQtrMJVYVfKf2PJy9NZUZdTAsp7D4xWLs4gDB4T', vaspName: name });
      expect(shapeErrors).toEqual([]);
    }
  });

  describe('withdrawal networks', () => {
    it('are networks quotes accept, each the rail of its wallet type, carrying that type currencies', () => {
      for (const entry of WITHDRAWAL_NETWORKS) {
        expect(CRYPTO_NETWORKS).toContain(entry.network);
        expect(supportedRails(entry.walletType)).toEqual([entry.network]);
        expect(networkCurrencies(entry).length).toBeGreaterThan(0);
        for (const code of networkCurrencies(entry)) expect(isPricedCurrency(code)).toBe(true);
      }
    });

    it('cover every wallet type a quote pays to', () => {
      const walletTypes = EXTERNAL_ACCOUNT_TYPES.filter((type) => type.endsWith('_WALLET') || type === 'LIGHTNING');
      expect(WITHDRAWAL_NETWORKS.map((entry) => entry.walletType).sort()).toEqual([...walletTypes].sort());
    });

    it('show the fee schedule charge in the fee asset, exactly and within the amount bound', () => {
      const inAsset = Object.fromEntries(WITHDRAWAL_NETWORKS.map((entry) => [entry.network, [networkFeeUsdCents(entry), networkFeeInAsset(entry), entry.feeAsset.code]]));
      expect(inAsset).toEqual({
        SOLANA: [1, 50_000, 'SOL'],
        ETHEREUM: [100, 400_000_000_000_000, 'ETH'],
        BASE: [1, 4_000_000_000_000, 'ETH'],
        POLYGON: [1, 8_000_000_000_000_000, 'POL'],
        TRON: [50, 2_000_000, 'TRX'],
        PLASMA: [0, 0, 'XPL'],
        SPARK: [0, 0, 'BTC'],
        LIGHTNING: [0, 0, 'BTC'],
      });
      for (const entry of WITHDRAWAL_NETWORKS) expect(networkFeeInAsset(entry)).toBeLessThanOrEqual(MAX_AMOUNT_MINOR);
    });

    it('check destination addresses with the wallet types rules', () => {
      const byNetwork = Object.fromEntries(WITHDRAWAL_NETWORKS.map((entry) => [entry.network, entry]));
      expect(destinationAddressError(byNetwork.SOLANA, '4Nd1mBQtrMJVYVfKf2PJy9NZUZdTAsp7D4xWLs4gDB4T')).toBeNull();
      expect(destinationAddressError(byNetwork.ETHEREUM, `0x${'ab'.repeat(20)}`)).toBeNull();
      expect(destinationAddressError(byNetwork.LIGHTNING, 'alice@wallet.example')).toBeNull();
      expect(destinationAddressError(byNetwork.LIGHTNING, `lnbc1${'q'.repeat(40)}`)).toBeNull();
      expect(destinationAddressError(byNetwork.ETHEREUM, '4Nd1mBQtrMJVYVfKf2PJy9NZUZdTAsp7D4xWLs4gDB4T')).toEqual({
        field: 'destinationAddress', constraint: { format: 'evm-address', pattern: '^0x[0-9a-fA-F]{40}$' }, message: 'destinationAddress is not an address on ETHEREUM',
      });
      expect(destinationAddressError(byNetwork.LIGHTNING, 'not an invoice')?.constraint).toEqual({});
    });
  });
});
