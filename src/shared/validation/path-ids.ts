import { ValidationError } from '../../infra/domain/domain-error';
import { IdPrefix, parseId } from '../../infra/ids';

/** A malformed id in a path is 400 INVALID_INPUT (DECISIONS.md section 1). */
export function requirePathId(prefix: IdPrefix, name: string, value: string): string {
  if (!parseId(prefix, value)) {
    throw new ValidationError([{ field: name, constraint: { format: `${prefix}-id` }, message: `${name} must be a ${prefix}:<uuid> id` }]);
  }
  return value;
}
