// glimpse as a pi coding-agent extension, loaded by the real @mariozechner/pi-coding-agent (0.73.1) SDK: its
// tool_result hook fits what any tool returns before the model sees it.
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { getModel } from '@mariozechner/pi-ai';
import {
  AuthStorage,
  DefaultResourceLoader,
  SessionManager,
  SettingsManager,
  createAgentSession,
  type ExtensionFactory,
  type ToolDefinition,
} from '@mariozechner/pi-coding-agent';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { glimpsePiExtension } from '../packages/agent/src/entries/pi.js';
import { captureFetch } from './support/capture-fetch.js';
import { anthropicStream, sseResponse } from './support/stream-replies.js';
import { decodeStrictly, findWireMedia } from './support/wire-media.js';

const screenshot = await readFile(new URL('../samples/screenshot.png', import.meta.url)); // 2400x1500
const claude = getModel('anthropic', 'claude-sonnet-4-6');

/** An extension's tool, as pi's issue describes: its images bypass pi's own resizing. */
const screen: ToolDefinition = {
  name: 'screen',
  label: 'Screen',
  description: 'Captures the screen.',
  parameters: { type: 'object', properties: {} },
  execute: async () => ({
    content: [{ type: 'image', data: screenshot.toString('base64'), mimeType: 'image/png' }],
    details: undefined,
  }),
};

afterEach(() => {
  vi.unstubAllGlobals();
});

async function session(extensions: ExtensionFactory[]) {
  const dir = await mkdtemp(join(tmpdir(), 'glimpse-pi-'));
  let calls = 0;
  const capture = captureFetch((request) => {
    if (!request.url.includes('anthropic')) return new Response('not here', { status: 404 });
    calls++;
    return sseResponse(
      anthropicStream(
        calls === 1 ? { toolCalls: [{ id: 'toolu_1', name: 'screen', arguments: {} }] } : { text: 'A code review.' },
      ),
    );
  });
  vi.stubGlobal('fetch', capture.fetch);
  const resourceLoader = new DefaultResourceLoader({
    cwd: dir,
    agentDir: dir,
    extensionFactories: extensions,
    noSkills: true,
    noPromptTemplates: true,
    noThemes: true,
    noContextFiles: true,
  });
  await resourceLoader.reload();
  const { session } = await createAgentSession({
    cwd: dir,
    agentDir: dir,
    model: claude,
    authStorage: AuthStorage.inMemory({ anthropic: { type: 'api_key', key: 'test-key' } }),
    resourceLoader,
    sessionManager: SessionManager.inMemory(dir),
    settingsManager: SettingsManager.inMemory(),
    customTools: [screen],
    tools: ['screen'],
  });
  await session.prompt('What is on my screen?');
  const requests = capture.requests.filter((r) => r.url.includes('anthropic'));
  expect(requests).toHaveLength(2);
  return requests[1]!;
}

describe('glimpsePiExtension in pi', () => {
  it('is a pi ExtensionFactory', () => {
    expect(typeof (glimpsePiExtension() satisfies ExtensionFactory)).toBe('function');
  });

  it("fits an extension tool's screenshot for the session's model (Claude: 1,568 patches of 28 px)", async () => {
    const request = await session([glimpsePiExtension()]);
    const [image, ...rest] = findWireMedia(request.json);
    expect(rest).toEqual([]);
    expect(image!.path).toMatch(/^messages\.2\.content\.0\.content\.\d+\.source\.data$/);
    expect(await decodeStrictly(image!.bytes)).toMatchObject({ width: 1389, height: 868 });
    expect(request.text).toContain('was resized from 2400x1500 to 1389x868 px');
  });

  it('without it the 2400x1500 original goes out as it came', async () => {
    const request = await session([]);
    const [image] = findWireMedia(request.json);
    expect(await decodeStrictly(image!.bytes)).toMatchObject({ width: 2400, height: 1500 });
  });
});
