import { projectionSpec, ProjectionSpec } from '../../test/support/projection-spec';
import { DEFAULT_SANDBOX_CONFIG } from '../../src/platforms';
import { platformConfigProjection } from './platform-config.projection';

const PLATFORM = 'Platform:0199a000-0000-7000-8000-0000000000f1';
const OTHER_PLATFORM = 'Platform:0199a000-0000-7000-8000-0000000000f2';
const REGISTERED_AT = '2025-10-13T12:00:00.000Z';
const UPDATED_AT = '2025-10-13T13:00:00.000Z';

const registered = (platformId: string, name: string, config: object = DEFAULT_SANDBOX_CONFIG, registeredAt = REGISTERED_AT) => ({
  stream: `platform-${platformId}`,
  type: 'PlatformRegistered',
  data: { platformId, name, config, registeredAt },
});
const updated = (platformId: string, changes: object, updatedAt = UPDATED_AT) => ({
  stream: `platform-${platformId}`,
  type: 'PlatformConfigUpdated',
  data: { platformId, changes, updatedAt },
});

const COLUMNS = `platform_id, name, webhook_endpoint, supported_currencies, fee_configs, embedded_wallet_config, uma_domain,
  card_tokenization_2fa_config, created_at, updated_at`;

const usdFee = { currencyCode: 'USD', fixedFee: 50, variableFeeRate: 0.003, feeType: 'CROSS_CURRENCY_TRANSACTION' };
const tokenization = { displayName: 'Bank', email: { subject: 'Your code' } };

describe('platform-config projection', () => {
  let spec: ProjectionSpec;
  beforeEach(async () => {
    spec = await projectionSpec(platformConfigProjection);
  });
  afterEach(async () => {
    await spec.close();
  });

  it('a registered platform is one row with its configuration; absent optional fields are null', async () => {
    await spec.given([registered(PLATFORM, 'Acme')]);
    expect(await spec.rows(`SELECT ${COLUMNS} FROM platform_configs`)).toEqual([
      {
        platform_id: PLATFORM,
        name: 'Acme',
        webhook_endpoint: null,
        supported_currencies: DEFAULT_SANDBOX_CONFIG.supportedCurrencies,
        fee_configs: [],
        embedded_wallet_config: { rpId: 'localhost', allowedOrigins: ['http://localhost:3000'] },
        uma_domain: null,
        card_tokenization_2fa_config: null,
        created_at: new Date(REGISTERED_AT),
        updated_at: new Date(REGISTERED_AT),
      },
    ]);
  });

  it('registration with every optional field set stores them', async () => {
    const config = {
      ...DEFAULT_SANDBOX_CONFIG,
      webhookEndpoint: 'https://acme.example/webhooks',
      feeConfigs: [usdFee],
      umaDomain: 'pay.acme.example',
      cardTokenization2faConfig: tokenization,
    };
    await spec.given([registered(PLATFORM, 'Acme', config)]);
    expect(await spec.rows('SELECT webhook_endpoint, fee_configs, uma_domain, card_tokenization_2fa_config FROM platform_configs')).toEqual([
      { webhook_endpoint: 'https://acme.example/webhooks', fee_configs: [usdFee], uma_domain: 'pay.acme.example', card_tokenization_2fa_config: tokenization },
    ]);
  });

  it('an update replaces only the fields it names, and moves updated_at (created_at stays)', async () => {
    const currencies = [{ currencyCode: 'EUR', minAmount: 1, maxAmount: 100, requiredCounterpartyFields: ['FULL_NAME'] }];
    const wallet = { ...DEFAULT_SANDBOX_CONFIG.embeddedWalletConfig, appName: 'Wallet' };
    await spec.given([
      registered(PLATFORM, 'Acme'),
      updated(PLATFORM, {
        webhookEndpoint: 'https://acme.example/hooks',
        umaDomain: 'pay.acme.example',
        supportedCurrencies: currencies,
        feeConfigs: [usdFee],
        embeddedWalletConfig: wallet,
        cardTokenization2faConfig: tokenization,
      }),
      updated(PLATFORM, { feeConfigs: [] }, '2025-10-13T14:00:00.000Z'),
    ]);
    expect(await spec.rows(`SELECT ${COLUMNS} FROM platform_configs`)).toEqual([
      {
        platform_id: PLATFORM,
        name: 'Acme',
        webhook_endpoint: 'https://acme.example/hooks',
        supported_currencies: currencies,
        fee_configs: [],
        embedded_wallet_config: wallet,
        uma_domain: 'pay.acme.example',
        card_tokenization_2fa_config: tokenization,
        created_at: new Date(REGISTERED_AT),
        updated_at: new Date('2025-10-13T14:00:00.000Z'),
      },
    ]);
  });

  it('an update to null clears the webhook endpoint', async () => {
    await spec.given([
      registered(PLATFORM, 'Acme', { ...DEFAULT_SANDBOX_CONFIG, webhookEndpoint: 'https://acme.example/hooks' }),
      updated(PLATFORM, { webhookEndpoint: null }),
    ]);
    expect(await spec.rows('SELECT webhook_endpoint, updated_at FROM platform_configs')).toEqual([
      { webhook_endpoint: null, updated_at: new Date(UPDATED_AT) },
    ]);
  });

  it('a second registration of the same platform changes nothing', async () => {
    await spec.given([registered(PLATFORM, 'Acme'), registered(PLATFORM, 'Renamed', { ...DEFAULT_SANDBOX_CONFIG, umaDomain: 'x.example' }, UPDATED_AT)]);
    expect(await spec.rows('SELECT name, uma_domain, created_at, updated_at FROM platform_configs')).toEqual([
      { name: 'Acme', uma_domain: null, created_at: new Date(REGISTERED_AT), updated_at: new Date(REGISTERED_AT) },
    ]);
  });

  it('an update touches only its own platform; one for an unregistered platform writes no row', async () => {
    await spec.given([
      registered(PLATFORM, 'Acme'),
      registered(OTHER_PLATFORM, 'Other'),
      updated(OTHER_PLATFORM, { umaDomain: 'other.example' }),
      updated('Platform:0199a000-0000-7000-8000-0000000000ff', { umaDomain: 'ghost.example' }),
    ]);
    expect(await spec.rows('SELECT platform_id, name, uma_domain, updated_at FROM platform_configs ORDER BY platform_id')).toEqual([
      { platform_id: PLATFORM, name: 'Acme', uma_domain: null, updated_at: new Date(REGISTERED_AT) },
      { platform_id: OTHER_PLATFORM, name: 'Other', uma_domain: 'other.example', updated_at: new Date(UPDATED_AT) },
    ]);
  });
});
