/**
 * PIX "copia e cola" payloads (the Central Bank of Brazil's BR Code, an EMV merchant-presented QR
 * payload): what a Brazilian payer pastes into a banking app, or scans as a QR code. Payment
 * instructions carry it as `qrCode` (the reference's BRL funding shape has no key or account).
 */
export interface PixPayload {
  pixKey: string;
  /** Major units, e.g. `100.50`; omitted: the payer types the amount. */
  amount?: string;
  merchantName: string;
  merchantCity: string;
  /** The payment's identifier at the receiver (alphanumeric, up to 25 characters). */
  txid: string;
}

const PIX_GUI = 'br.gov.bcb.pix';
const BRL_NUMERIC_CODE = '986';

/** One EMV TLV field: two-digit id, two-digit length, value. */
function tlv(id: string, value: string): string {
  if (value.length > 99) throw new Error(`EMV field ${id} is longer than 99 characters`);
  return `${id}${String(value.length).padStart(2, '0')}${value}`;
}

/** CRC-16/CCITT-FALSE (poly 0x1021, initial 0xFFFF), the checksum EMV QR payloads end with. */
export function crc16Ccitt(text: string): string {
  let crc = 0xffff;
  for (const byte of Buffer.from(text, 'utf8')) {
    crc ^= byte << 8;
    for (let bit = 0; bit < 8; bit += 1) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
  }
  return crc.toString(16).toUpperCase().padStart(4, '0');
}

export function pixCopyPaste(payload: PixPayload): string {
  const txid = payload.txid.replace(/[^A-Za-z0-9]/g, '').slice(0, 25) || '***';
  const body = [
    tlv('00', '01'),
    tlv('26', tlv('00', PIX_GUI) + tlv('01', payload.pixKey)),
    tlv('52', '0000'),
    tlv('53', BRL_NUMERIC_CODE),
    ...(payload.amount !== undefined ? [tlv('54', payload.amount)] : []),
    tlv('58', 'BR'),
    tlv('59', payload.merchantName.slice(0, 25)),
    tlv('60', payload.merchantCity.slice(0, 15)),
    tlv('62', tlv('05', txid)),
  ].join('');
  const withCrcHeader = `${body}6304`;
  return `${withCrcHeader}${crc16Ccitt(withCrcHeader)}`;
}

/** Whether `text` is a well-formed BR Code whose CRC matches. */
export function isValidPixCopyPaste(text: string): boolean {
  if (!/^000201/.test(text) || text.length < 8) return false;
  const crc = text.slice(-4);
  return text.slice(-8, -4) === '6304' && crc16Ccitt(text.slice(0, -4)) === crc;
}
