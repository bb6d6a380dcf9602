import type { NestExpressApplication } from '@nestjs/platform-express';
import type { NextFunction, Request, Response } from 'express';
import { DomainError, FieldError, ValidationError } from '../domain/domain-error';
import { logger } from '../logger';

/** Largest JSON body read (larger: 400 INVALID_INPUT, docs/api.md "Requests and answers"). */
export const JSON_BODY_LIMIT = '1mb';

/**
 * Deepest nesting of objects and arrays a JSON body may have (`{}` is 1). The reference's deepest
 * request body is 5 levels (PATCH /config, POST /agents), its free-form members (passkey
 * assertions, sender info) a few more; 32 leaves room and keeps every later recursive walk of the
 * body (idempotency fingerprint, class-transformer) far from the stack's end.
 */
export const MAX_JSON_DEPTH = 32;

/** At most this many offending fields are listed: a 1 MB body of NULs must not answer 10 MB. */
export const MAX_LISTED_TEXT_ERRORS = 100;

/**
 * Routes that read multipart/form-data themselves besides the app's `multipartPaths`, named below
 * the API version segment: the bulk customer CSV upload (docs/customers.md), and a document's
 * replacement (`PUT /documents/{documentId}`, a pattern: the path holds the id).
 */
const MULTIPART_VERSIONED_ROUTES = new Set(['customers/bulk/csv']);
const MULTIPART_VERSIONED_ROUTE_PATTERNS = [
  { method: 'PUT', route: /^documents\/[^/]+$/ },
  // The hosted KYC/KYB page's form (fields and a document), posted to the link itself.
  { method: 'POST', route: /^hosted\/kyc\/[^/]+$/ },
];

/** What decompression body-parser does (`zstd` only on Node versions that have it: not offered). */
const SUPPORTED_CONTENT_ENCODINGS = new Set(['identity', 'gzip', 'deflate', 'br']);

/**
 * How the service reads request bodies: refuses what it cannot read (415), parses JSON, then
 * refuses hostile values before anything else touches them. In this order, as the first
 * middleware; `multipartPaths` are the routes that read multipart/form-data themselves.
 */
export function installRequestBodyReading(app: NestExpressApplication, options: { multipartPaths: string[] }): void {
  const multipartPaths = new Set(options.multipartPaths.map(normalizedPath));
  app.use((request: Request, _response: Response, next: NextFunction) => next(unreadableBodyProblem(request, multipartPaths) ?? undefined));
  app.useBodyParser('json', { limit: JSON_BODY_LIMIT });
  app.use((request: Request, _response: Response, next: NextFunction) => next(hostileInputProblem(request) ?? undefined));
}

/** Whether the request carries body bytes (an empty body is no body: nothing to refuse). */
function carriesBody(request: Request): boolean {
  if (request.headers['transfer-encoding'] !== undefined) return true;
  const length = request.headers['content-length'];
  return length !== undefined && length !== '0';
}

/**
 * 415 UNSUPPORTED_MEDIA_TYPE for a body the service cannot read: not JSON (multipart only on
 * `multipartPaths`), a charset other than UTF-8 (RFC 8259 section 8.1), an unknown Content-Encoding.
 */
export function unreadableBodyProblem(request: Request, multipartPaths: ReadonlySet<string>): DomainError | null {
  if (!carriesBody(request)) return null;
  const contentType = parseContentType(request.headers['content-type']);
  if (!contentType) return unsupportedMediaType('A request body needs Content-Type: application/json');
  const path = normalizedPath(request.path);
  const route = path.split('/').slice(2).join('/');
  const multipartRoute =
    multipartPaths.has(path) ||
    MULTIPART_VERSIONED_ROUTES.has(route) ||
    MULTIPART_VERSIONED_ROUTE_PATTERNS.some((pattern) => pattern.method === request.method && pattern.route.test(route));
  const multipart = contentType.mediaType === 'multipart/form-data' && multipartRoute;
  if (!multipart && contentType.mediaType !== 'application/json') {
    return unsupportedMediaType(`Content-Type ${contentType.mediaType} is not supported: send application/json`);
  }
  if (!multipart && contentType.charset !== undefined && contentType.charset.toLowerCase() !== 'utf-8') {
    return unsupportedMediaType(`charset ${contentType.charset} is not supported: send UTF-8`);
  }
  const encoding = String(request.headers['content-encoding'] ?? 'identity').trim().toLowerCase();
  if (!SUPPORTED_CONTENT_ENCODINGS.has(encoding)) {
    return unsupportedMediaType(`Content-Encoding ${encoding} is not supported: send identity, gzip, deflate or br`);
  }
  return null;
}

const TOKEN = /^[!#$%&'*+.^_`|~0-9a-z-]+$/;

/** `type/subtype` (lower case) and the charset parameter of a Content-Type header; null when malformed. */
export function parseContentType(header: string | undefined): { mediaType: string; charset?: string } | null {
  if (header === undefined) return null;
  const [type, ...parameters] = header.split(';');
  const mediaType = type.trim().toLowerCase();
  const [main, sub, ...rest] = mediaType.split('/');
  if (rest.length > 0 || !main || !sub || !TOKEN.test(main) || !TOKEN.test(sub)) return null;
  let charset: string | undefined;
  for (const parameter of parameters) {
    if (parameter.trim() === '') continue;
    const equals = parameter.indexOf('=');
    if (equals < 0) return null;
    const name = parameter.slice(0, equals).trim().toLowerCase();
    let value = parameter.slice(equals + 1).trim();
    if (value.length >= 2 && value.startsWith('"') && value.endsWith('"')) value = value.slice(1, -1);
    if (!TOKEN.test(name)) return null;
    if (name === 'charset') charset = value;
  }
  return charset === undefined ? { mediaType } : { mediaType, charset };
}

function unsupportedMediaType(message: string): DomainError {
  return new DomainError('UNSUPPORTED_MEDIA_TYPE', message);
}

/** Paths compare as Express routes them: case-insensitively, a trailing slash ignored. */
function normalizedPath(path: string): string {
  return path.toLowerCase().replace(/\/+$/, '') || '/';
}

/**
 * 400 INVALID_INPUT for a parsed body nested deeper than MAX_JSON_DEPTH, or holding text Postgres
 * cannot store (U+0000, an unpaired surrogate) in any string or key of the body or of the query.
 */
export function hostileInputProblem(request: Request): ValidationError | null {
  const errors: FieldError[] = [];
  if (request.body !== undefined) {
    const tooDeep = depthProblem(request.body);
    if (tooDeep) return new ValidationError([tooDeep]);
    errors.push(...textProblems(request.body, ''));
  }
  errors.push(...queryTextProblems(request.query as Record<string, unknown>));
  if (errors.length === 0) return null;
  return new ValidationError(errors.slice(0, MAX_LISTED_TEXT_ERRORS));
}

/** The `body` field error when `value` nests deeper than `maxDepth`; iterative, so any depth is safe. */
export function depthProblem(value: unknown, maxDepth = MAX_JSON_DEPTH): FieldError | null {
  const stack: Array<[unknown, number]> = [[value, 1]];
  while (stack.length > 0) {
    const [current, depth] = stack.pop()!;
    if (current === null || typeof current !== 'object') continue;
    if (depth > maxDepth) {
      const message = `The request body nests objects and arrays deeper than ${maxDepth} levels`;
      return { field: 'body', constraint: {}, message };
    }
    for (const child of Object.values(current)) {
      if (child !== null && typeof child === 'object') stack.push([child, depth + 1]);
    }
  }
  return null;
}

/** U+0000 or a UTF-16 surrogate without its pair. */
const UNSTORABLE_TEXT = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const UNSTORABLE_TEXT_GLOBAL = new RegExp(UNSTORABLE_TEXT.source, 'g');

export function isUnstorableText(text: string): boolean {
  return UNSTORABLE_TEXT.test(text);
}

/** A key as a field path shows it: offending code units written as `\uXXXX`. */
function printableKey(key: string): string {
  return key.replace(UNSTORABLE_TEXT_GLOBAL, (unit) => `\\u${unit.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

function textError(field: string, ofKey: boolean): FieldError {
  const what = ofKey ? 'field name' : 'text';
  return { field, constraint: {}, message: `${field}: the ${what} must not contain U+0000 or an unpaired surrogate` };
}

/**
 * Field errors for every string (value or key) of a parsed JSON value holding unstorable text,
 * in document order, at most MAX_LISTED_TEXT_ERRORS. Paths as validation names fields
 * (`a.b.0.c`; `body` for the value itself). Iterative; the value's depth is checked first.
 */
export function textProblems(value: unknown, prefix: string): FieldError[] {
  const errors: FieldError[] = [];
  // [value, its path, whether its key is the offending text]
  const stack: Array<[unknown, string, boolean]> = [[value, prefix, false]];
  while (stack.length > 0 && errors.length < MAX_LISTED_TEXT_ERRORS) {
    const [current, path, badKey] = stack.pop()!;
    if (badKey) {
      errors.push(textError(path, true));
      continue;
    }
    if (typeof current === 'string') {
      if (isUnstorableText(current)) errors.push(textError(path || 'body', false));
      continue;
    }
    if (current === null || typeof current !== 'object') continue;
    const entries = Object.entries(current);
    for (let index = entries.length - 1; index >= 0; index -= 1) {
      const [key, child] = entries[index];
      stack.push([child, path ? `${path}.${printableKey(key)}` : printableKey(key), isUnstorableText(key)]);
    }
  }
  return errors;
}

/** One field error per query parameter whose name or any value holds unstorable text. */
function queryTextProblems(query: Record<string, unknown> | undefined): FieldError[] {
  const errors: FieldError[] = [];
  for (const [name, value] of Object.entries(query ?? {})) {
    if (isUnstorableText(name)) errors.push(textError(printableKey(name), true));
    else if (textProblems(value, name).length > 0) errors.push(textError(name, false));
  }
  return errors;
}

/**
 * The answer to an error body-parser (or the decompression under it) raised while reading the
 * body: 415 for a charset or encoding it cannot decode, 400 INVALID_INPUT for anything else the
 * client sent wrong; never a 500. undefined for any other error.
 */
export function bodyReadingError(error: unknown): DomainError | undefined {
  if (error === null || typeof error !== 'object' || error instanceof DomainError) return undefined;
  const { type, code, status } = error as { type?: unknown; code?: unknown; status?: unknown };
  if (typeof type === 'string') {
    switch (type) {
      case 'encoding.unsupported':
      case 'charset.unsupported':
        return unsupportedMediaType(`The request body cannot be decoded: ${(error as Error).message}`);
      case 'entity.too.large':
        return new DomainError('INVALID_INPUT', 'The request body is too large');
      case 'entity.parse.failed':
        return unreadableBody('The request body is not valid JSON', { format: 'json' });
      case 'request.aborted':
        return unreadableBody('The request body ended before it was complete');
      case 'request.size.invalid':
        return unreadableBody('The request body does not have the length Content-Length gives');
      case 'stream.encoding.set':
      case 'stream.not.readable':
        // Something read the stream before the parser: a server fault, but the client can send again.
        logger.warn('request body stream was not readable by the parser', { type });
        return unreadableBody('The request body could not be read');
      default:
        if (status === 415) return unsupportedMediaType('The request body cannot be decoded');
        if (status === 413) return new DomainError('INVALID_INPUT', 'The request body is too large');
        return typeof status === 'number' && status >= 400 && status < 500 ? unreadableBody('The request body could not be read') : undefined;
    }
  }
  // zlib's errors (Z_DATA_ERROR, Z_BUF_ERROR, brotli's ERR_*) pass through body-parser untyped, as 400.
  if (status === 400 && typeof code === 'string' && (code.startsWith('Z_') || code.startsWith('ERR_'))) {
    return unreadableBody('The request body is not valid data for its Content-Encoding', { format: 'content-encoding' });
  }
  return undefined;
}

function unreadableBody(message: string, constraint: { format?: string } = {}): ValidationError {
  return new ValidationError([{ field: 'body', constraint, message }], 'INVALID_INPUT', message);
}
