import { CanActivate, ExecutionContext, Inject, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request } from 'express';
import { currentContext } from '../request-context';
import { ApiError } from './api-error';
import { PERMISSIONS, Permission, REQUIRED_PERMISSION, forbidden, missingPermissions } from './permissions';
import { PUBLIC_ROUTE } from './route-metadata';

export const PLATFORM_AUTHENTICATOR = Symbol('PLATFORM_AUTHENTICATOR');

export interface AuthenticatedPlatform {
  platformId: string;
  clientId: string;
  /** What this credential may do: every permission for the bootstrap credentials, an API token's own set. */
  permissions: readonly Permission[];
}

export type AuthenticationResult =
  | { outcome: 'authenticated'; platform: AuthenticatedPlatform }
  /** Unknown client id or wrong secret: the same answer, after the same work. */
  | { outcome: 'refused' }
  /** Too many failed attempts for this client id or from this address in the current window. */
  | { outcome: 'rate-limited'; retryAfterSeconds: number };

/** Checks a platform's Basic credentials; implemented by the platforms context. */
export interface PlatformAuthenticator {
  authenticate(clientId: string, clientSecret: string, sourceAddress: string): Promise<AuthenticationResult>;
}

/** RFC 9110 section 11.6.1: a 401 names the scheme (and realm) the client should answer with. */
const BASIC_CHALLENGE = 'Basic realm="Payments API", charset="UTF-8"';

/**
 * HTTP Basic per platform (SPEC.md "Authentication" 1-2); sets the tenant for the request, then
 * refuses a credential without the permission the route declares (`@RequiresPermission`).
 */
@Injectable()
export class PlatformAuthGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    @Inject(PLATFORM_AUTHENTICATOR) private readonly authenticator: PlatformAuthenticator,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const isPublic =
      this.reflector.get<boolean>(PUBLIC_ROUTE, context.getHandler()) ||
      this.reflector.get<boolean>(PUBLIC_ROUTE, context.getClass());
    if (isPublic) return true;
    const request = context.switchToHttp().getRequest<Request & { platform?: AuthenticatedPlatform }>();
    const credentials = parseBasic(request.headers.authorization);
    if (!credentials) throw unauthorized();
    // The socket's peer (no `trust proxy`): a forwarded-for header is the client's to forge.
    const sourceAddress = request.socket.remoteAddress ?? 'unknown';
    const result = await this.authenticator.authenticate(credentials.clientId, credentials.clientSecret, sourceAddress);
    if (result.outcome === 'rate-limited') {
      const seconds = result.retryAfterSeconds;
      throw new ApiError(
        'RATE_LIMITED',
        `Too many failed authentication attempts; retry after ${seconds} seconds`,
        { retryAfterSeconds: seconds },
        { 'Retry-After': String(seconds) },
      );
    }
    if (result.outcome === 'refused') throw unauthorized();
    const platform = result.platform;
    request.platform = platform;
    const requestContext = currentContext();
    if (requestContext) {
      requestContext.platformId = platform.platformId;
      requestContext.actor = `platform:${platform.clientId}`;
    }
    const declared = this.reflector.getAllAndOverride<Permission | undefined>(REQUIRED_PERMISSION, [context.getHandler(), context.getClass()]);
    // A route without a declaration fails closed: only credentials holding every permission pass.
    const missing = missingPermissions(declared ? [declared] : PERMISSIONS, platform.permissions);
    if (missing.length > 0) throw forbidden(missing);
    return true;
  }
}

function unauthorized(): ApiError {
  return new ApiError('UNAUTHORIZED', 'Missing or invalid platform credentials', undefined, { 'WWW-Authenticate': BASIC_CHALLENGE });
}

function parseBasic(header: string | undefined): { clientId: string; clientSecret: string } | null {
  if (!header || !/^Basic /i.test(header)) return null;
  const decoded = Buffer.from(header.slice(6).trim(), 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon <= 0) return null;
  return { clientId: decoded.slice(0, colon), clientSecret: decoded.slice(colon + 1) };
}
