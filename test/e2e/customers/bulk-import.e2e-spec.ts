import { TestApp, TestPlatform, anonymousClient, eventually, startTestApp } from '../../support/test-app';
import { createIndividual } from '../../support/customer-fixtures';
import { WebhookReceiver } from '../../support/webhook-receiver';

const HEADER = 'umaAddress,platformCustomerId,customerType,fullName,birthDate,addressLine1,city,state,postalCode,country,businessLegalName,businessRegistrationNumber';
const JOB_ID = /^Job:[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const NOT_FOUND = { status: 404, code: 'BULK_UPLOAD_JOB_NOT_FOUND', message: 'Bulk upload job not found' };
let unique = 0;
const tag = () => `${Date.now().toString(36)}${(unique++).toString(36)}`;
const csv = (...lines: string[]) => Buffer.from([HEADER, ...lines].join('\r\n') + '\r\n');
const individual = (id: string, fullName = 'Ann Lee', birthDate = '1990-01-15') =>
  `$${id}@uma.example.com,${id},INDIVIDUAL,${fullName},${birthDate},1 Main St,San Francisco,CA,94105,US,,`;
const business = (id: string, legalName = 'Acme LLC') => `$${id}@uma.example.com,${id},BUSINESS,,,400 Commerce Way,Austin,TX,78701,US,${legalName},5543210`;

/**
 * Bulk customer import (issue 25 part 1, docs/customers.md): `POST /customers/bulk/csv` answers a
 * PENDING job at once; the worker creates every good row through `POST /customers`' command and
 * records every bad or repeated row's error; GET shows progress and per-row results; the
 * platform gets `BULK_UPLOAD.COMPLETED` or `.FAILED`; file problems are a 400; another
 * platform's job is 404.
 */
describe('bulk customer import', () => {
  let testApp: TestApp;
  let receiver: WebhookReceiver;
  let other: TestPlatform;

  beforeAll(async () => {
    testApp = await startTestApp();
    receiver = await WebhookReceiver.forPlatform(testApp.platform.api);
    other = await testApp.createPlatform();
  });

  afterAll(async () => {
    await receiver?.close();
    await testApp?.close();
  });

  const api = () => testApp.platform.api;
  const upload = (file: Buffer, platform = api()) => platform.post('/customers/bulk/csv').attach('file', file, { filename: 'customers.csv', contentType: 'text/csv' });
  const finished = async (jobId: string, platform = api()) =>
    eventually(async () => {
      const job = (await platform.get(`/customers/bulk/jobs/${jobId}`).expect(200)).body;
      return job.status === 'COMPLETED' || job.status === 'FAILED' ? job : null;
    }, 30_000);

  it('imports good rows, records bad and repeated ones, answers at once and sends BULK_UPLOAD.COMPLETED', async () => {
    const [a, b, c, d] = [tag(), tag(), tag(), tag()];
    const taken = await createIndividual(api(), { platformCustomerId: `taken-${a}` });
    const file = csv(
      individual(`a${a}`, 'Ann Lee'),
      individual(`b${b}`, 'Bo Reyes002'),
      business(`c${c}`),
      `$bad${d}@uma.example.com,bad${d},INDIVIDUAL,,1990-02-30,1 Main St,San Francisco,CA,94105,USA,,`,
      individual(`a${a}`, 'Ann Lee Again'),
      `$x${d}@uma.example.com,taken-${a},INDIVIDUAL,Tim Taken,1980-05-05,1 Main St,Boston,MA,02110,US,,`,
      `$y${d}@uma.example.com,y${d},PERSON,Yan,1980-05-05,1 Main St,Boston,MA,02110,US,,`,
    );
    const accepted = await upload(file).expect(202);
    expect(accepted.body).toEqual({ jobId: expect.stringMatching(JOB_ID), status: 'PENDING' });
    const { jobId } = accepted.body;

    const job = await finished(jobId);
    expect(job).toEqual({
      id: jobId,
      status: 'COMPLETED',
      progress: { total: 7, processed: 7, successful: 3, failed: 4 },
      errors: [
        {
          correlationId: 'row_4',
          code: 'INVALID_INPUT',
          message: '3 fields are invalid: fullName, birthDate, country',
          details: {
            row: 4,
            platformCustomerId: `bad${d}`,
            errors: [
              { field: 'fullName', constraint: {}, message: 'fullName is required' },
              expect.objectContaining({ field: 'birthDate' }),
              expect.objectContaining({ field: 'country' }),
            ],
          },
        },
        {
          correlationId: 'row_5',
          code: 'CONFLICT',
          message: 'platformCustomerId repeats row 1 of this file',
          details: { row: 5, platformCustomerId: `a${a}`, field: 'platformCustomerId', duplicateOfRow: 1 },
        },
        { correlationId: 'row_6', code: 'CONFLICT', message: 'A customer with this platformCustomerId already exists', details: { row: 6, platformCustomerId: `taken-${a}` } },
        {
          correlationId: 'row_7',
          code: 'INVALID_INPUT',
          message: 'customerType must be one of INDIVIDUAL, BUSINESS',
          details: { row: 7, platformCustomerId: `y${d}`, errors: [expect.objectContaining({ field: 'customerType' })] },
        },
      ],
      results: [
        { row: 1, platformCustomerId: `a${a}`, customerId: expect.stringMatching(/^Customer:/) },
        { row: 2, platformCustomerId: `b${b}`, customerId: expect.stringMatching(/^Customer:/) },
        { row: 3, platformCustomerId: `c${c}`, customerId: expect.stringMatching(/^Customer:/) },
      ],
      completedAt: expect.any(String),
    });
    expect(taken.platformCustomerId).toBe(`taken-${a}`);

    // Created as POST /customers creates: the sandbox KYC suffix applies, the address is the row's.
    const [ann, bo, acme] = await Promise.all(job.results.map(async (row: { customerId: string }) => (await api().get(`/customers/${row.customerId}`).expect(200)).body));
    expect(ann).toEqual(expect.objectContaining({ customerType: 'INDIVIDUAL', fullName: 'Ann Lee', birthDate: '1990-01-15', kycStatus: 'APPROVED', umaAddress: `$a${a}@uma.example.com` }));
    expect(ann.address).toEqual({ line1: '1 Main St', city: 'San Francisco', state: 'CA', postalCode: '94105', country: 'US' });
    expect(bo.kycStatus).toBe('REJECTED');
    expect(acme).toEqual(expect.objectContaining({ customerType: 'BUSINESS', kybStatus: 'UNVERIFIED' }));
    expect(acme.businessInfo).toEqual(expect.objectContaining({ legalName: 'Acme LLC', registrationNumber: '5543210' }));

    // The audit history names the credential that uploaded the file, not the worker.
    const history = await api().get('/audit/events').query({ resourceId: ann.id }).expect(200);
    expect(history.body.data[0]).toEqual(expect.objectContaining({ type: 'CustomerCreated' }));
    expect(history.body.data[0].metadata).toEqual(expect.objectContaining({ platformId: testApp.platform.platformId, actor: `platform:${testApp.platform.clientId}` }));

    const webhook = await receiver.waitFor((entry) => entry.body.type === 'BULK_UPLOAD.COMPLETED' && entry.body.data.id === jobId);
    const { results: _results, ...withoutResults } = job;
    expect(webhook.body.data).toEqual(withoutResults);
  });

  it('a file whose every row fails ends FAILED with BULK_UPLOAD.FAILED', async () => {
    const id = tag();
    const { jobId } = (await upload(csv(`$f${id}@uma.example.com,f${id},INDIVIDUAL,,,,,,,,,`)).expect(202)).body;
    const job = await finished(jobId);
    expect(job).toEqual(expect.objectContaining({ status: 'FAILED', progress: { total: 1, processed: 1, successful: 0, failed: 1 }, results: [] }));
    expect(job.errors[0].details.errors.map((error: { field: string }) => error.field)).toEqual(['fullName', 'birthDate', 'addressLine1', 'city', 'state', 'postalCode', 'country']);
    const webhook = await receiver.waitFor((entry) => entry.body.type === 'BULK_UPLOAD.FAILED' && entry.body.data.id === jobId);
    expect(webhook.body.data.status).toBe('FAILED');
  });

  it('quoted fields (commas, quotes, line breaks), LF endings, a byte order mark and blank lines are read as CSV', async () => {
    const id = tag();
    const text = `\uFEFF${HEADER}\n"$q${id}@uma.example.com",q${id},INDIVIDUAL,"O""Brien, Pat",1970-07-07,"1 Main St\nUnit 2",Boston,MA,02110,US,,\n\n`;
    const { jobId } = (await upload(Buffer.from(text)).expect(202)).body;
    const job = await finished(jobId);
    expect(job.progress).toEqual({ total: 1, processed: 1, successful: 1, failed: 0 });
    const customer = (await api().get(`/customers/${job.results[0].customerId}`).expect(200)).body;
    expect(customer.fullName).toBe('O"Brien, Pat');
    expect(customer.address.line1).toBe('1 Main St\nUnit 2');
  });

  it('refuses what is wrong with the file itself with a 400 naming it, before any job', async () => {
    const fileError = async (request: ReturnType<typeof upload>, message: string) => {
      const response = await request.expect(400);
      expect(response.body).toEqual({ status: 400, code: 'INVALID_INPUT', message: expect.any(String), details: { errors: [{ field: 'file', constraint: {}, message }] } });
    };
    await fileError(upload(Buffer.from('umaAddress,platformCustomerId\r\n$a@b.com,a\r\n')), 'Missing required column customerType');
    await fileError(upload(Buffer.from(`${HEADER},nickname\r\n${individual('nick')},x\r\n`)), expect.stringContaining('Unknown column "nickname"') as never);
    await fileError(upload(Buffer.from(`${HEADER}\r\n`)), 'file has a header but no rows');
    await fileError(upload(Buffer.from('')), 'file is empty: send a header line and at least one row');
    await fileError(upload(Buffer.from(`${HEADER}\r\n"unclosed,a,INDIVIDUAL\r\n`)), 'file is not valid CSV: A quoted field opened on line 2 is never closed');
    await fileError(upload(Buffer.from([0xff, 0xfe, 0x00, 0x41])), 'file must be UTF-8 text (a CSV), without NUL characters');
    const tooMany = csv(...Array.from({ length: 10_001 }, (_, index) => individual(`many${index}`)));
    await fileError(upload(tooMany), 'file has 10001 rows; at most 10000 are taken in one upload');
    await fileError(upload(Buffer.alloc(10 * 1024 * 1024 + 1, 'a')), 'file must be at most 10 MB');

    const noFile = await api().post('/customers/bulk/csv').field('note', 'x').expect(400);
    expect(noFile.body.code).toBe('INVALID_INPUT');
    const json = await api().post('/customers/bulk/csv').send({ file: 'a,b' }).expect(400);
    expect(json.body.details.errors).toEqual([{ field: 'body', constraint: {}, message: 'POST /customers/bulk/csv takes multipart/form-data with a file part' }]);
    const raw = await api().post('/customers/bulk/csv').set('Content-Type', 'text/csv').send('a,b').expect(415);
    expect(raw.body.code).toBe('UNSUPPORTED_MEDIA_TYPE');
    // Multipart stays refused everywhere else.
    await api().post('/customers').attach('file', csv(), { filename: 'c.csv', contentType: 'text/csv' }).expect(415);
  });

  it('GET /customers/bulk/jobs/{jobId}: unknown, malformed and another platform\'s jobs are 404 BULK_UPLOAD_JOB_NOT_FOUND', async () => {
    const id = tag();
    const { jobId } = (await upload(csv(individual(`o${id}`))).expect(202)).body;
    expect((await other.api.get(`/customers/bulk/jobs/${jobId}`).expect(404)).body).toEqual(NOT_FOUND);
    expect((await api().get('/customers/bulk/jobs/Job:0199a000-0000-7000-8000-000000000000').expect(404)).body).toEqual(NOT_FOUND);
    expect((await api().get('/customers/bulk/jobs/not-a-job').expect(404)).body).toEqual(NOT_FOUND);
    // Without credentials: 401 on both operations.
    const anonymous = anonymousClient(testApp.baseUrl);
    expect((await anonymous.get(`/customers/bulk/jobs/${jobId}`).expect(401)).body.code).toBe('UNAUTHORIZED');
    expect((await anonymous.post('/customers/bulk/csv').attach('file', csv(individual(`n${id}`)), { filename: 'c.csv', contentType: 'text/csv' }).expect(401)).body.code).toBe('UNAUTHORIZED');
    const job = await finished(jobId);
    // The other platform cannot see the customers either, and its own import of the same keys is its own.
    await other.api.get(`/customers/${job.results[0].customerId}`).expect(404);
    const mine = (await upload(csv(`$o2${id}@uma.example.com,o${id},INDIVIDUAL,Ann Lee,1990-01-15,1 Main St,San Francisco,CA,94105,US,,`), other.api).expect(202)).body;
    const theirs = await finished(mine.jobId, other.api);
    expect(theirs.progress).toEqual({ total: 1, processed: 1, successful: 1, failed: 0 });
    expect(theirs.results[0].customerId).not.toBe(job.results[0].customerId);
  });
});
