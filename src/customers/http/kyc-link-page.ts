import { randomBytes } from 'node:crypto';
import { DomainError, FieldError, ValidationError } from '../../infra/domain/domain-error';
import { HttpResult } from '../../infra/http/http-result';
import { KycLinkOutcome, OpenKycLink } from '../commands/kyc-links';
import { ID_TYPES, OWNER_ROLES } from './customers.dto';
import { beneficialOwnerId } from '../domain/customer/beneficial-owner-id';
import { documentTypesAskedFor, fieldsAskedFor, ownerFieldsAskedFor } from './kyc-link-form';

/**
 * The hosted KYC/KYB page, rendered on the server: no script, no external asset, every value
 * escaped, a CSP that allows only its own inline style (by nonce) and form posts to itself (and to
 * the redirect's origin, which a 303 after the post reaches). The token is in the URL: the page
 * sends no Referer and is never cached.
 */
type Input = { label: string; type?: 'date' | 'number'; options?: readonly string[]; hint?: string };

const COUNTRY_HINT = 'two-letter country code, e.g. US';
const INPUTS: Record<string, Input> = {
  fullName: { label: 'Full legal name' },
  birthDate: { label: 'Date of birth', type: 'date' },
  nationality: { label: 'Nationality', hint: COUNTRY_HINT },
  idType: { label: 'Identification type', options: ID_TYPES },
  identifier: { label: 'Identification number' },
  'businessInfo.legalName': { label: 'Legal name of the business' },
  'businessInfo.country': { label: 'Country of incorporation', hint: COUNTRY_HINT },
  'businessInfo.registrationNumber': { label: 'Registration number' },
  'businessInfo.incorporatedOn': { label: 'Date of incorporation', type: 'date' },
  'businessInfo.taxId': { label: 'Tax identification number' },
  'personalInfo.firstName': { label: 'First name' },
  'personalInfo.lastName': { label: 'Last name' },
  roles: { label: 'Role in the business', options: OWNER_ROLES },
  'personalInfo.birthDate': { label: 'Date of birth', type: 'date' },
  'personalInfo.nationality': { label: 'Nationality', hint: COUNTRY_HINT },
  'personalInfo.idType': { label: 'Identification type', options: ID_TYPES },
  'personalInfo.identifier': { label: 'Identification number' },
  ownershipPercentage: { label: 'Ownership', type: 'number', hint: 'percent, 0 to 100' },
};
/** A business without owners is asked for its first one, with what POST /beneficial-owners requires. */
const NEW_OWNER_FIELDS = [
  'personalInfo.firstName', 'personalInfo.lastName', 'personalInfo.birthDate', 'personalInfo.nationality', 'personalInfo.address',
  'personalInfo.idType', 'personalInfo.identifier', 'roles', 'ownershipPercentage',
];
const ADDRESS_INPUTS: Array<[string, Input, boolean]> = [
  ['line1', { label: 'Street address' }, true],
  ['line2', { label: 'Address line 2' }, false],
  ['city', { label: 'City' }, false],
  ['state', { label: 'State or region' }, false],
  ['postalCode', { label: 'Postal code' }, true],
  ['country', { label: 'Country', hint: COUNTRY_HINT }, true],
];

const STYLE = `body{font:16px/1.5 system-ui,sans-serif;margin:0;background:#f5f6f8;color:#1d1f23}
main{max-width:36rem;margin:2rem auto;background:#fff;padding:1.5rem 2rem;border-radius:8px}
label{display:block;margin-top:.75rem;font-weight:600}input,select{display:block;width:100%;padding:.4rem;box-sizing:border-box}
fieldset{margin-top:1rem;border:1px solid #ccd}.hint{font-weight:400;color:#667}.errors{color:#a11}button{margin-top:1.25rem;padding:.6rem 1.2rem}`;

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

/** The form of what the customer lacks; `errors` from a refused submission (answered 400). */
export function formPage(opened: OpenKycLink, errors: FieldError[] = []): HttpResult<string> {
  const { customer, missing, link } = opened;
  const asked = fieldsAskedFor(customer.customerId, missing);
  const documentTypes = documentTypesAskedFor(missing);
  const names = ownerNames(opened);
  const items = missing.map((error) => `<li>${escapeHtml(names.has(error.resourceId) ? `${names.get(error.resourceId)}: ${error.reason}` : error.reason)}</li>`).join('');
  const problems = errors.length === 0 ? '' : `<div class="errors" role="alert"><p>Please correct the following:</p><ul>${errors.map((error) => `<li>${escapeHtml(error.message)}</li>`).join('')}</ul></div>`;
  const ownerForm = missing.some((error) => error.type === 'MISSING_BENEFICIAL_OWNER')
    ? `<form method="post" enctype="multipart/form-data">${fieldset('newOwner', NEW_OWNER_FIELDS, 'Beneficial owner')}<button type="submit">Add the beneficial owner</button></form>`
    : '';
  const fields = [fieldset('profile', asked, null), ...ownerFieldsets(opened, names)].join('');
  const document = documentTypes.length === 0 ? '' : documentFieldset(documentTypes);
  const what = customer.customerType === 'BUSINESS' ? 'business' : 'identity';
  const intro = missing.length === 0 ? '<p>Nothing is missing: submit to start the verification.</p>' : `<p>To verify your ${what}, we still need:</p><ul>${items}</ul>`;
  const name = customer.customerType === 'BUSINESS' ? customer.profile.businessInfo?.legalName : customer.profile.fullName;
  const greeting = name ? `<p>For <strong>${escapeHtml(name)}</strong></p>` : '';
  const body = `<h1>Verify your ${what}</h1>${greeting}${intro}${problems}${ownerForm}<form method="post" enctype="multipart/form-data">${fields}${document}<button type="submit">Submit for verification</button></form>`;
  return htmlPage(errors.length === 0 ? 200 : 400, `Verify your ${what}`, body, link.redirectUri);
}

/** The page for a link that cannot be used (or a form that cannot be read), by the refusal's reason. */
export function refusalPage(error: DomainError): HttpResult<string> {
  const reason = (error.details?.reason as string | undefined) ?? error.code;
  switch (reason) {
    case 'KYC_LINK_USED':
      return messagePage(410, 'Link already used', 'This verification link was already used. Ask the service you are signing up with for a new one if needed.');
    case 'KYC_LINK_EXPIRED':
      return messagePage(410, 'Link expired', 'This verification link has expired. Ask the service you are signing up with for a new one.');
    case 'CUSTOMER_DELETED':
      return messagePage(410, 'Link no longer valid', 'This verification link is no longer valid.');
    case 'KYC_LINK_NOT_FOUND':
      return messagePage(404, 'Link not found', 'This verification link is not valid. Check that you opened the whole link.');
    case 'VERIFICATION_ALREADY_RESOLVED':
      return messagePage(409, 'Already verified', 'Your verification is already complete: there is nothing more to do here.');
    default:
      return messagePage(400, 'Submission refused', error instanceof ValidationError ? error.errors.map((problem) => problem.message).join('; ') : error.message);
  }
}

/** After a submission: back to the platform (303) with the outcome, or a thank-you page without a redirect. */
export function outcomePage({ redirectUri, verification }: KycLinkOutcome): HttpResult<string> {
  if (redirectUri === null) {
    const next = verification.verificationStatus === 'RESOLVE_ERRORS' ? 'Some details still need attention; you will be contacted.' : 'Your details were submitted for review.';
    return messagePage(200, 'Thank you', next);
  }
  const location = new URL(redirectUri);
  location.searchParams.set('verificationStatus', verification.verificationStatus);
  location.searchParams.set('verificationId', verification.id);
  return new HttpResult(303, '', { ...securityHeaders(null, null), Location: location.href });
}

/** After the owner form: the page again (303), now asking for what is still missing. */
export function pageAgain(path: string): HttpResult<string> {
  return new HttpResult(303, '', { ...securityHeaders(null, null), Location: path });
}

function messagePage(status: number, title: string, message: string): HttpResult<string> {
  return htmlPage(status, title, `<h1>${escapeHtml(title)}</h1><p>${escapeHtml(message)}</p>`, null);
}

function input(name: string, spec: Input, required: boolean): string {
  const hint = spec.hint ? ` <span class="hint">(${escapeHtml(spec.hint)})</span>` : '';
  const label = `<label>${escapeHtml(spec.label)}${hint}`;
  const attributes = `name="${escapeHtml(name)}"${required ? ' required' : ''}`;
  if (spec.options) {
    const options = spec.options.map((option) => `<option value="${escapeHtml(option)}">${escapeHtml(option)}</option>`).join('');
    return `${label}<select ${attributes}><option value="">Choose…</option>${options}</select></label>`;
  }
  return `${label}<input ${attributes} type="${spec.type ?? 'text'}"></label>`;
}

/** Inputs named `<prefix>[a][b]` for each asked field `a.b`; an address is a group of its own. */
function fieldset(prefix: string, fields: string[], legend: string | null): string {
  const inputs = fields
    .map((field) => {
      // A list field (an owner's roles) is sent as `name[]`.
      const name = `${prefix}[${field.split('.').join('][')}]${field === 'roles' ? '[]' : ''}`;
      return field.endsWith('address') ? addressFieldset(name) : input(name, INPUTS[field] ?? { label: field }, true);
    })
    .join('');
  return legend === null ? inputs : `<fieldset><legend>${escapeHtml(legend)}</legend>${inputs}</fieldset>`;
}

/** One group per beneficial owner missing something, named after the owner. */
function ownerFieldsets({ customer, missing }: OpenKycLink, names: Map<string, string>): string[] {
  return [...ownerFieldsAskedFor(customer.customerId, missing)].map(([ownerId, fields]) => fieldset(`owners[${ownerId}]`, fields, names.get(ownerId) ?? 'Beneficial owner'));
}

/** "Beneficial owner Ann Smith" by owner id. */
function ownerNames({ customer }: OpenKycLink): Map<string, string> {
  return new Map(
    customer.profile.beneficialOwners.map((owner, index) => {
      const name = [owner.personalInfo.firstName, owner.personalInfo.lastName].filter(Boolean).join(' ');
      return [beneficialOwnerId(customer.customerId, owner, index), `Beneficial owner ${name}`];
    }),
  );
}

function addressFieldset(name: string): string {
  const inputs = ADDRESS_INPUTS.map(([key, spec, required]) => input(`${name}[${key}]`, spec, required)).join('');
  return `<fieldset><legend>Address</legend>${inputs}</fieldset>`;
}

function documentFieldset(documentTypes: string[]): string {
  return (
    `<fieldset><legend>Document</legend>${input('document[documentType]', { label: 'Document type', options: documentTypes }, true)}` +
    `${input('document[country]', { label: 'Issuing country', hint: COUNTRY_HINT }, true)}` +
    `<label>File <span class="hint">(JPEG, PNG or PDF, at most 10 MB)</span><input name="file" type="file" accept="image/jpeg,image/png,application/pdf" required></label></fieldset>`
  );
}

function htmlPage(status: number, title: string, body: string, redirectUri: string | null): HttpResult<string> {
  const nonce = randomBytes(16).toString('base64');
  const html =
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">` +
    `<title>${escapeHtml(title)}</title><style nonce="${nonce}">${STYLE}</style></head><body><main>${body}</main></body></html>`;
  return new HttpResult(status, html, securityHeaders(nonce, redirectUri));
}

function securityHeaders(nonce: string | null, redirectUri: string | null): Record<string, string> {
  const formTargets = ["'self'", ...(redirectUri ? [new URL(redirectUri).origin] : [])].join(' ');
  const style = nonce ? `'nonce-${nonce}'` : "'none'";
  return {
    'Content-Type': 'text/html; charset=utf-8',
    'Content-Security-Policy': `default-src 'none'; style-src ${style}; form-action ${formTargets}; base-uri 'none'; frame-ancestors 'none'`,
    'Cache-Control': 'no-store',
    'Referrer-Policy': 'no-referrer',
    'X-Content-Type-Options': 'nosniff',
    'X-Frame-Options': 'DENY',
  };
}
