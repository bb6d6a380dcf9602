import { CommandBus } from '@nestjs/cqrs';
import { InfraLifecycle } from '../../src/infra/infra.module';
import { startTestApp } from '../support/test-app';

/**
 * Tasks and reactors send commands through the CommandBus as soon as InfraLifecycle starts them
 * (jobs left from before a restart run at once). The bus learns its handlers in CqrsModule's own
 * bootstrap hook, so CqrsModule must come before InfraModule in the app module's imports: this
 * fails if the order is changed.
 */
describe('command bus at start', () => {
  const originalRegister = CommandBus.prototype.register;
  const originalBootstrap = InfraLifecycle.prototype.onApplicationBootstrap;

  afterAll(() => {
    CommandBus.prototype.register = originalRegister;
    InfraLifecycle.prototype.onApplicationBootstrap = originalBootstrap;
  });

  it('knows every command handler before the projector and the task workers start', async () => {
    let registered = 0;
    const handlersWhenInfraStarted: number[] = [];
    CommandBus.prototype.register = function (this: CommandBus, handlers = []) {
      registered += handlers.length;
      return originalRegister.call(this, handlers);
    };
    InfraLifecycle.prototype.onApplicationBootstrap = async function (this: InfraLifecycle) {
      handlersWhenInfraStarted.push(registered);
      return originalBootstrap.call(this);
    };
    const app = await startTestApp();
    await app.close();
    expect(handlersWhenInfraStarted).toHaveLength(1);
    expect(handlersWhenInfraStarted[0]).toBeGreaterThan(0);
  });
});
