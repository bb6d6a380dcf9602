import { randomBytes } from 'node:crypto';
import { Inject } from '@nestjs/common';
import { Command, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { CommandStore } from '../../infra/commands/command-store';
import { newId, streamNameFor } from '../../infra/ids';
import { READ_MODEL_WAITER, READ_YOUR_WRITES_TIMEOUT_MS, ReadModelWaiter } from '../../infra/projections/read-model-waiter';
import { DEFAULT_SANDBOX_CONFIG } from '../domain/platform/platform.decider';
import { PlatformConfig } from '../domain/platform/platform.events';
import { PlatformCredentialStore } from '../platform-credentials';
import { PLATFORM_STREAM } from '../streams';

export interface PlatformRegistration {
  name?: string;
  /** Generated when absent (`client_<16 hex>`, `secret_<32 base64url>`). */
  clientId?: string;
  clientSecret?: string;
  /** Over the sandbox defaults. */
  config?: Partial<PlatformConfig>;
}

export interface CreatedPlatform {
  platformId: string;
  clientId: string;
  clientSecret: string;
}

/** A new platform (tenant) and its API credentials: the sandbox bootstrap, tests and benches send it. */
export class RegisterPlatform extends Command<CreatedPlatform> {
  constructor(readonly registration: PlatformRegistration = {}) {
    super();
  }
}

/** Records the platform, stores its credentials (secret hashed), and answers once they are usable. */
@CommandHandler(RegisterPlatform)
export class RegisterPlatformHandler implements ICommandHandler<RegisterPlatform, CreatedPlatform> {
  constructor(
    private readonly commands: CommandStore,
    private readonly credentials: PlatformCredentialStore,
    @Inject(READ_MODEL_WAITER) private readonly waiter: ReadModelWaiter,
  ) {}

  async execute({ registration }: RegisterPlatform): Promise<CreatedPlatform> {
    const platformId = newId('Platform');
    const clientId = registration.clientId ?? `client_${randomBytes(8).toString('hex')}`;
    const clientSecret = registration.clientSecret ?? `secret_${randomBytes(24).toString('base64url')}`;
    const registered = await this.commands.handle(PLATFORM_STREAM, streamNameFor(platformId), {
      type: 'RegisterPlatform',
      platformId,
      name: registration.name ?? 'Sandbox platform',
      config: { ...DEFAULT_SANDBOX_CONFIG, ...registration.config },
      now: new Date().toISOString(),
    });
    await this.credentials.store(platformId, clientId, clientSecret);
    // The credentials are usable at once: GET /config must find the platform's read model.
    if (registered.position) await this.waiter.waitFor(registered.position, READ_YOUR_WRITES_TIMEOUT_MS);
    return { platformId, clientId, clientSecret };
  }
}
