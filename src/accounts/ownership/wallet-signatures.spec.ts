import { secp256k1 } from '@noble/curves/secp256k1';
import { TestWallet, evmWallet, solanaWallet, sparkWallet, tronWallet } from '../../../test/e2e/accounts/wallet-signers';
import { sparkIdentityKey } from './spark-address';
import { verifyOwnershipSignature } from './wallet-signatures';

const MESSAGE = 'Payments service: wallet ownership verification\nNonce: 0199a000-0000-7000-8000-000000000001';

const chains: Array<[string, () => TestWallet]> = [
  ['ETHEREUM_WALLET', evmWallet],
  ['BASE_WALLET', evmWallet],
  ['POLYGON_WALLET', evmWallet],
  ['PLASMA_WALLET', evmWallet],
  ['TRON_WALLET', tronWallet],
  ['SOLANA_WALLET', solanaWallet],
  ['SPARK_WALLET', sparkWallet],
];

describe('wallet ownership signatures (real keys)', () => {
  it.each(chains)('%s: the wallet\'s own signature verifies; another key, another message or a mangled signature does not', (accountType, make) => {
    const wallet = make();
    const other = make();
    const check = (signature: string, message = MESSAGE, address = wallet.address) => verifyOwnershipSignature({ accountType, address, message, signature });
    const signature = wallet.sign(MESSAGE);
    expect(check(signature)).toBe(true);
    expect(check(other.sign(MESSAGE))).toBe(false);
    expect(check(signature, `${MESSAGE}.`)).toBe(false);
    expect(check(signature, MESSAGE, other.address)).toBe(false);
    expect(check('')).toBe(false);
    expect(check('not a signature')).toBe(false);
    expect(check(`${signature.slice(0, -4)}AAAA`)).toBe(false);
  });

  it.each(chains.filter(([type]) => type !== 'SOLANA_WALLET'))('%s: a high-S ECDSA signature is accepted', (accountType, make) => {
    const wallet = make();
    expect(verifyOwnershipSignature({ accountType, address: wallet.address, message: MESSAGE, signature: wallet.sign(MESSAGE, { highS: true }) })).toBe(true);
  });

  it('EVM: the address is compared whatever its case; v may be 0/1 and the 0x prefix is optional', () => {
    const wallet = evmWallet();
    const signature = wallet.sign(MESSAGE);
    const v = parseInt(signature.slice(-2), 16) - 27;
    const alternatives = [signature.slice(2), `${signature.slice(0, -2)}0${v}`];
    for (const address of [wallet.address, wallet.address.toLowerCase(), `0x${wallet.address.slice(2).toUpperCase()}`]) {
      for (const candidate of [signature, ...alternatives]) expect(verifyOwnershipSignature({ accountType: 'BASE_WALLET', address, message: MESSAGE, signature: candidate })).toBe(true);
    }
  });

  it('EVM: a published vector (ethers\' hashMessage("Hello World") and the key 0x0123...0123\'s address)', () => {
    const privateKey = Buffer.from('0123456789012345678901234567890123456789012345678901234567890123', 'hex');
    const hash = Buffer.from('a1de988600a42c4b4ab089b619297c17d53cffae5d5120d82d8a92d0bb3b78f2', 'hex');
    const signature = secp256k1.sign(hash, privateKey);
    const hex = `0x${signature.toCompactHex()}${(27 + signature.recovery).toString(16)}`;
    const address = '0x14791697260E4c9A71f18484C9f997B308e59325';
    expect(verifyOwnershipSignature({ accountType: 'ETHEREUM_WALLET', address, message: 'Hello World', signature: hex })).toBe(true);
  });

  it('Spark: BIP-137 accepts the segwit headers, Electrum only the P2PKH ones', () => {
    const wallet = sparkWallet();
    const segwit = wallet.sign(MESSAGE, { header: 'p2wpkh' });
    const plain = wallet.sign(MESSAGE);
    const check = (signature: string, signatureScheme?: 'bip137' | 'electrum') =>
      verifyOwnershipSignature({ accountType: 'SPARK_WALLET', address: wallet.address, message: MESSAGE, signature, signatureScheme });
    expect([check(segwit), check(segwit, 'bip137'), check(segwit, 'electrum')]).toEqual([true, true, false]);
    expect([check(plain), check(plain, 'electrum')]).toEqual([true, true]);
  });

  it('Spark addresses carry the identity key; anything else is refused', () => {
    const wallet = sparkWallet();
    expect(sparkIdentityKey(wallet.address)).toHaveLength(33);
    expect(() => sparkIdentityKey(`${wallet.address.slice(0, -1)}q`)).toThrow();
    expect(() => sparkIdentityKey('sparkrt1qqqqqq')).toThrow();
  });

  it('a wallet type without a signing format never verifies', () => {
    const wallet = evmWallet();
    expect(verifyOwnershipSignature({ accountType: 'LIGHTNING', address: wallet.address, message: MESSAGE, signature: wallet.sign(MESSAGE) })).toBe(false);
  });
});
