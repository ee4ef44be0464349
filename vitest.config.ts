import { defineConfig } from 'vitest/config';
import { fileURLToPath } from 'node:url';

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));

export default defineConfig({
  resolve: {
    // Tests run the TypeScript sources; the Node entry registers the WASM loader.
    alias: {
      '@glimpse/media': here('./packages/media/src/entries/node.ts'),
      '@glimpse/agent': here('./packages/agent/src/index.ts'),
      '@glimpse/heif': here('./packages/heif/src/entries/node.ts'),
    },
  },
  test: {
    include: ['packages/*/src/**/*.test.ts', 'test/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
