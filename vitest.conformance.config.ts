// `npm run test:conformance`: the public suites (test/conformance/), kept out of `npm test` because they
// fetch Debian source packages on first use and take minutes. CI runs them after `npm test`.
import { defineConfig } from 'vitest/config';
import base from './vitest.config.js';

export default defineConfig({
  resolve: base.resolve,
  test: { include: ['test/conformance/**/*.test.ts'], testTimeout: 1_800_000, hookTimeout: 600_000 },
});
