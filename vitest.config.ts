import { configDefaults, defineConfig } from 'vitest/config';
import { fileURLToPath } from 'node:url';

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));

export default defineConfig({
  resolve: {
    // Tests run the TypeScript sources through each package's Node entry (the media core's registers the
    // WASM loader, the agent's the local disk as default file system). The media core comes through
    // test/support/checked-media.ts, whose `process` refuses any output the strict oracle refuses.
    alias: [
      { find: /^@glimpse\/media$/, replacement: here('./test/support/checked-media.ts') },
      { find: /^@glimpse\/agent$/, replacement: here('./packages/agent/src/entries/index.node.ts') },
      // Every subpath of the agent is its entries/ file of the same name (package.json "exports").
      { find: /^@glimpse\/agent\/([\w-]+)$/, replacement: here('./packages/agent/src/entries/$1.ts') },
      { find: /^@glimpse\/heif$/, replacement: here('./packages/heif/src/entries/node.ts') },
    ],
  },
  test: {
    include: ['packages/*/src/**/*.test.ts', 'test/**/*.test.ts'],
    // Tests that import agent modules directly (not through an entry) get the default a Node app gets.
    setupFiles: ['test/support/node-default-file-system.ts'],
    // The public suites run on their own (vitest.conformance.config.ts, `npm run test:conformance`).
    exclude: [...configDefaults.exclude, 'test/conformance/**'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
