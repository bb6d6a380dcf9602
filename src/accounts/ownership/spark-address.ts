import { bech32Decode, fromWords } from '../../shared/bech32';

/**
 * The identity public key a Spark address carries; throws for anything else. A Spark address is
 * the bech32m encoding of a protobuf whose field 1 is that key (33 bytes, compressed secp256k1).
 */
export function sparkIdentityKey(address: string): Uint8Array {
  const decoded = bech32Decode(address, 'bech32m');
  const payload = decoded ? fromWords(decoded.words) : null;
  if (!payload || payload.length < 35 || payload[0] !== 0x0a || payload[1] !== 33) throw new Error('not a Spark address');
  return payload.subarray(2, 35);
}
