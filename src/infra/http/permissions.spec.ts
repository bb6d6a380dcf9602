import { ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { Permission, RequiresPermission, missingPermissions } from './permissions';
import { AuthenticationResult, PlatformAuthGuard } from './platform-auth.guard';

class Declared {
  @RequiresPermission('VIEW') read(): void {}
  @RequiresPermission('TRANSACT') pay(): void {}
  undeclared(): void {}
}

@RequiresPermission('MANAGE')
class ManagedByDefault {
  change(): void {}
  @RequiresPermission('VIEW') read(): void {}
}

/** The guard over a fake authenticator that grants `permissions`. */
function guardGranting(permissions: Permission[]): PlatformAuthGuard {
  const result: AuthenticationResult = { outcome: 'authenticated', platform: { platformId: 'Platform:p', clientId: 'client_c', permissions } };
  return new PlatformAuthGuard(new Reflector(), { authenticate: async () => result });
}

function contextFor(controller: new () => object, handler: string): ExecutionContext {
  const request = { headers: { authorization: `Basic ${Buffer.from('client_c:secret').toString('base64')}` }, socket: { remoteAddress: '127.0.0.1' } };
  return {
    getHandler: () => (controller.prototype as Record<string, unknown>)[handler],
    getClass: () => controller,
    switchToHttp: () => ({ getRequest: () => request }),
  } as unknown as ExecutionContext;
}

async function refusal(guard: PlatformAuthGuard, context: ExecutionContext): Promise<unknown> {
  try {
    await guard.canActivate(context);
    return null;
  } catch (error) {
    const { code, message, details } = error as { code: string; message: string; details: unknown };
    return { code, message, details };
  }
}

describe('permissions', () => {
  it('lists what a credential lacks, in the reference\'s order', () => {
    expect(missingPermissions(['MANAGE', 'VIEW'], ['TRANSACT'])).toEqual(['VIEW', 'MANAGE']);
    expect(missingPermissions(['VIEW'], ['VIEW', 'MANAGE'])).toEqual([]);
  });

  it('the guard passes a credential holding the declared permission and refuses one without it, naming it', async () => {
    expect(await refusal(guardGranting(['VIEW']), contextFor(Declared, 'read'))).toBeNull();
    expect(await refusal(guardGranting(['VIEW']), contextFor(Declared, 'pay'))).toEqual({
      code: 'FORBIDDEN', message: 'This credential lacks the TRANSACT permission', details: { reason: 'MISSING_PERMISSION', missingPermissions: ['TRANSACT'] },
    });
  });

  it('a handler\'s own declaration wins over its controller\'s', async () => {
    expect(await refusal(guardGranting(['VIEW']), contextFor(ManagedByDefault, 'read'))).toBeNull();
    expect(await refusal(guardGranting(['VIEW']), contextFor(ManagedByDefault, 'change'))).toEqual(expect.objectContaining({ code: 'FORBIDDEN' }));
    expect(await refusal(guardGranting(['MANAGE']), contextFor(ManagedByDefault, 'change'))).toBeNull();
  });

  it('a route that declares nothing fails closed: only credentials holding every permission pass', async () => {
    expect(await refusal(guardGranting(['VIEW', 'MANAGE']), contextFor(Declared, 'undeclared'))).toEqual({
      code: 'FORBIDDEN', message: 'This credential lacks the TRANSACT permission', details: { reason: 'MISSING_PERMISSION', missingPermissions: ['TRANSACT'] },
    });
    expect(await refusal(guardGranting(['VIEW', 'TRANSACT', 'MANAGE']), contextFor(Declared, 'undeclared'))).toBeNull();
  });
});
