// `toAiSdkModelOutput` through the real `ai@7`: `file` items, no deprecation warning, and the very same request
// bytes the deprecated `image-data`/`file-data` items produce.
import type { ToolResultOutput } from '@ai-sdk/provider-utils';
import { generateText, jsonSchema, stepCountIs, tool } from 'ai';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readSample } from './support/read-sample.js';
import { createFileTools, type ToolResult } from '../packages/agent/src/index.js';
import { toAiSdkModelOutput } from '../packages/agent/src/entries/ai-sdk.js';
import { MemoryFileSystem } from '../packages/agent/src/entries/fs.js';
import { AI_SDK_PROVIDERS } from './support/ai-sdk-providers.js';
import { captureFetch } from './support/capture-fetch.js';
import { findWireMedia } from './support/wire-media.js';

const read = readSample;
const files = createFileTools({
  fileSystem: new MemoryFileSystem({
    files: { '/work/photo.jpg': await read('photo-exif6.jpg'), '/work/report.pdf': await read('report.pdf') },
  }),
  root: '/work',
  route: { provider: 'anthropic', model: 'claude-sonnet-4-6' },
});

/** ai@6's form of the same output (`image-data`/`file-data` items), which ai@7 still takes, deprecated. */
const legacyOutput = (result: ToolResult): ToolResultOutput => toAiSdkModelOutput(result, { aiSdk: 6 });

let sdkWarnings: Array<{ type: string; setting?: string }> = [];
beforeEach(() => {
  sdkWarnings = [];
  (globalThis as { AI_SDK_LOG_WARNINGS?: unknown }).AI_SDK_LOG_WARNINGS = (options: { warnings: typeof sdkWarnings }) =>
    sdkWarnings.push(...options.warnings);
});
afterEach(() => {
  delete (globalThis as { AI_SDK_LOG_WARNINGS?: unknown }).AI_SDK_LOG_WARNINGS;
});

async function viewBoth(toModelOutput: (result: ToolResult) => ToolResultOutput) {
  const anthropic = AI_SDK_PROVIDERS.find((p) => p.route === 'anthropic')!;
  const viewFile = tool({
    description: files.viewFile.definition.description,
    inputSchema: jsonSchema<{ path: string }>(files.viewFile.definition.parameters),
    execute: (input, { abortSignal }) => files.viewFile.execute(input, abortSignal ? { signal: abortSignal } : {}),
    toModelOutput: ({ output }) => toModelOutput(output),
  });
  let calls = 0;
  const capture = captureFetch(() => {
    calls++;
    if (calls === 1) return anthropic.toolCall('view_file', 'toolu_1');
    if (calls === 2) return anthropic.toolCall('view_file', 'toolu_2');
    return anthropic.text('done');
  });
  // The model asks for the photo, then the PDF.
  let asked = 0;
  const paths = ['photo.jpg', 'report.pdf'];
  const fetchWithArgs: typeof fetch = async (input, init) => {
    const response = await capture.fetch(input, init);
    const body = await response.text();
    return new Response(body.replace('"input":{}', `"input":{"path":"${paths[asked++] ?? ''}"}`), response);
  };
  await generateText({
    model: anthropic.model(fetchWithArgs),
    tools: { view_file: viewFile },
    prompt: 'Look at photo.jpg and report.pdf.',
    stopWhen: stepCountIs(3),
  });
  return capture.requests.at(-1)!;
}

describe('toAiSdkModelOutput on ai@7', () => {
  it('emits file items: fitted media reach the wire with no deprecation warning', async () => {
    const request = await viewBoth(toAiSdkModelOutput);
    expect(sdkWarnings).toEqual([]);
    const media = findWireMedia(request.json).map((m) => [m.path, m.mediaType]);
    expect(media).toEqual([
      ['messages.2.content.0.content.1.source.data', 'image/jpeg'],
      ['messages.4.content.0.content.1.source.data', 'application/pdf'],
    ]);
  });

  it('sends the same bytes as the deprecated image-data/file-data items, which warn', async () => {
    const current = await viewBoth(toAiSdkModelOutput);
    const legacy = await viewBoth(legacyOutput);
    expect(legacy.text).toBe(current.text);
    expect(sdkWarnings.map((w) => w.setting)).toEqual(
      expect.arrayContaining([
        '"tool-result" content of type "image-data"',
        '"tool-result" content of type "file-data"',
      ]),
    );
  });

  it('is a ToolResultOutput at compile time', () => {
    const output = toAiSdkModelOutput({
      isError: false,
      parts: [{ type: 'image', mediaType: 'image/png', data: 'iVBORw0KGgo=' }],
    }) satisfies ToolResultOutput;
    expect(output.type).toBe('content');
  });
});
