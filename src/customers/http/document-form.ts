import type { Request, Response } from 'express';
import multer from 'multer';
import { IsDefined, IsIn, IsString, MaxLength, MinLength } from 'class-validator';
import { FieldError, ValidationError } from '../../infra/domain/domain-error';
import { checkBody } from '../../infra/http/validation';
import { IsCountryCode, Optional } from '../../shared/validation/common-validators';

/**
 * The multipart form of `POST /documents` and `PUT /documents/{documentId}`: one file part named
 * `file` and the metadata as form fields. Sandbox accepts JPEG, PNG or PDF (SPEC.md), up to 10 MB,
 * checked by content, not only by the claimed type.
 */
export const MAX_DOCUMENT_BYTES = 10 * 1024 * 1024;
const ACCEPTED_TYPES: Record<string, (bytes: Buffer) => boolean> = {
  'image/jpeg': (bytes) => bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff,
  'image/png': (bytes) => bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])),
  'application/pdf': (bytes) => bytes.subarray(0, 5).toString('latin1') === '%PDF-',
};

export const DOCUMENT_TYPES = [
  'PASSPORT', 'DRIVERS_LICENSE', 'NATIONAL_ID', 'PROOF_OF_ADDRESS', 'BANK_STATEMENT', 'TAX_RETURN',
  'CERTIFICATE_OF_INCORPORATION', 'ARTICLES_OF_INCORPORATION', 'ARTICLES_OF_ASSOCIATION', 'STATE_REGISTRY_EXCERPT',
  'GOOD_STANDING_CERTIFICATE', 'INFORMATION_STATEMENT', 'INCUMBENCY_CERTIFICATE', 'BUSINESS_LICENSE',
  'SHAREHOLDER_REGISTER', 'POWER_OF_ATTORNEY', 'UTILITY_BILL', 'ELECTRICITY_BILL', 'RENT_OR_LEASE_AGREEMENT',
  'DIRECTOR_REGISTRY', 'TRUST_AGREEMENT', 'STATE_COMPANY_REGISTRY', 'PARTNERSHIP_CONTROL_AGREEMENT', 'PARTNERSHIP_AGREEMENT', 'SELFIE',
  'OTHER',
];

/** The reference's BaseDocumentRequest without the file: what a replacement sends. */
export class DocumentReplaceFieldsDto {
  @IsDefined() @IsString() @IsIn(DOCUMENT_TYPES) documentType: string;
  @IsDefined() @IsString() @IsCountryCode() country: string;
  @Optional() @IsString() @IsIn(['FRONT', 'BACK']) side?: string;
  @Optional() @IsString() @MinLength(1) @MaxLength(64) documentNumber?: string;
  @Optional() @IsString() @MinLength(1) @MaxLength(256) issuingAuthority?: string;
}

/** An upload also names its holder. */
export class DocumentFieldsDto extends DocumentReplaceFieldsDto {
  @IsDefined() @IsString() documentHolder: string;
}

/** The multipart body's file part, as @ApiBody declares it (the DTO gives the other fields). */
export const DOCUMENT_FILE_PART = {
  schema: {
    type: 'object' as const,
    required: ['file'],
    properties: { file: { type: 'string' as const, format: 'binary', description: 'The document: a JPEG, PNG or PDF of at most 10 MB' } },
  },
};

const upload = multer({
  storage: multer.memoryStorage(),
  limits: { fileSize: MAX_DOCUMENT_BYTES, files: 1, fields: 20, fieldSize: 4096, parts: 25 },
}).single('file');

export interface DocumentForm<T> {
  value: T;
  /** Every bad field, the file's included; the caller adds its own checks, then throws them all. */
  errors: FieldError[];
  file: Express.Multer.File | undefined;
}

/**
 * Reads the multipart body and checks its fields against `dto` and its file part. A body that is
 * not multipart, or that breaks multer's limits, is a 400 at once (nothing else can be read).
 */
export async function readDocumentForm<T extends object>(request: Request, response: Response, dto: new () => T, operation: string): Promise<DocumentForm<T>> {
  if (!request.is('multipart/form-data')) {
    throw new ValidationError([{ field: 'body', constraint: {}, message: `${operation} takes multipart/form-data with a file part` }]);
  }
  await new Promise<void>((resolve, reject) => upload(request, response, (error: unknown) => (error ? reject(uploadError(error)) : resolve())));
  const { value, errors } = checkBody(dto, { ...(request.body ?? {}) });
  const file = (request as Request & { file?: Express.Multer.File }).file;
  return { value, errors: [...errors, ...fileErrors(file)], file };
}

function fileErrors(file: Express.Multer.File | undefined): FieldError[] {
  if (!file) return [{ field: 'file', constraint: {}, message: 'file is required (a JPEG, PNG or PDF part named "file")' }];
  if (file.size === 0) return [{ field: 'file', constraint: {}, message: 'file is empty' }];
  const matches = ACCEPTED_TYPES[file.mimetype];
  if (!matches) {
    return [{ field: 'file', constraint: {}, message: `file type ${file.mimetype || 'unknown'} is not accepted; send a JPEG, PNG or PDF` }];
  }
  if (!matches(file.buffer)) {
    return [{ field: 'file', constraint: {}, message: `file content is not a valid ${file.mimetype} file` }];
  }
  return [];
}

function uploadError(error: unknown): ValidationError {
  const code = (error as { code?: string }).code;
  switch (code) {
    case 'LIMIT_FILE_SIZE':
      return new ValidationError([{ field: 'file', constraint: {}, message: `file must be at most ${MAX_DOCUMENT_BYTES / (1024 * 1024)} MB` }]);
    case 'LIMIT_UNEXPECTED_FILE':
      return new ValidationError([
        { field: (error as { field?: string }).field ?? 'file', constraint: {}, message: 'Only one file part, named "file", is accepted' },
      ]);
    case 'LIMIT_FIELD_VALUE':
    case 'LIMIT_FIELD_COUNT':
    case 'LIMIT_PART_COUNT':
    case 'LIMIT_FIELD_KEY':
      return new ValidationError([{ field: (error as { field?: string }).field ?? 'body', constraint: {}, message: 'A form field is too large or there are too many' }]);
    default:
      return new ValidationError([{ field: 'body', constraint: {}, message: 'The multipart body is malformed' }]);
  }
}
