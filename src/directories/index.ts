/**
 * The directories context's public entry: what other contexts, the read models and the app module may
 * use. Anything not exported here is internal to the context (test/architecture checks it).
 */
export { DirectoriesModule } from './directories.module';
