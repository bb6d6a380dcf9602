import { secp256k1 } from '@noble/curves/secp256k1';
import { crc16Ccitt, isValidPixCopyPaste, pixCopyPaste } from './pix';
import { abaRoutingNumber, clabe, iban, isValidAbaRoutingNumber, isValidClabe, isValidIban } from './bank-identifiers';
import { base58CheckDecode, base58Decode, base58Encode } from './base58';
import { bech32Decode, bech32Encode, fromWords, toWords } from '../../../shared/bech32';
import { encodeInvoice, parseInvoice } from './bolt11';
import { WalletNetwork, depositAddress, isLightningAddress, isValidAddress, secp256k1PublicKey, sparkAddress } from './crypto-addresses';

const SPEC_DONATION =
  'lnbc1pvjluezsp5zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zygspp5qqqsyqcyq5rqwzqfqqqsyqcyq5rqwzqfqqqsyqcyq5rqwzqfqypqdpl2pkx2ctnv5sxxmmwwd5kgetjypeh2ursdae8g6twvus8g6rfwvs8qun0dfjkxaq9qrsgq357wnc5r2ueh7ck6q93dj32dlqnls087fxdwk8qakdyafkq3yap9us6v52vjjsrvywa6rt52cm9r9zqt8r2t7mlcwspyetp5h2tztugp9lfyql';
const SPEC_COFFEE =
  'lnbc2500u1pvjluezsp5zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zygspp5qqqsyqcyq5rqwzqfqqqsyqcyq5rqwzqfqqqsyqcyq5rqwzqfqypqdq5xysxxatsyp3k7enxv4jsxqzpu9qrsgquk0rl77nj30yxdy8j9vdx85fkpmdla2087ne0xh8nhedh8w27kyke0lp53ut353s06fv3qfegext0eh0ymjpf39tuven09sam30g4vgpfna3rh';
const SPEC_PAYEE = '03e7156ae33b0a208d0744199163177e909e80176e55d97a2f221ede0f934dd9ad';

describe('bank identifiers', () => {
  it('checks ABA routing numbers and builds valid ones', () => {
    expect(isValidAbaRoutingNumber('021000021')).toBe(true);
    expect(isValidAbaRoutingNumber('011000015')).toBe(true);
    expect(isValidAbaRoutingNumber('021000022')).toBe(false);
    expect(isValidAbaRoutingNumber('123456789')).toBe(false);
    expect(isValidAbaRoutingNumber('02100002')).toBe(false);
    expect(abaRoutingNumber('02100002')).toBe('021000021');
    expect(isValidAbaRoutingNumber(abaRoutingNumber('09100001'))).toBe(true);
  });

  it('checks IBANs by mod 97 and builds valid ones', () => {
    expect(isValidIban('DE89370400440532013000')).toBe(true);
    expect(isValidIban('GB82 WEST 1234 5698 7654 32')).toBe(true);
    expect(isValidIban('DE89370400440532013001')).toBe(false);
    expect(isValidIban('DE8937040044053201300')).toBe(false);
    expect(iban('DE', '370400440532013000')).toBe('DE89370400440532013000');
  });

  it('checks CLABEs and builds valid ones', () => {
    expect(isValidClabe('032180000118359719')).toBe(true);
    expect(isValidClabe('032180000118359718')).toBe(false);
    expect(clabe('03218000011835971')).toBe('032180000118359719');
  });
});

describe('encodings', () => {
  it('accepts the BIP-173 and BIP-350 test vectors and refuses tampered text', () => {
    expect(bech32Decode('A12UEL5L', 'bech32')).toEqual({ prefix: 'a', words: [] });
    expect(bech32Decode('abcdef1qpzry9x8gf2tvdw0s3jn54khce6mua7lmqqqxw', 'bech32')?.prefix).toBe('abcdef');
    expect(bech32Decode('A1LQFN3A', 'bech32m')).toEqual({ prefix: 'a', words: [] });
    expect(bech32Decode('abcdef1l7aum6echk45nj3s0wdvt2fg8x9yrzpqzd3ryx', 'bech32m')?.prefix).toBe('abcdef');
    expect(bech32Decode('A1LQFN3A', 'bech32')).toBeNull();
    expect(bech32Decode('abcdef1qpzry9x8gf2tvdw0s3jn54khce6mua7lmqqqxx', 'bech32')).toBeNull();
    const words = toWords(Uint8Array.from([1, 2, 3, 250]));
    expect(Array.from(fromWords(bech32Decode(bech32Encode('test', words, 'bech32m'), 'bech32m')!.words)!)).toEqual([1, 2, 3, 250]);
  });

  it('round-trips base58 with leading zeros and checks base58check', () => {
    const bytes = Uint8Array.from([0, 0, 1, 2, 255]);
    expect(Array.from(base58Decode(base58Encode(bytes))!)).toEqual(Array.from(bytes));
    expect(base58CheckDecode('1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2')?.length).toBe(21);
    expect(base58CheckDecode('1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN3')).toBeNull();
  });
});

describe('wallet addresses', () => {
  it('accepts real addresses of each network and refuses malformed ones', () => {
    const valid: Array<[WalletNetwork, string]> = [
      ['SOLANA', 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v'],
      ['ETHEREUM', '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48'],
      ['BASE', '0x833589fcd6edb6e08f4c7c32d4f71b54bda02913'],
      ['TRON', 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t'],
      ['BITCOIN', 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq'],
      ['BITCOIN', '1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2'],
      ['BITCOIN', '3J98t1WpEZ73CNmQviecrnyiWrnqRhWNLy'],
    ];
    for (const [network, address] of valid) expect([network, isValidAddress(network, address)]).toEqual([network, true]);
    const invalid: Array<[WalletNetwork, string]> = [
      ['SOLANA', '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48'],
      ['ETHEREUM', 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v'],
      ['POLYGON', '0x1234'],
      ['TRON', 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6u'],
      ['BITCOIN', 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdp'],
      ['SPARK', 'sparkrt1qqqq'],
    ];
    for (const [network, address] of invalid) expect([network, address, isValidAddress(network, address)]).toEqual([network, address, false]);
    expect(isLightningAddress('alice.002@example.com')).toBe(true);
    expect(isLightningAddress('alice@localhost')).toBe(false);
  });

  it('derives deposit addresses that validate on their network, the same for the same seed', () => {
    const seed = Uint8Array.from({ length: 32 }, (_, index) => index);
    const other = Uint8Array.from({ length: 32 }, (_, index) => 255 - index);
    for (const network of ['SOLANA', 'ETHEREUM', 'BASE', 'POLYGON', 'PLASMA', 'TRON', 'BITCOIN', 'SPARK'] as const) {
      const address = depositAddress(network, seed);
      expect([network, address, isValidAddress(network, address)]).toEqual([network, address, true]);
      expect(depositAddress(network, seed)).toBe(address);
      expect(depositAddress(network, other)).not.toBe(address);
    }
    expect(sparkAddress(secp256k1PublicKey(seed))).toMatch(/^sparkrt1[02-9ac-hj-np-z]+$/);
  });
});

describe('BOLT 11 invoices', () => {
  it('decodes the specification examples and recovers their payee', () => {
    const donation = parseInvoice(SPEC_DONATION)!;
    expect(donation).toMatchObject({
      network: 'bitcoin', amountMsat: null, timestampSeconds: 1496314658, description: 'Please consider supporting this project',
      paymentHashHex: '0001020304050607080900010203040506070809000102030405060708090102', payeeNodeKeyHex: SPEC_PAYEE,
    });
    const coffee = parseInvoice(SPEC_COFFEE)!;
    expect(coffee).toMatchObject({ amountMsat: 250_000_000n, description: '1 cup coffee', expirySeconds: 60, payeeNodeKeyHex: SPEC_PAYEE });
    expect(parseInvoice(SPEC_COFFEE.slice(0, -1) + 'q')).toBeNull();
  });

  it('encodes signed invoices that decode to the same amount, hash, expiry and node', () => {
    const nodePrivateKey = Uint8Array.from({ length: 32 }, (_, index) => index + 1);
    const paymentHash = Uint8Array.from({ length: 32 }, (_, index) => index * 3);
    for (const amountSats of [1n, 1234n, 100_000n, 250_000n, 2_100_000_000_000_000n, null]) {
      const invoice = encodeInvoice({
        network: 'regtest', amountSats, paymentHash, paymentSecret: paymentHash.map((byte) => byte ^ 0xff), description: 'Funding for Quote:x',
        timestampSeconds: 1_760_356_800, expirySeconds: 300, nodePrivateKey,
      });
      expect(invoice.startsWith('lnbcrt')).toBe(true);
      expect(parseInvoice(invoice)).toEqual({
        network: 'regtest', amountMsat: amountSats === null ? null : amountSats * 1000n, timestampSeconds: 1_760_356_800,
        paymentHashHex: Buffer.from(paymentHash).toString('hex'), description: 'Funding for Quote:x', expirySeconds: 300,
        payeeNodeKeyHex: Buffer.from(secp256k1.getPublicKey(nodePrivateKey, true)).toString('hex'),
      });
    }
  });
});

describe('PIX copy-and-paste payloads', () => {
  it('ends with the CRC-16/CCITT-FALSE of the rest (check value of "123456789" is 29B1)', () => {
    expect(crc16Ccitt('123456789')).toBe('29B1');
    const payload = pixCopyPaste({ pixKey: 'jane@example.com', amount: '10.50', merchantName: 'Sandbox Settlement Bank', merchantCity: 'SAO PAULO', txid: 'QT-ABC123' });
    expect(payload).toBe(
      `00020126380014br.gov.bcb.pix0116jane@example.com520400005303986540510.505802BR5923Sandbox Settlement Bank6009SAO PAULO62120508QTABC1236304${crc16Ccitt(payload.slice(0, -4))}`,
    );
    expect(isValidPixCopyPaste(payload)).toBe(true);
    expect(isValidPixCopyPaste(`${payload.slice(0, -1)}0`)).toBe(payload.endsWith('0'));
  });
});
