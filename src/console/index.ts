/**
 * The console context's public entry: what other contexts, the read models and the app module may
 * use. Anything not exported here is internal to the context (test/architecture checks it).
 */
export { ConsoleModule } from './console.module';
export { CONSOLE_STATIC_PATHS } from './console-static.controller';
export { OperatorKey } from './operator/operator-key';
