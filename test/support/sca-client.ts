import { PasskeyAssertion } from '../../src/infra/crypto/webauthn';
import { base32Decode, totpAt } from '../../src/sca/totp';
import { PlatformClient } from './test-app';
import { SoftwareAuthenticator } from './webauthn-authenticator';

/**
 * SCA steps as a client runs them over HTTP (sandbox SMS code `123456`), with the software
 * WebAuthn authenticator for passkeys and RFC 6238 codes computed from a TOTP secret.
 */
export const SCA_RP_ID = 'bank.example';
export const SCA_ORIGIN = 'https://bank.example';
export const SCA_OTHER_ALLOWED_ORIGIN = 'https://app.bank.example';
export const SCA_PLATFORM_CONFIG = { embeddedWalletConfig: { rpId: SCA_RP_ID, allowedOrigins: [SCA_ORIGIN, SCA_OTHER_ALLOWED_ORIGIN] } };
export const SMS_CODE = '123456';
export const END_USER_IP = '203.0.113.7';

export function newAuthenticator(): SoftwareAuthenticator {
  return new SoftwareAuthenticator({ rpId: SCA_RP_ID, origin: SCA_ORIGIN });
}

/** The challenge hex a PASSKEY challenge's options carry (base64url of its UTF-8 bytes). */
export function challengeHexOf(scaChallenge: { passkeyAssertionOptions: { challenge: string } }): string {
  return Buffer.from(scaChallenge.passkeyAssertionOptions.challenge, 'base64url').toString('utf8');
}

async function expectStatus(response: { status: number; body: unknown }, status: number, what: string): Promise<any> {
  if (response.status !== status) throw new Error(`${what}: ${response.status} ${JSON.stringify(response.body)}`);
  return response.body;
}

/** An SMS SCA login: the customer gets a live SCA session. */
export async function scaLogin(api: PlatformClient, customerId: string): Promise<any> {
  await expectStatus(await api.post('/sca/login/start').send({ customerId, factor: 'SMS_OTP' }), 200, 'login/start');
  return expectStatus(
    await api.post('/sca/login/complete').send({ customerId, factor: 'SMS_OTP', code: SMS_CODE, endUserIpAddress: END_USER_IP }),
    200,
    'login/complete',
  );
}

/** Enrolls the authenticator's passkey (needs a live SCA session); answers the ACTIVE factor. */
export async function enrollPasskey(api: PlatformClient, customerId: string, authenticator: SoftwareAuthenticator): Promise<any> {
  const started = await expectStatus(await api.post('/sca/factors').send({ customerId }), 200, 'POST /sca/factors');
  const attestation = authenticator.register({ challenge: started.scaChallenge.passkeyCreationOptions.challenge });
  return expectStatus(
    await api.post('/sca/factors/confirm').send({ factorId: started.id, passkeyAttestation: attestation, origin: SCA_ORIGIN }),
    200,
    'POST /sca/factors/confirm',
  );
}

/** The assertion for a PASSKEY challenge, as the browser would produce it. */
export function assertFor(authenticator: SoftwareAuthenticator, scaChallenge: any, options: { origin?: string; counter?: number } = {}): PasskeyAssertion {
  return authenticator.assert({ challenge: { hex: challengeHexOf(scaChallenge) }, ...options });
}

/** The code an authenticator app shows for a base32 TOTP secret, now or `offsetSteps` 30-second steps away. */
export function totpCodeOf(secretBase32: string, offsetSteps = 0): string {
  return totpAt(base32Decode(secretBase32)!, Date.now() + offsetSteps * 30_000);
}

/** Enrolls a TOTP factor with a real code (needs a live SCA session); answers the secret and the recovery codes. */
export async function enrollTotp(api: PlatformClient, customerId: string): Promise<{ secret: string; recoveryCodes: string[] }> {
  const started = await expectStatus(await api.post('/sca/factors').query({ customerId }).send({ type: 'TOTP' }), 200, 'POST /sca/factors TOTP');
  const confirmed = await expectStatus(
    await api.post('/sca/factors/confirm').query({ customerId }).send({ type: 'TOTP', secret: started.secret, code: totpCodeOf(started.secret) }),
    200,
    'POST /sca/factors/confirm TOTP',
  );
  return { secret: started.secret, recoveryCodes: confirmed.recoveryCodes };
}
