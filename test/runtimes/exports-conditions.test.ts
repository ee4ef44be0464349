// `import '@glimpse/media'` must land on each runtime's bundle through the package's export conditions,
// resolved the way each toolchain does it (esbuild's resolver, with that runtime's conditions).
import { build, type Plugin } from 'esbuild';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../', import.meta.url));

async function resolveMedia(options: {
  platform: 'browser' | 'node' | 'neutral';
  conditions?: string[];
}): Promise<string> {
  let resolved = '';
  const capture: Plugin = {
    name: 'capture-media-resolution',
    setup(b) {
      b.onResolve({ filter: /^@glimpse\/media$/ }, async (args) => {
        if (args.pluginData === 'inner') return undefined;
        const result = await b.resolve(args.path, {
          kind: args.kind,
          resolveDir: args.resolveDir,
          pluginData: 'inner',
        });
        resolved = result.path;
        return { path: result.path, external: true };
      });
    },
  };
  await build({
    stdin: { contents: "import '@glimpse/media';", resolveDir: root },
    bundle: true,
    write: false,
    format: 'esm',
    plugins: [capture],
    logLevel: 'silent',
    ...options,
  });
  return resolved.slice(root.length);
}

describe('@glimpse/media export conditions', () => {
  it('picks the bundle of each runtime', async () => {
    expect(await resolveMedia({ platform: 'node' })).toBe('packages/media/dist/node.js');
    expect(await resolveMedia({ platform: 'browser' })).toBe('packages/media/dist/browser.js');
    expect(await resolveMedia({ platform: 'neutral', conditions: ['deno', 'node', 'import'] })).toBe(
      'packages/media/dist/deno.js',
    );
    // wrangler's conditions
    expect(await resolveMedia({ platform: 'browser', conditions: ['workerd', 'worker', 'browser'] })).toBe(
      'packages/media/dist/workerd.js',
    );
  });
});
