import { isIP } from 'node:net';
import { FieldError } from '../infra/domain/domain-error';

/**
 * A webhook endpoint is an absolute http(s) URL without credentials. Unless private targets are
 * allowed (`config.webhooks.allowPrivateTargets`: WEBHOOK_ALLOW_PRIVATE_TARGETS=true, or a sandbox
 * bound to loopback), loopback, private, link-local, shared and unspecified addresses and local
 * names are refused here, when the endpoint is set, and again at every send after DNS resolution
 * (`WebhookHttpClient`), so a platform cannot point our workers at our own network.
 */
export function checkWebhookEndpoint(value: string, allowPrivateTargets: boolean, field = 'webhookEndpoint'): FieldError | null {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return { field, constraint: { format: 'url' }, message: `${field} must be an absolute http or https URL` };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return { field, constraint: { format: 'url' }, message: `${field} must use http or https` };
  }
  if (url.username || url.password) {
    return { field, constraint: {}, message: `${field} must not carry credentials` };
  }
  if (!allowPrivateTargets && isInternalHost(url.hostname)) {
    return { field, constraint: {}, message: `${field} must not point at a loopback or private address` };
  }
  return null;
}

/**
 * A host name or address literal that is not a public internet address: local names, and every
 * IPv4/IPv6 range that is loopback, private, link-local, shared (CGNAT), unspecified, reserved,
 * multicast or benchmarking, including IPv4 addresses embedded in IPv6 (mapped, NAT64, 6to4).
 * The WHATWG URL parser has already normalised `2130706433`, `0x7f.1` and `[::ffff:127.0.0.1]`.
 */
export function isInternalHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').replace(/\.$/, '').toLowerCase();
  if (host === '' || host === 'localhost' || host.endsWith('.localhost') || host.endsWith('.internal') || host.endsWith('.local')) return true;
  const version = isIP(host);
  if (version === 4) return isInternalIpv4(host.split('.').map(Number));
  if (version === 6) return isInternalIpv6(host);
  return false;
}

function isInternalIpv4([a, b, c]: number[]): boolean {
  return (
    a === 0 || a === 10 || a === 127 || (a === 169 && b === 254) || (a === 172 && b >= 16 && b <= 31) ||
    (a === 192 && b === 168) || (a === 100 && b >= 64 && b <= 127) || (a === 192 && b === 0 && c === 0) ||
    (a === 198 && (b === 18 || b === 19)) || a >= 224
  );
}

function isInternalIpv6(host: string): boolean {
  const words = ipv6Words(host);
  if (!words) return true;
  if (words.slice(0, 7).every((word) => word === 0) && words[7] <= 1) return true; // :: and ::1
  const first = words[0];
  if ((first & 0xfe00) === 0xfc00) return true; // fc00::/7 unique local
  if ((first & 0xffc0) === 0xfe80 || (first & 0xffc0) === 0xfec0) return true; // link-local, site-local
  if ((first & 0xff00) === 0xff00) return true; // multicast
  const embedded = (high: number, low: number) => isInternalIpv4([high >> 8, high & 0xff, low >> 8, low & 0xff]);
  // ::ffff:a.b.c.d (mapped), ::a.b.c.d (compatible), 64:ff9b::a.b.c.d (NAT64).
  if (words.slice(0, 5).every((word) => word === 0) && (words[5] === 0xffff || words[5] === 0)) return embedded(words[6], words[7]);
  if (first === 0x64 && words[1] === 0xff9b && words.slice(2, 6).every((word) => word === 0)) return embedded(words[6], words[7]);
  if (first === 0x2002) return embedded(words[1], words[2]); // 6to4
  return false;
}

/** The eight 16-bit words of an IPv6 literal (a trailing dotted IPv4 part allowed), or null. */
function ipv6Words(host: string): number[] | null {
  let text = host.split('%')[0];
  const dotted = text.match(/(\d+)\.(\d+)\.(\d+)\.(\d+)$/);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number);
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.split('::');
  const parse = (part: string | undefined) => (part ? part.split(':').map((word) => parseInt(word, 16)) : []);
  const start = parse(head);
  const end = parse(tail);
  const missing = 8 - start.length - end.length;
  if (tail === undefined ? missing !== 0 : missing < 0) return null;
  const words = [...start, ...Array(Math.max(0, missing)).fill(0), ...end];
  return words.some((word) => Number.isNaN(word)) ? null : words;
}
