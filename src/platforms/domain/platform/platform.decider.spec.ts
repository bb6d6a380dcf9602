import { deciderSpec } from '../../../../test/support/decider-spec';
import { feeConfigFromWire, feeConfigToWire, upsertFeeConfigs } from './fee-configs';
import { DEFAULT_SANDBOX_CONFIG, PlatformCommand, platformDecider } from './platform.decider';
import { PlatformEvent } from './platform.events';

const NOW = '2025-10-13T12:00:00.000Z';
const registered: PlatformEvent = {
  type: 'PlatformRegistered',
  data: { platformId: 'Platform:p', name: 'P', config: DEFAULT_SANDBOX_CONFIG, registeredAt: NOW },
};
// Written before issue 20: fee entries without a type, full replacement of the list.
const legacyFeeUpdate: PlatformEvent = {
  type: 'PlatformConfigUpdated',
  data: { platformId: 'Platform:p', changes: { feeConfigs: [{ currencyCode: 'USD', fixedFee: 25, variableFeeRate: 0.001 }] }, updatedAt: NOW },
};

const spec = deciderSpec(platformDecider);
const update = (patch: Extract<PlatformCommand, { type: 'UpdatePlatformConfig' }>['patch']): PlatformCommand => ({ type: 'UpdatePlatformConfig', patch, now: NOW });
const usd = (variableFeeRate: number, fixedFee: number) => ({ currencyCode: 'USD', fixedFee, variableFeeRate, feeType: 'CROSS_CURRENCY_TRANSACTION' as const });

describe('platform decider', () => {
  it('upserts fee configs on top of entries stored without a fee type, and drops one set to zero', () => {
    const legacy = spec.given([registered, legacyFeeUpdate]);
    legacy.when(update({ feeConfigs: [usd(0.003, 50)] })).then([
      { type: 'PlatformConfigUpdated', data: { platformId: 'Platform:p', changes: { feeConfigs: [usd(0.003, 50)] }, updatedAt: NOW } },
    ]);
    expect(legacy.when(update({ feeConfigs: [usd(0, 0)] })).events[0].data).toMatchObject({ changes: { feeConfigs: [] } });
    legacy.when(update({ feeConfigs: [] })).then([]);
  });

  it('refuses fee configs for a source currency other than USD: NOT_IMPLEMENTED', () => {
    spec.given([registered]).when(update({ feeConfigs: [{ ...usd(0.001, 0), currencyCode: 'EUR' }] })).thenError('NOT_IMPLEMENTED');
  });

  it('merges embeddedWalletConfig and cardTokenization2faConfig; records only what changed', () => {
    const [event] = spec.given([registered]).when(update({ embeddedWalletConfig: { appName: 'Wallet', rpId: undefined }, cardTokenization2faConfig: { email: { subject: 'S' } } })).events;
    expect(event.data).toMatchObject({
      changes: {
        embeddedWalletConfig: { ...DEFAULT_SANDBOX_CONFIG.embeddedWalletConfig, appName: 'Wallet' },
        cardTokenization2faConfig: { email: { subject: 'S' } },
      },
    });
    const next = spec.given([registered, event]);
    const [second] = next.when(update({ cardTokenization2faConfig: { displayName: 'D', email: { fromName: 'F' } } })).events;
    expect(second.data).toMatchObject({ changes: { cardTokenization2faConfig: { displayName: 'D', email: { subject: 'S', fromName: 'F' } } } });
    next.when(update({ embeddedWalletConfig: { appName: 'Wallet' }, webhookEndpoint: null })).then([]);
  });
});

describe('fee config wire mapping', () => {
  it('maps basis points and the fixed fee object both ways', () => {
    const wire = { feeType: 'CROSS_CURRENCY_TRANSACTION' as const, sourceCurrency: 'USD', variableFeeBps: 30, fixedFee: { amount: 100, currency: 'USD' } };
    expect(feeConfigFromWire(wire)).toEqual(usd(0.003, 100));
    expect(feeConfigToWire(feeConfigFromWire(wire))).toEqual(wire);
    const drifted: number[] = [];
    for (let bps = 0; bps <= 10_000; bps += 1) {
      const stored = feeConfigFromWire({ ...wire, variableFeeBps: bps });
      // Back to the same bps, and the rate prints as the exact decimal pricing parses.
      if (feeConfigToWire(stored).variableFeeBps !== bps || String(stored.variableFeeRate) !== (bps / 10_000).toFixed(4).replace(/\.?0+$/, '')) drifted.push(bps);
    }
    expect(drifted).toEqual([]);
    expect(feeConfigToWire({ currencyCode: 'USD', fixedFee: 0, variableFeeRate: 0.0025 })).toEqual({ ...wire, variableFeeBps: 25, fixedFee: { amount: 0, currency: 'USD' } });
  });

  it('keeps unnamed entries in their order and appends new keys', () => {
    const eur = { currencyCode: 'EUR', fixedFee: 1, variableFeeRate: 0 };
    expect(upsertFeeConfigs([eur, usd(0.001, 0)], [usd(0.002, 0)])).toEqual([eur, usd(0.002, 0)]);
    expect(upsertFeeConfigs([usd(0.001, 0)], [{ ...eur, feeType: 'CROSS_CURRENCY_TRANSACTION' }])).toEqual([usd(0.001, 0), { ...eur, feeType: 'CROSS_CURRENCY_TRANSACTION' }]);
  });
});
