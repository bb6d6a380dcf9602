import request from 'supertest';
import { TestApp, TestPlatform, startTestApp } from '../../support/test-app';
import { beneficialOwner, createBusiness, createIndividual } from '../../support/customer-fixtures';
import { WebhookReceiver } from '../../support/webhook-receiver';

const PDF = Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n');
const NOT_FOUND = { status: 404, code: 'USER_NOT_FOUND', message: 'Customer not found' };
const MISSING_ID = 'Customer:0199a000-0000-7000-8000-00000000dead';
const REDIRECT = 'https://app.example.com/onboarding/done?ref=42';
const ADDRESS_FIELDS = { 'profile[address][line1]': '1 Main St', 'profile[address][city]': 'Springfield', 'profile[address][postalCode]': '62701', 'profile[address][country]': 'US' };
const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * The hosted KYC/KYB link (issue 25 part 3, docs/customers.md "Hosted KYC/KYB link"): issuing it
 * (201, 404, 400, 409 while contact verification is pending), the page it opens (missing items,
 * escaped, CSP), the submission (fields and a document, then the verification `POST /verifications`
 * runs, 303 back to the platform), single use, expiry, and the audit history.
 */
describe('hosted KYC/KYB link', () => {
  let testApp: TestApp;
  let other: TestPlatform;
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    testApp = await startTestApp();
    other = await testApp.createPlatform();
    receiver = await WebhookReceiver.forPlatform(testApp.platform.api);
  });

  afterAll(async () => {
    await receiver?.close();
    await testApp?.close();
  });

  const api = () => testApp.platform.api;
  const issue = async (customerId: string, body: Record<string, unknown> = { redirectUri: REDIRECT }) =>
    (await api().post(`/customers/${customerId}/kyc-link`).send(body).expect(201)).body;
  const pagePath = (kycUrl: string) => new URL(kycUrl).pathname;
  const open = (kycUrl: string) => request(testApp.origin).get(pagePath(kycUrl));
  const submit = (kycUrl: string, fields: Record<string, string>, file: Buffer | null = PDF) => {
    const post = request(testApp.origin).post(pagePath(kycUrl));
    for (const [name, value] of Object.entries(fields)) post.field(name, value);
    return file ? post.attach('file', file, { filename: 'doc.pdf', contentType: 'application/pdf' }) : post;
  };

  it('issues a single-use link on the service itself: 201 kycUrl, expiresAt in 24 h, SUMSUB; the status does not move', async () => {
    const customer = await createIndividual(api(), { fullName: 'Link Holder003' });
    const before = Date.now();
    const link = await issue(customer.id);
    const uuid = customer.id.slice('Customer:'.length);
    expect(link).toEqual({ kycUrl: expect.any(String), expiresAt: expect.any(String), provider: 'SUMSUB' });
    expect(link.kycUrl).toMatch(new RegExp(`^${testApp.baseUrl}/hosted/kyc/${uuid}\\.[A-Za-z0-9_-]{43}$`));
    expect(Date.parse(link.expiresAt) - before).toBeGreaterThanOrEqual(DAY_MS - 1000);
    expect(Date.parse(link.expiresAt) - before).toBeLessThan(DAY_MS + 60_000);
    // Each call is a fresh link; the body is optional.
    const again = (await api().post(`/customers/${customer.id}/kyc-link`).expect(201)).body;
    expect(again.kycUrl).not.toBe(link.kycUrl);
    expect((await api().get(`/customers/${customer.id}`).expect(200)).body).toEqual(customer);
    // Idempotency-Key: the same answer again.
    const first = await api().post(`/customers/${customer.id}/kyc-link`).set('Idempotency-Key', `kyc-${uuid}`).send({}).expect(201);
    const replay = await api().post(`/customers/${customer.id}/kyc-link`).set('Idempotency-Key', `kyc-${uuid}`).send({}).expect(201);
    expect(replay.body).toEqual(first.body);
  });

  it('404 for an unknown, malformed, deleted or other platform customer; 400 for a bad redirectUri', async () => {
    const customer = await createIndividual(api(), { fullName: 'Not Theirs003' });
    expect((await api().post(`/customers/${MISSING_ID}/kyc-link`).send({}).expect(404)).body).toEqual(NOT_FOUND);
    expect((await api().post('/customers/nope/kyc-link').send({}).expect(404)).body).toEqual(NOT_FOUND);
    expect((await other.api.post(`/customers/${customer.id}/kyc-link`).send({}).expect(404)).body).toEqual(NOT_FOUND);
    for (const redirectUri of ['ftp://app.example.com/x', 'app.example.com/done', 'javascript:alert(1)', 'https://', 42]) {
      const bad = await api().post(`/customers/${customer.id}/kyc-link`).send({ redirectUri }).expect(400);
      expect(bad.body).toEqual({ status: 400, code: 'INVALID_INPUT', message: expect.any(String), details: { errors: [expect.objectContaining({ field: 'redirectUri' })] } });
    }
    const unknown = await api().post(`/customers/${customer.id}/kyc-link`).send({ redirectUri: REDIRECT, extra: 1 }).expect(400);
    expect(unknown.body.details.errors.map((error: { field: string }) => error.field)).toEqual(['extra']);
    await issue(customer.id, { redirectUri: 'http://localhost:3000/back' });
    await api().delete(`/customers/${customer.id}`).expect(200);
    expect((await api().post(`/customers/${customer.id}/kyc-link`).send({}).expect(404)).body).toEqual(NOT_FOUND);
  });

  it('409 while the contact verification the provider requires is pending; 201 once both are VERIFIED', async () => {
    const customer = await createIndividual(api(), { fullName: 'Contact Person003', email: 'jane.201@example.com', phoneNumber: '+4915112345678', region: 'DE' });
    const refused = await api().post(`/customers/${customer.id}/kyc-link`).send({}).expect(409);
    expect(refused.body).toEqual({
      status: 409, code: 'CONFLICT', message: "The customer's email and phone must be verified before a KYC link is generated",
      details: { reason: 'CONTACT_VERIFICATION_REQUIRED', fields: ['email', 'phoneNumber'] },
    });
    for (const channel of ['email', 'phone']) {
      await api().post(`/customers/${customer.id}/verify-${channel}`).expect(204);
      await api().post(`/customers/${customer.id}/verify-${channel}/confirm`).send({ code: '123456' }).expect(200);
    }
    await issue(customer.id);
  });

  it('opens a page that lists what is missing, asks only for it, escapes what it shows and sends a CSP', async () => {
    const customer = await createIndividual(api(), { fullName: 'Jane <script>alert(1)</script> "Doe" 003' });
    const link = await issue(customer.id);
    const page = await open(link.kycUrl).expect(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.headers['content-security-policy']).toMatch(/^default-src 'none'; style-src 'nonce-[A-Za-z0-9+/=]+'; form-action 'self' https:\/\/app\.example\.com; base-uri 'none'; frame-ancestors 'none'$/);
    expect(page.headers).toEqual(expect.objectContaining({ 'cache-control': 'no-store', 'referrer-policy': 'no-referrer', 'x-frame-options': 'DENY' }));
    expect(page.text).not.toContain('<script');
    expect(page.text).toContain('Jane &#60;script&#62;alert(1)&#60;/script&#62; &#34;Doe&#34; 003');
    for (const item of ['Date of birth is required', 'Nationality is required', 'Identification type is required', 'Identification number is required', 'Residential address is required', 'An identity document is required']) {
      expect(page.text).toContain(`<li>${item}</li>`);
    }
    for (const name of ['profile[birthDate]', 'profile[nationality]', 'profile[idType]', 'profile[identifier]', 'profile[address][line1]', 'document[documentType]', 'file']) {
      expect(page.text).toContain(`name="${name}"`);
    }
    expect(page.text).not.toContain('name="profile[fullName]"');
    expect(page.text).toContain('<option value="PASSPORT">');
    expect(page.text).not.toContain('<option value="CERTIFICATE_OF_INCORPORATION">');
  });

  it('refuses an incomplete or overreaching form with 400 listing every problem; the link stays usable', async () => {
    const customer = await createIndividual(api(), { fullName: 'Half Done003' });
    const link = await issue(customer.id);
    const refused = await submit(link.kycUrl, { 'profile[nationality]': 'US', 'profile[email]': 'evil@example.com', 'document[documentType]': 'CERTIFICATE_OF_INCORPORATION', 'document[country]': 'US' }, null).expect(400);
    expect(refused.headers['content-type']).toBe('text/html; charset=utf-8');
    for (const problem of ['email is not asked for on this page', 'birthDate is required', 'idType is required', 'address is required', 'file is required', 'The document must be one of: PASSPORT, DRIVERS_LICENSE, NATIONAL_ID']) {
      expect(refused.text).toContain(problem);
    }
    const notPdf = await submit(link.kycUrl, individualFields(), Buffer.from('plain text')).expect(400);
    expect(notPdf.text).toContain('file content is not a valid application/pdf file');
    await open(link.kycUrl).expect(200);
    expect((await api().get(`/customers/${customer.id}`).expect(200)).body).toEqual(customer);
  });

  it('an individual: stores the fields and the document, verifies as POST /verifications does, 303 back with the outcome', async () => {
    // Sandbox: `003` starts UNVERIFIED and its verification finds the identity document of poor quality.
    const customer = await createIndividual(api(), { fullName: 'Jane Doe003' });
    const link = await issue(customer.id);
    const done = await submit(link.kycUrl, individualFields()).expect(303);
    const location = new URL(done.headers.location);
    expect(`${location.origin}${location.pathname}`).toBe('https://app.example.com/onboarding/done');
    expect(Object.fromEntries(location.searchParams)).toEqual({ ref: '42', verificationStatus: 'RESOLVE_ERRORS', verificationId: expect.stringMatching(/^Verification:/) });
    const verification = (await api().get(`/verifications/${location.searchParams.get('verificationId')}`).expect(200)).body;
    expect(verification.errors.map((error: { type: string }) => error.type)).toEqual(['POOR_QUALITY_DOCUMENT']);
    const updated = (await api().get(`/customers/${customer.id}`).expect(200)).body;
    expect(updated).toEqual(expect.objectContaining({ birthDate: '1990-01-01', nationality: 'US', kycStatus: 'UNVERIFIED' }));
    const documentId = verification.errors[0].resourceId;
    expect((await api().get(`/documents/${documentId}`).expect(200)).body).toEqual(expect.objectContaining({ documentType: 'PASSPORT', documentHolder: customer.id }));
    // The platform's own POST /verifications on the same data finds the same.
    const again = await api().post('/verifications').send({ customerId: customer.id }).expect(200);
    expect({ ...again.body, id: verification.id, createdAt: verification.createdAt, updatedAt: verification.updatedAt }).toEqual(verification);
  });

  it('a business: collects the business fields, its first owner and the legal-presence document; KYB goes PENDING with its webhook; single use; audit', async () => {
    // Sandbox: registration numbers ending `001` check the real requirements (no automatic decision).
    const business = await createBusiness(api(), { businessInfo: { legalName: 'Hosted & Co', registrationNumber: 'RN-001' } });
    const link = await issue(business.id);
    const page = await open(link.kycUrl).expect(200);
    expect(page.text).toContain('Hosted &#38; Co');
    expect(page.text).toContain('<li>At least one beneficial owner is required</li>');
    const names = ['profile[businessInfo][country]', 'profile[businessInfo][incorporatedOn]', 'profile[businessInfo][taxId]', 'profile[address][line1]', 'newOwner[personalInfo][birthDate]', 'newOwner[personalInfo][address][line1]', 'newOwner[roles][]'];
    for (const name of names) expect(page.text).toContain(`name="${name}"`);
    expect(page.text).toContain('<option value="CERTIFICATE_OF_INCORPORATION">');
    const owner = beneficialOwner('Smith') as { personalInfo: Record<string, unknown> };
    const ownerFields = {
      ...Object.fromEntries(['firstName', 'lastName', 'birthDate', 'nationality', 'idType', 'identifier'].map((key) => [`newOwner[personalInfo][${key}]`, String(owner.personalInfo[key])])),
      ...Object.fromEntries(Object.entries(ADDRESS_FIELDS).map(([key, value]) => [key.replace('profile[address]', 'newOwner[personalInfo][address]'), value])),
      'newOwner[roles][]': 'UBO', 'newOwner[ownershipPercentage]': '60',
    };
    const businessFields = {
      'profile[businessInfo][country]': 'US', 'profile[businessInfo][incorporatedOn]': '2015-06-01', 'profile[businessInfo][taxId]': '12-3456789', ...ADDRESS_FIELDS,
      'document[documentType]': 'CERTIFICATE_OF_INCORPORATION', 'document[country]': 'US',
    };
    // The owner comes first, in a form of its own; the main form is refused until then.
    expect((await submit(link.kycUrl, businessFields).expect(400)).text).toContain('Add a beneficial owner first');
    expect((await submit(link.kycUrl, { ...ownerFields, 'newOwner[ownershipPercentage]': '101' }, null).expect(400)).text).toContain('ownershipPercentage');
    const added = await submit(link.kycUrl, ownerFields, null).expect(303);
    expect(added.headers.location).toBe(pagePath(link.kycUrl));
    const again = await open(link.kycUrl).expect(200);
    expect(again.text).not.toContain('At least one beneficial owner is required');
    expect(again.text).not.toContain('name="newOwner');
    const done = await submit(link.kycUrl, businessFields).expect(303);
    const outcome = new URL(done.headers.location).searchParams;
    expect(outcome.get('verificationStatus')).toBe('PENDING_MANUAL_REVIEW');
    const updated = (await api().get(`/customers/${business.id}`).expect(200)).body;
    expect(updated.kybStatus).toBe('PENDING');
    expect(updated.businessInfo).toEqual(expect.objectContaining({ legalName: 'Hosted & Co', country: 'US', incorporatedOn: '2015-06-01', taxId: '12-3456789' }));
    expect(updated.beneficialOwners).toEqual([expect.objectContaining({ roles: ['UBO'], ownershipPercentage: 60, personalInfo: expect.objectContaining({ lastName: 'Smith', birthDate: '1980-02-03' }) })]);
    const webhook = await receiver.waitFor((entry) => entry.body.type === 'CUSTOMER.KYB_PENDING' && entry.body.data.id === business.id);
    expect(webhook.body.data.kybStatus).toBe('PENDING');

    // Single use: the page and a second submission are refused.
    const used = await open(link.kycUrl).expect(410);
    expect(used.text).toContain('This verification link was already used');
    await submit(link.kycUrl, {}).expect(410);

    const history = (await api().get('/audit/events').query({ resourceId: business.id }).expect(200)).body.data as Array<{ type: string; data: any; metadata: { actor: string } }>;
    const fromLink = history.slice(history.findIndex((entry) => entry.type === 'KycLinkIssued'));
    expect(fromLink.map((entry) => [entry.type, entry.metadata.actor.replace(/KycLink:[0-9a-f-]+/, 'KycLink:x')])).toEqual([
      ['KycLinkIssued', `platform:${testApp.platform.clientId}`],
      ['BeneficialOwnerAdded', 'end-user:KycLink:x'],
      ['CustomerUpdated', 'end-user:KycLink:x'],
      ['DocumentUploaded', 'end-user:KycLink:x'],
      ['KycLinkCompleted', 'end-user:KycLink:x'],
      ['VerificationSubmitted', 'end-user:KycLink:x'],
      ['CustomerKybStatusChanged', 'end-user:KycLink:x'],
    ]);
    expect(fromLink[4].metadata.actor).toBe(`end-user:${fromLink[0].data.linkId}`);
    // Only the token's hash is recorded.
    const secret = link.kycUrl.split('.').pop();
    expect(JSON.stringify(history)).not.toContain(secret);
    expect(fromLink[0].data.tokenHash).toMatch(/^[0-9a-f]{64}$/);
  });

  it('two submissions of one link at once: one is verified (303), the other finds it used (410)', async () => {
    const customer = await createIndividual(api(), { fullName: 'Double Click001' });
    const link = await issue(customer.id);
    const answers = await Promise.all([submit(link.kycUrl, individualFields()), submit(link.kycUrl, individualFields())]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([303, 410]);
    const history = (await api().get('/audit/events').query({ resourceId: customer.id }).expect(200)).body.data as Array<{ type: string }>;
    expect(history.filter((entry) => entry.type === 'KycLinkCompleted')).toHaveLength(1);
    expect(history.filter((entry) => entry.type === 'VerificationSubmitted')).toHaveLength(1);
  });

  it('without a redirectUri the page thanks the person itself; an unknown token is a 404 page, an approved customer a 409 one', async () => {
    const customer = await createIndividual(api(), { fullName: 'No Redirect001' });
    const link = await issue(customer.id, {});
    const thanks = await submit(link.kycUrl, individualFields()).expect(200);
    expect(thanks.text).toContain('Your details were submitted for review.');
    const uuid = customer.id.slice('Customer:'.length);
    const unknown = await request(testApp.origin).get(`/2025-10-13/hosted/kyc/${uuid}.${'A'.repeat(43)}`).expect(404);
    expect(unknown.text).toContain('This verification link is not valid');
    await request(testApp.origin).get('/2025-10-13/hosted/kyc/nope').expect(404);
    // Sandbox: a name without a suffix is APPROVED at creation; the link cannot verify it again.
    const approved = await createIndividual(api(), { fullName: 'Already Fine' });
    const late = await issue(approved.id);
    expect((await open(late.kycUrl).expect(409)).text).toContain('Your verification is already complete');
  });
});

/** Every individual field the page asks for, and a passport. */
function individualFields(): Record<string, string> {
  return {
    'profile[birthDate]': '1990-01-01', 'profile[nationality]': 'US', 'profile[idType]': 'SSN', 'profile[identifier]': '123-45-6789', ...ADDRESS_FIELDS,
    'document[documentType]': 'PASSPORT', 'document[country]': 'US',
  };
}

describe('hosted KYC/KYB link lifetime (KYC_LINK_LIFETIME_MS)', () => {
  let testApp: TestApp;

  beforeAll(async () => {
    testApp = await startTestApp({ env: { KYC_LINK_LIFETIME_MS: '300' } });
  });

  afterAll(async () => {
    await testApp?.close();
  });

  it('refuses an expired link with a 410 page, for the page and the submission', async () => {
    const customer = await createIndividual(testApp.platform.api, { fullName: 'Too Late003' });
    const link = (await testApp.platform.api.post(`/customers/${customer.id}/kyc-link`).send({}).expect(201)).body;
    expect(Date.parse(link.expiresAt) - Date.now()).toBeLessThanOrEqual(300);
    await new Promise((resolve) => setTimeout(resolve, 400));
    const path = new URL(link.kycUrl).pathname;
    const expired = await request(testApp.origin).get(path).expect(410);
    expect(expired.text).toContain('This verification link has expired');
    await request(testApp.origin).post(path).field('profile[nationality]', 'US').expect(410);
  });
});
