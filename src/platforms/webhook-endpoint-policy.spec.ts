import { checkWebhookEndpoint, isInternalHost } from './webhook-endpoint-policy';

/** Host names as the WHATWG URL parser hands them over (it normalises numeric IPv4 and IPv6 forms). */
const hostOf = (url: string) => new URL(url).hostname;

describe('webhook endpoint policy', () => {
  it.each([
    'http://127.0.0.1/', 'http://2130706433/', 'http://0x7f.1/', 'http://localhost./', 'http://api.localhost/',
    'http://10.0.0.8/', 'http://172.16.0.1/', 'http://192.168.1.1/', 'http://169.254.169.254/', 'http://100.64.0.1/',
    'http://0.0.0.0/', 'http://224.0.0.1/', 'http://198.18.0.1/', 'http://metadata.google.internal/',
    'http://[::1]/', 'http://[::]/', 'http://[::ffff:127.0.0.1]/', 'http://[::ffff:a9fe:a9fe]/', 'http://[fe80::1]/',
    'http://[fd00::1]/', 'http://[ff02::1]/', 'http://[64:ff9b::10.0.0.1]/', 'http://[2002:a00:1::]/',
  ])('%s is internal', (url) => {
    expect(isInternalHost(hostOf(url))).toBe(true);
  });

  it.each(['https://hooks.example.com/x', 'http://8.8.8.8/', 'http://[2606:4700::1111]/', 'http://[::ffff:8.8.8.8]/', 'http://172.32.0.1/'])(
    '%s is public',
    (url) => {
      expect(isInternalHost(hostOf(url))).toBe(false);
    },
  );

  it('refuses internal endpoints unless private targets are allowed', () => {
    const refused = { field: 'webhookEndpoint', constraint: {}, message: 'webhookEndpoint must not point at a loopback or private address' };
    expect(checkWebhookEndpoint('http://[::ffff:127.0.0.1]:8080/hook', false)).toEqual(refused);
    expect(checkWebhookEndpoint('http://[::ffff:127.0.0.1]:8080/hook', true)).toBeNull();
    expect(checkWebhookEndpoint('https://hooks.example.com/x', false)).toBeNull();
    expect(checkWebhookEndpoint('https://user:pw@hooks.example.com/x', true)).toEqual({
      field: 'webhookEndpoint', constraint: {}, message: 'webhookEndpoint must not carry credentials',
    });
  });
});
