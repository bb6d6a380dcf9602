import { isIP } from 'node:net';
import { FieldError } from '../infra/domain/domain-error';

/**
 * A webhook endpoint is an absolute http(s) URL. In production mode loopback, private,
 * link-local and unspecified addresses (and `localhost`) are refused, so a platform cannot point
 * our workers at our own network.
 */
export function checkWebhookEndpoint(value: string, mode: 'sandbox' | 'production', field = 'webhookEndpoint'): FieldError | null {
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
  if (mode === 'production' && isInternalHost(url.hostname)) {
    return { field, constraint: {}, message: `${field} must not point at a loopback or private address` };
  }
  return null;
}

export function isInternalHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (host === 'localhost' || host.endsWith('.localhost') || host.endsWith('.internal') || host.endsWith('.local')) return true;
  const version = isIP(host);
  if (version === 4) {
    const [a, b] = host.split('.').map(Number);
    return (
      a === 0 || a === 10 || a === 127 || (a === 169 && b === 254) || (a === 172 && b >= 16 && b <= 31) ||
      (a === 192 && b === 168) || (a === 100 && b >= 64 && b <= 127) || a >= 224
    );
  }
  if (version === 6) {
    if (host === '::1' || host === '::') return true;
    if (host.startsWith('fc') || host.startsWith('fd') || host.startsWith('fe80')) return true;
    const mapped = host.match(/^::ffff:(\d+\.\d+\.\d+\.\d+)$/);
    return mapped ? isInternalHost(mapped[1]) : false;
  }
  return false;
}
