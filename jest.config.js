// One jest run covers unit specs (*.spec.ts under src and projections), adapter contract suites
// (test/contract) and e2e suites (test/e2e) against real Postgres and Redis started once by the
// global setup.
module.exports = {
  rootDir: '.',
  testEnvironment: 'node',
  moduleFileExtensions: ['ts', 'js', 'json'],
  testRegex: '(src|projections)/.*\\.spec\\.ts$|test/.*\\.(e2e-spec|contract-spec|spec)\\.ts$',
  transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.test.json' }] },
  globalSetup: '<rootDir>/test/support/global-setup.js',
  globalTeardown: '<rootDir>/test/support/global-teardown.js',
  setupFilesAfterEnv: ['<rootDir>/test/support/contract-setup.ts'],
  testTimeout: 30000,
  maxWorkers: 2,
};
