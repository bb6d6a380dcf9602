import { IsObject } from 'class-validator';
import { FieldError } from '../../infra/domain/domain-error';
import { checkBody } from '../../infra/http/validation';
import { Optional } from '../../shared/validation/common-validators';
import { KycLinkSubmission } from '../commands/kyc-links';
import { BeneficialOwner, CustomerType, VerificationError } from '../domain/customer/customer.events';
import { UpdateBeneficialOwnerDto } from './beneficial-owners.dto';
import { beneficialOwnerChanges, businessPatch, individualPatch, toBeneficialOwner } from './customer-mapping';
import { BeneficialOwnerDto, UpdateBusinessCustomerDto, UpdateIndividualCustomerDto } from './customers.dto';
import { DocumentForm, DocumentReplaceFieldsDto } from './document-form';

/**
 * The hosted page's multipart form: `profile[...]` holds the missing fields under their PATCH
 * names (`profile[address][line1]`, `profile[businessInfo][taxId]`), `owners[<owner id>][...]` a
 * business's owners' missing fields under `PATCH /beneficial-owners`' names, `document[...]` the
 * document's type and country, `file` the document. Each part is checked by its route's DTO. A
 * business without owners first adds one in a form of its own (`newOwner[...]`, as `POST
 * /beneficial-owners` takes it): with it the form would pass the upload's 20-field limit.
 */
export class KycLinkFormDto {
  @Optional() @IsObject() profile?: Record<string, unknown>;
  @Optional() @IsObject() owners?: Record<string, unknown>;
  @Optional() @IsObject() newOwner?: Record<string, unknown>;
  @Optional() @IsObject() document?: Record<string, unknown>;
}

const DOCUMENT_ERROR_TYPES = ['MISSING_IDENTITY_DOCUMENT', 'MISSING_LEGAL_PRESENCE_DOCUMENT'];

/** The document types the page asks for (none when no document is missing). */
export function documentTypesAskedFor(missing: VerificationError[]): string[] {
  return missing.find((error) => DOCUMENT_ERROR_TYPES.includes(error.type))?.acceptedDocumentTypes ?? [];
}

/** The customer's missing fields the page asks for. */
export function fieldsAskedFor(customerId: string, missing: VerificationError[]): string[] {
  return missing.filter((error) => error.type === 'MISSING_FIELD' && error.resourceId === customerId && error.field).map((error) => error.field!);
}

/** Each beneficial owner's missing fields (`personalInfo.birthDate`, `ownershipPercentage`), by owner id. */
export function ownerFieldsAskedFor(customerId: string, missing: VerificationError[]): Map<string, string[]> {
  const asked = new Map<string, string[]>();
  for (const error of missing) {
    if (error.type !== 'MISSING_FIELD' || error.resourceId === customerId || !error.field) continue;
    asked.set(error.resourceId, [...(asked.get(error.resourceId) ?? []), error.field]);
  }
  return asked;
}

/**
 * The submission, or every problem with it at once: a field not asked for (the page changes only
 * what is missing, never, say, the email), a missing one left empty, a value the PATCH route
 * would refuse, a document of a type not asked for, a bad file.
 */
export function parseKycLinkForm(
  form: DocumentForm<KycLinkFormDto>,
  customer: { customerId: string; customerType: CustomerType },
  missing: VerificationError[],
): { submission: KycLinkSubmission } | { errors: FieldError[] } {
  const asked = fieldsAskedFor(customer.customerId, missing);
  const profile = withoutEmptyValues(form.value.profile ?? {});
  const errors = [...presenceErrors(profile, asked, 'profile'), ...form.errors.filter((error) => error.field !== 'file')];
  const patch = profilePatch(profile, customer.customerType, errors);
  const owners = ownerChanges(withoutEmptyValues(form.value.owners ?? {}), ownerFieldsAskedFor(customer.customerId, missing), errors);
  if (missing.some((error) => error.type === 'MISSING_BENEFICIAL_OWNER')) {
    errors.push({ field: 'newOwner', constraint: {}, message: 'Add a beneficial owner first' });
  }
  const documentTypes = documentTypesAskedFor(missing);
  let document: KycLinkSubmission['document'] = null;
  if (documentTypes.length > 0) {
    errors.push(...form.errors.filter((error) => error.field === 'file'));
    const { value, errors: documentErrors } = checkBody(DocumentReplaceFieldsDto, withoutEmptyValues(form.value.document ?? {}));
    errors.push(...documentErrors.map((error) => ({ ...error, field: `document.${error.field}` })));
    if (documentErrors.length === 0 && !documentTypes.includes(value.documentType)) {
      errors.push({ field: 'document.documentType', constraint: { enum: documentTypes }, message: `The document must be one of: ${documentTypes.join(', ')}` });
    }
    if (errors.length === 0 && form.file) {
      const file = { buffer: form.file.buffer, originalName: form.file.originalname || 'document', contentType: form.file.mimetype };
      const metadata = { documentType: value.documentType, country: value.country, side: value.side ?? null, documentNumber: value.documentNumber ?? null, issuingAuthority: value.issuingAuthority ?? null };
      document = { file, metadata };
    }
  }
  return errors.length > 0 ? { errors } : { submission: { patch, owners, document } };
}

/** Fields not asked for, and asked ones left empty (`businessInfo` and `personalInfo` hold fields of their own). */
function presenceErrors(given: Record<string, unknown>, asked: string[], prefix: string): FieldError[] {
  const errors: FieldError[] = [];
  const fields = Object.entries(given).flatMap(([key, value]) =>
    (key === 'businessInfo' || key === 'personalInfo') && value && typeof value === 'object' ? Object.keys(value).map((inner) => `${key}.${inner}`) : [key],
  );
  const named = prefix === 'profile' ? '' : `${prefix}: `;
  for (const field of fields) {
    if (!asked.includes(field)) errors.push({ field: `${prefix}.${field}`, constraint: {}, message: `${named}${field} is not asked for on this page` });
  }
  for (const field of asked) {
    if (!fields.includes(field)) errors.push({ field: `${prefix}.${field}`, constraint: {}, message: `${named}${field} is required` });
  }
  return errors;
}

/** Each owner's missing fields as `PATCH /beneficial-owners/{id}` takes them (the form sends the percentage as text). */
function ownerChanges(given: Record<string, unknown>, asked: Map<string, string[]>, errors: FieldError[]): KycLinkSubmission['owners'] {
  for (const ownerId of Object.keys(given)) {
    if (!asked.has(ownerId)) errors.push({ field: `owners.${ownerId}`, constraint: {}, message: `Owner ${ownerId} is not asked for on this page` });
  }
  const owners: KycLinkSubmission['owners'] = [];
  for (const [ownerId, fields] of asked) {
    const body = { ...((given[ownerId] as Record<string, unknown> | undefined) ?? {}) };
    if (typeof body.ownershipPercentage === 'string' && /^\d{1,3}$/.test(body.ownershipPercentage)) body.ownershipPercentage = Number(body.ownershipPercentage);
    const found = [...presenceErrors(body, fields, `owners.${ownerId}`), ...checkBody(UpdateBeneficialOwnerDto, body).errors.map((error) => ({ ...error, field: `owners.${ownerId}.${error.field}` }))];
    errors.push(...found);
    if (found.length === 0) owners.push({ beneficialOwnerId: ownerId, changes: beneficialOwnerChanges(checkBody(UpdateBeneficialOwnerDto, body).value) });
  }
  return owners;
}

/** The PATCH the fields make, checked by the PATCH route's DTO of the customer's type. */
function profilePatch(profile: Record<string, unknown>, customerType: CustomerType, errors: FieldError[]): KycLinkSubmission['patch'] {
  const prefixed = (found: FieldError[]) => found.map((error) => ({ ...error, field: `profile.${error.field}` }));
  if (customerType === 'BUSINESS') {
    const { value, errors: found } = checkBody(UpdateBusinessCustomerDto, profile);
    errors.push(...prefixed(found));
    return found.length === 0 ? businessPatch(value) : {};
  }
  const { value, errors: found } = checkBody(UpdateIndividualCustomerDto, profile);
  errors.push(...prefixed(found));
  return found.length === 0 ? individualPatch(value) : {};
}

/** The owner form: the first owner of a business without one, checked as `POST /customers`' inline owners are. */
export function parseNewOwnerForm(form: DocumentForm<KycLinkFormDto>, missing: VerificationError[]): { owner: BeneficialOwner } | { errors: FieldError[] } {
  if (!missing.some((error) => error.type === 'MISSING_BENEFICIAL_OWNER')) {
    return { errors: [{ field: 'newOwner', constraint: {}, message: 'No beneficial owner is asked for on this page' }] };
  }
  const unreadable = form.errors.filter((error) => error.field !== 'file');
  if (unreadable.length > 0) return { errors: unreadable };
  const given = withoutEmptyValues(form.value.newOwner ?? {});
  const percentage = given.ownershipPercentage;
  const body = { ...given, ...(typeof percentage === 'string' && /^\d{1,3}$/.test(percentage) ? { ownershipPercentage: Number(percentage) } : {}) };
  const { value, errors } = checkBody(BeneficialOwnerDto, body);
  if (errors.length > 0) return { errors: errors.map((error) => ({ ...error, field: `newOwner.${error.field}`, message: `Beneficial owner: ${error.message}` })) };
  return { owner: toBeneficialOwner(value) };
}

/**
 * A browser sends every input, the empty ones as ''; those are not given. Keys are defined as own
 * properties (a `__proto__` field stays a field, refused as not asked for).
 */
function withoutEmptyValues(value: Record<string, unknown>): Record<string, unknown> {
  const result: Record<string, unknown> = {};
  const keep = (key: string, inner: unknown) => Object.defineProperty(result, key, { value: inner, enumerable: true, writable: true, configurable: true });
  for (const [key, inner] of Object.entries(value)) {
    if (typeof inner === 'string') {
      if (inner.trim() !== '') keep(key, inner.trim());
    } else if (inner && typeof inner === 'object' && !Array.isArray(inner)) {
      const nested = withoutEmptyValues(inner as Record<string, unknown>);
      if (Object.keys(nested).length > 0) keep(key, nested);
    } else {
      keep(key, inner);
    }
  }
  return result;
}
