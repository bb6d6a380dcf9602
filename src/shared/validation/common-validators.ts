import { ValidateBy, ValidateIf, ValidationOptions } from 'class-validator';

/**
 * Validators shared by the request DTOs of several contexts. `Optional()` differs from
 * class-validator's IsOptional: it skips only an absent field, so an explicit `null` is still
 * checked (and refused by the type validators): omit a field instead of sending null.
 */
export function Optional(): PropertyDecorator {
  return ValidateIf((_object, value) => value !== undefined);
}

/** A real calendar date `YYYY-MM-DD` (field error hint `{ format: 'date' }`). */
export function IsCalendarDate(options?: ValidationOptions & { past?: boolean }): PropertyDecorator {
  return ValidateBy(
    {
      name: 'isCalendarDate',
      validator: {
        validate: (value: unknown) => isCalendarDate(value) && (!options?.past || Date.parse(`${value}T00:00:00Z`) < Date.now()),
        defaultMessage: (args) =>
          `${args?.property} must be a calendar date YYYY-MM-DD${options?.past ? ' in the past' : ''}`,
      },
    },
    options,
  );
}

export function isCalendarDate(value: unknown): boolean {
  if (typeof value !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const date = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === value && date.getUTCFullYear() >= 1900;
}

/** ISO 3166-1 alpha-2, upper case (field error hint `{ format: 'iso3166-1-alpha-2' }`). */
export function IsCountryCode(options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'isCountryCode',
      validator: {
        validate: (value: unknown) => typeof value === 'string' && /^[A-Z]{2}$/.test(value),
        defaultMessage: (args) => `${args?.property} must be an ISO 3166-1 alpha-2 country code such as US`,
      },
    },
    options,
  );
}

export const E164_PHONE = /^\+[1-9]\d{1,14}$/;
/** Case-insensitive, spelled out rather than flagged: a field error hands its source to clients as a flagless pattern. */
export const UMA_ADDRESS = /^\$[a-zA-Z0-9._+-]{1,64}@[a-zA-Z0-9-]+(\.[a-zA-Z0-9-]+)+$/;
