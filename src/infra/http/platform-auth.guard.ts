import { CanActivate, ExecutionContext, Inject, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request } from 'express';
import { DomainError } from '../domain/domain-error';
import { currentContext } from '../request-context';
import { PUBLIC_ROUTE } from './route-metadata';

export const PLATFORM_AUTHENTICATOR = Symbol('PLATFORM_AUTHENTICATOR');

export interface AuthenticatedPlatform {
  platformId: string;
  clientId: string;
}

/** Checks a platform's Basic credentials; implemented by the platforms context. */
export interface PlatformAuthenticator {
  authenticate(clientId: string, clientSecret: string): Promise<AuthenticatedPlatform | null>;
}

/** HTTP Basic per platform (SPEC.md "Authentication" 1-2); sets the tenant for the request. */
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
    const platform = credentials ? await this.authenticator.authenticate(credentials.clientId, credentials.clientSecret) : null;
    if (!platform) throw new DomainError('UNAUTHORIZED', 'Missing or invalid platform credentials');
    request.platform = platform;
    const requestContext = currentContext();
    if (requestContext) {
      requestContext.platformId = platform.platformId;
      requestContext.actor = `platform:${platform.clientId}`;
    }
    return true;
  }
}

function parseBasic(header: string | undefined): { clientId: string; clientSecret: string } | null {
  if (!header || !/^Basic /i.test(header)) return null;
  const decoded = Buffer.from(header.slice(6).trim(), 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon <= 0) return null;
  return { clientId: decoded.slice(0, colon), clientSecret: decoded.slice(colon + 1) };
}
