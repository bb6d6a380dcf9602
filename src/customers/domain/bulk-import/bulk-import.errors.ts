import { DomainError } from '../../../infra/domain/domain-error';

/** `BULK_UPLOAD_JOB_NOT_FOUND` (404): an unknown job id, a malformed one, another platform's job. */
export function bulkImportJobNotFound(): DomainError {
  return new DomainError('BULK_UPLOAD_JOB_NOT_FOUND', 'Bulk upload job not found');
}
