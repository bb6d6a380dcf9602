import { SetMetadata } from '@nestjs/common';
import { ApiError } from './api-error';

/**
 * What a credential may do (the reference's Permission): VIEW reads, TRANSACT moves money, MANAGE
 * administers (configuration, API tokens, customers and their accounts). A credential holds a set
 * of them, none implying another; the platform's bootstrap credentials hold all three.
 */
export const PERMISSIONS = ['VIEW', 'TRANSACT', 'MANAGE'] as const;
export type Permission = (typeof PERMISSIONS)[number];

export const REQUIRED_PERMISSION = 'route:permission';

/**
 * The permission an operation needs, next to its route: on a handler, or on a controller for its
 * handlers without their own. PlatformAuthGuard refuses a credential without it (403 FORBIDDEN);
 * a route that declares none is open only to credentials holding every permission, and
 * test/e2e/platforms/route-permissions.e2e-spec.ts fails on it (docs/api.md "Permissions").
 */
export const RequiresPermission = (permission: Permission) => SetMetadata(REQUIRED_PERMISSION, permission);

/** The permissions of `needed` that `held` lacks, in PERMISSIONS order. */
export function missingPermissions(needed: readonly Permission[], held: readonly Permission[]): Permission[] {
  return PERMISSIONS.filter((permission) => needed.includes(permission) && !held.includes(permission));
}

/** 403 naming what the credential lacks (docs/api.md "Permissions"). */
export function forbidden(missing: Permission[]): ApiError {
  const named = missing.length === 1 ? `the ${missing[0]} permission` : `the ${missing.join(', ')} permissions`;
  return new ApiError('FORBIDDEN', `This credential lacks ${named}`, { reason: 'MISSING_PERMISSION', missingPermissions: missing });
}
