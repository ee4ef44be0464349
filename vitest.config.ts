import { configDefaults, defineConfig } from 'vitest/config';
import { fileURLToPath } from 'node:url';

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));

export default defineConfig({
  resolve: {
    // Tests run the TypeScript sources; the Node entry registers the WASM loader. Tests get it through
    // test/support/checked-media.ts, whose `process` refuses any output the strict oracle refuses.
    alias: {
      '@glimpse/media': here('./test/support/checked-media.ts'),
      '@glimpse/agent': here('./packages/agent/src/index.ts'),
      '@glimpse/heif': here('./packages/heif/src/entries/node.ts'),
    },
  },
  test: {
    include: ['packages/*/src/**/*.test.ts', 'test/**/*.test.ts'],
    // The public suites run on their own (vitest.conformance.config.ts, `npm run test:conformance`).
    exclude: [...configDefaults.exclude, 'test/conformance/**'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
