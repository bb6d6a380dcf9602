'use strict';
/** Stops what test/support/global-setup.js started and removes its temporary directory. */
const { stopAll } = require('./global-setup.js');

module.exports = async function globalTeardown() {
  const started = globalThis.__TEST_INFRASTRUCTURE__;
  if (started) await stopAll(started);
};
