import { generateClientKeyPair, stampPayload } from '../../test/support/wallet-client';
import { verifyWalletSignatureHeader } from '../wallet-auth';
import { buildPayloadToSign, buildQuoteExecutionPayload, QuoteExecutionPayloadInput, WALLET_ACTIVITY_TYPES } from './wallet-payloads';

const QUOTE: QuoteExecutionPayloadInput = {
  walletAccountId: 'InternalAccount:0195f0a8-0000-7000-8000-000000000001',
  quoteId: 'Quote:0195f0a8-0000-7000-8000-000000000002',
  totalSendingAmount: 1_000_000,
  sendingCurrency: 'USDB',
  totalReceivingAmount: 91_50,
  receivingCurrency: 'EUR',
  destination: { destinationType: 'ACCOUNT', accountId: 'ExternalAccount:0195f0a8-0000-7000-8000-000000000003', paymentRail: 'SEPA_INSTANT' },
  quoteCreatedAtMs: 1_775_681_700_000,
};

describe('payloadToSign', () => {
  it('is the four keys in order, canonical parameters, timestampMs as a string', () => {
    const payload = buildPayloadToSign({
      type: WALLET_ACTIVITY_TYPES.DELETE_CREDENTIAL,
      timestampMs: 1_775_681_700_000,
      parameters: { credentialId: 'AuthMethod:1', accountId: 'InternalAccount:1', nested: { z: 1, a: [true, null] } },
      organizationId: 'InternalAccount:1',
    });
    expect(payload).toBe(
      '{"organizationId":"InternalAccount:1","parameters":{"accountId":"InternalAccount:1","credentialId":"AuthMethod:1","nested":{"a":[true,null],"z":1}},' +
        '"timestampMs":"1775681700000","type":"ACTIVITY_TYPE_DELETE_AUTH_CREDENTIAL"}',
    );
  });

  it('refuses an empty organization and a non-integer timestamp', () => {
    const base = { organizationId: 'InternalAccount:1', type: WALLET_ACTIVITY_TYPES.EXPORT_WALLET, parameters: {}, timestampMs: 1 };
    expect(() => buildPayloadToSign({ ...base, organizationId: '' })).toThrow();
    expect(() => buildPayloadToSign({ ...base, timestampMs: 1.5 })).toThrow();
  });
});

describe('quote execution payload', () => {
  it('is a pure function of the quote and binds id, amounts, currencies and destination', () => {
    const payload = buildQuoteExecutionPayload(QUOTE);
    expect(buildQuoteExecutionPayload({ ...QUOTE, destination: { paymentRail: 'SEPA_INSTANT', accountId: QUOTE.destination.accountId, destinationType: 'ACCOUNT' } })).toBe(payload);
    expect(JSON.parse(payload)).toEqual({
      organizationId: QUOTE.walletAccountId,
      parameters: {
        quoteId: QUOTE.quoteId,
        sourceAccountId: QUOTE.walletAccountId,
        totalSendingAmount: 1_000_000,
        sendingCurrency: 'USDB',
        totalReceivingAmount: 9150,
        receivingCurrency: 'EUR',
        destination: QUOTE.destination,
      },
      timestampMs: '1775681700000',
      type: 'ACTIVITY_TYPE_EXECUTE_QUOTE',
    });
    const changes: Array<Partial<QuoteExecutionPayloadInput>> = [
      { quoteId: 'Quote:other' },
      { totalSendingAmount: 1_000_001 },
      { totalReceivingAmount: 9151 },
      { sendingCurrency: 'USDC' },
      { receivingCurrency: 'GBP' },
      { destination: { ...QUOTE.destination, accountId: 'ExternalAccount:other' } },
      { walletAccountId: 'InternalAccount:other' },
    ];
    for (const change of changes) expect(buildQuoteExecutionPayload({ ...QUOTE, ...change })).not.toBe(payload);
  });

  it('refuses amounts that are not positive integers', () => {
    for (const amount of [0, -1, 1.5, Number.MAX_SAFE_INTEGER + 1]) {
      expect(() => buildQuoteExecutionPayload({ ...QUOTE, totalSendingAmount: amount })).toThrow();
      expect(() => buildQuoteExecutionPayload({ ...QUOTE, totalReceivingAmount: amount })).toThrow();
    }
  });

  it('is stamped by the client library and verified byte for byte', async () => {
    const session = generateClientKeyPair();
    const payload = buildQuoteExecutionPayload(QUOTE);
    const stamp = await stampPayload(payload, session);
    expect(verifyWalletSignatureHeader(stamp, payload, { sandbox: false })).toMatchObject({ ok: true, publicKeyCompressedHex: session.publicKey });
    const otherQuote = buildQuoteExecutionPayload({ ...QUOTE, totalReceivingAmount: 9151 });
    expect(verifyWalletSignatureHeader(stamp, otherQuote, { sandbox: false })).toMatchObject({ ok: false, code: 'WALLET_SIGNATURE_INVALID' });
  });
});
