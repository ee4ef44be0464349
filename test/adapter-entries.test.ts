// The agent's entries, in the real split build: the core and the adapters pull in no provider SDK or agent
// framework at run time (they use their types only), and the live clients load each SDK only when used.
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Metafile } from 'esbuild';
import { beforeAll, describe, expect, it } from 'vitest';
import agentPackage from '../packages/agent/package.json';
import { SDK_PACKAGES } from '../packages/agent/src/clients/load-sdk.js';
import { buildAgent } from '../scripts/build-agent.mjs';

const SDKS = [...new Set(Object.values(SDK_PACKAGES))];
const FRAMEWORKS = [
  'ai',
  '@ai-sdk/provider',
  '@mariozechner/pi-ai',
  '@mariozechner/pi-agent-core',
  '@mariozechner/pi-coding-agent',
];

let metafile: Metafile;
beforeAll(async () => {
  metafile = await buildAgent({
    outdir: join(await mkdtemp(join(tmpdir(), 'glimpse-entries-')), 'dist'),
    write: false,
  });
});

/** Every external package an output reaches, with how: through static imports only, or also through dynamic ones. */
function externals(entry: string): { static: Set<string>; dynamic: Set<string> } {
  const outputs = metafile.outputs;
  const start = Object.keys(outputs).find((path) => path.endsWith(`/${entry}.js`));
  if (start === undefined) throw new Error(`no output ${entry}.js`);
  const found = { static: new Set<string>(), dynamic: new Set<string>() };
  const seen = new Set<string>();
  const walk = (path: string, dynamic: boolean) => {
    const key = `${path} ${dynamic}`;
    if (seen.has(key)) return;
    seen.add(key);
    for (const imported of outputs[path]?.imports ?? []) {
      const viaDynamic = dynamic || imported.kind === 'dynamic-import';
      const pkg = imported.path.startsWith('@')
        ? imported.path.split('/').slice(0, 2).join('/')
        : imported.path.split('/')[0]!;
      if (imported.external) (viaDynamic ? found.dynamic : found.static).add(pkg);
      else walk(imported.path, viaDynamic);
    }
  };
  walk(start, false);
  return found;
}

describe('the agent entries', () => {
  it('declare every provider SDK an optional peer dependency', () => {
    expect(SDKS).toHaveLength(5);
    for (const sdk of SDKS) {
      expect(Object.keys(agentPackage.peerDependencies), sdk).toContain(sdk);
      expect(agentPackage.peerDependenciesMeta, sdk).toHaveProperty([sdk, 'optional'], true);
    }
  });

  it.each(['index', 'ai-sdk', 'pi', 'providers', 'compaction', 'session', 'fs', 'tools'])(
    '%s reaches no provider SDK and no agent framework',
    (entry) => {
      const { static: statics, dynamic } = externals(entry);
      for (const name of [...SDKS, ...FRAMEWORKS]) {
        expect(statics.has(name), `${entry} imports ${name}`).toBe(false);
        expect(dynamic.has(name), `${entry} may load ${name}`).toBe(false);
      }
    },
  );

  it('clients loads each provider SDK only on use', () => {
    const { static: statics, dynamic } = externals('clients');
    for (const name of SDKS) {
      expect(statics.has(name), `clients imports ${name} up front`).toBe(false);
      expect(dynamic.has(name), `clients never loads ${name}`).toBe(true);
    }
  });
});
