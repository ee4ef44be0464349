// The AI SDK middleware through the real `ai` package and every provider package, on a capturing fetch: what
// reaches the wire is fitted (dimensions), decodable (strict decoders) and where each API wants it.
import { createAmazonBedrock } from '@ai-sdk/amazon-bedrock';
import { createGoogleGenerativeAI } from '@ai-sdk/google';
import { generateText, stepCountIs, tool, wrapLanguageModel, jsonSchema, type ModelMessage } from 'ai';
import { PDFDocument } from 'pdf-lib';
import { fitWorkingSize, PRESETS } from '@glimpse/media';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readSample } from './support/read-sample.js';
import { fitMediaMiddleware, type FitMediaWarning } from '../packages/agent/src/entries/ai-sdk.js';
import { resolveRoute } from '../packages/agent/src/route/resolve-route.js';
import { AI_SDK_PROVIDERS, type AiSdkProviderCase } from './support/ai-sdk-providers.js';
import { at } from './support/json-path.js';
import { captureFetch, type CapturedRequest } from './support/capture-fetch.js';
import { decodeStrictly, findWireMedia, type WireMedia } from './support/wire-media.js';

const sample = readSample;
const photo = await sample('photo-exif6.jpg'); // 4000x3000 stored, orientation 6: upright 3000x4000
const screenshot = await sample('screenshot.png'); // 2400x1500
const report = await sample('report.pdf'); // 2 pages
const base64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64');

const PRESET_OF = {
  anthropic: 'anthropic',
  'openai-chat': 'openai',
  'openai-responses': 'openai',
  gemini: 'gemini',
  bedrock: 'bedrock',
  ollama: 'ollama',
} as const;

/** A tool that knows nothing of glimpse: it hands the 1.7 MB camera original to the model as a `file` item. */
const camera = tool({
  description: 'Takes a photo.',
  inputSchema: jsonSchema<Record<string, never>>({ type: 'object', properties: {}, additionalProperties: false }),
  execute: async () => ({ name: 'photo.jpg', data: base64(photo) }),
  toModelOutput: ({ output }) => ({
    type: 'content',
    value: [
      { type: 'text', text: `Took ${output.name}.` },
      { type: 'file', data: { type: 'data', data: output.data }, mediaType: 'image/jpeg', filename: output.name },
    ],
  }),
});

const userTurn: ModelMessage = {
  role: 'user',
  content: [
    { type: 'text', text: 'Here is a screenshot and a report; then take a photo.' },
    { type: 'file', data: screenshot, mediaType: 'image/png', filename: 'screenshot.png' },
    { type: 'file', data: report, mediaType: 'application/pdf', filename: 'report.pdf' },
  ],
};

async function run(provider: AiSdkProviderCase, middleware = true) {
  const capture = captureFetch((_request, index) =>
    index === 0 ? provider.toolCall('camera', 'call_1') : provider.text('I see a hill under a sun.'),
  );
  const warnings: FitMediaWarning[] = [];
  const base = provider.model(capture.fetch);
  const model = middleware
    ? wrapLanguageModel({ model: base, middleware: fitMediaMiddleware({ onWarning: (w) => warnings.push(w) }) })
    : base;
  const result = await generateText({ model, tools: { camera }, messages: [userTurn], stopWhen: stepCountIs(2) });
  expect(result.text).toBe('I see a hill under a sun.');
  expect(capture.requests).toHaveLength(2);
  return { request: capture.requests[1]!, warnings };
}

/** The value at a JSON path of the body. */

let sdkWarnings: unknown[] = [];
beforeAll(() => {
  (globalThis as { AI_SDK_LOG_WARNINGS?: unknown }).AI_SDK_LOG_WARNINGS = (options: { warnings: unknown[] }) =>
    sdkWarnings.push(...options.warnings);
});
afterAll(() => {
  delete (globalThis as { AI_SDK_LOG_WARNINGS?: unknown }).AI_SDK_LOG_WARNINGS;
});

describe.each(AI_SDK_PROVIDERS)('fitMediaMiddleware on $route ($modelId)', (provider) => {
  const preset = PRESETS[PRESET_OF[provider.route]];
  // What the model works at: its own size where the registry knows it (Claude on Bedrock), else its preset's.
  const working =
    resolveRoute({ provider: provider.route, model: provider.modelId }).capabilities.workingSize ?? preset;
  let request: CapturedRequest;
  let media: WireMedia[];
  let pages: WireMedia[];
  let warnings: FitMediaWarning[];

  beforeAll(async () => {
    sdkWarnings = [];
    ({ request, warnings } = await run(provider));
    media = findWireMedia(request.json);
    // Ollama takes no PDFs: the report's pages ride as images after the screenshot in the user message.
    pages = provider.route === 'ollama' ? media.filter((m) => /^messages\.0\.images\.[1-9]$/.test(m.path)) : [];
    media = media.filter((m) => !pages.includes(m));
  });

  it('sends every image fitted to the route, upright, and decodable by a strict decoder', async () => {
    const images = media.filter((m) => m.mediaType.startsWith('image/'));
    expect(images).toHaveLength(2);
    const sizes = await Promise.all(images.map((m) => decodeStrictly(m.bytes)));
    const [shot, picture] = sizes;
    // The screenshot (2400x1500) and the photo (upright 3000x4000), each at the model's working size (edge,
    // short side, patch budget), aspect kept.
    expect(shot).toMatchObject(fitWorkingSize({ width: 2400, height: 1500 }, working));
    expect(shot!.width / shot!.height).toBeCloseTo(2400 / 1500, 2);
    expect(picture).toMatchObject(fitWorkingSize({ width: 3000, height: 4000 }, working));
    expect(picture!.width / picture!.height).toBeCloseTo(3 / 4, 2);
    for (const image of images) expect(image.bytes.length).toBeLessThanOrEqual(preset.maxBytes);
    expect(sdkWarnings.filter((w) => (w as { type?: string }).type === 'deprecated')).toEqual([]);
  });

  it('puts the tool-result photo where the API wants it', () => {
    const images = media.filter((m) => m.mediaType.startsWith('image/'));
    const toolImage = images[1]!;
    switch (provider.route) {
      case 'anthropic':
        expect(toolImage.path).toMatch(/^messages\.2\.content\.0\.content\.\d+\.source\.data$/);
        expect(at(request.json, 'messages.2.content.0.type')).toBe('tool_result');
        break;
      case 'openai-responses':
        expect(toolImage.path).toMatch(/^input\.\d+\.output\.\d+\.image_url$/);
        expect(at(request.json, toolImage.path.replace(/\.output\..*$/, '.type'))).toBe('function_call_output');
        break;
      case 'gemini':
        expect(toolImage.path).toMatch(/^contents\.2\.parts\.0\.functionResponse\.parts\.\d+\.inlineData\.data$/);
        break;
      case 'bedrock':
        expect(toolImage.path).toMatch(/^messages\.2\.content\.0\.toolResult\.content\.\d+\.image\.source\.bytes$/);
        break;
      case 'openai-chat': {
        // The tool message is plain text (no base64); ONE user message after it carries the photo.
        const messages = at(request.json, 'messages') as Array<{ role: string; content: unknown }>;
        const toolIndex = messages.findIndex((m) => m.role === 'tool');
        expect(typeof messages[toolIndex]!.content).toBe('string');
        expect(String(messages[toolIndex]!.content)).toContain('attached after the tool results, labelled call_1');
        expect(String(messages[toolIndex]!.content).length).toBeLessThan(500);
        expect(toolImage.path).toMatch(new RegExp(`^messages\\.${toolIndex + 1}\\.content\\.\\d+\\.image_url\\.url$`));
        expect(messages[toolIndex + 1]!.role).toBe('user');
        expect(messages).toHaveLength(toolIndex + 2);
        break;
      }
      case 'ollama': {
        const messages = at(request.json, 'messages') as Array<{ role: string; content: unknown; images?: string[] }>;
        const toolIndex = messages.findIndex((m) => m.role === 'tool');
        expect(String(messages[toolIndex]!.content).length).toBeLessThan(500);
        expect(toolImage.path).toBe(`messages.${toolIndex + 1}.images.0`);
        expect(messages[toolIndex + 1]!.role).toBe('user');
        break;
      }
    }
  });

  it('sends the PDF as a document where the route reads PDFs, and as text and page images where it does not', async () => {
    const pdfs = media.filter((m) => m.mediaType === 'application/pdf');
    expect(warnings).toEqual([]);
    if (provider.route === 'ollama') {
      expect(pdfs).toEqual([]);
      expect(request.text).toContain(
        '[report.pdf is given as its text and page images: this route takes no PDF documents]',
      );
      expect(request.text).toContain('Quarterly report, page 2 of 2');
      const sizes = await Promise.all(pages.map((m) => decodeStrictly(m.bytes)));
      expect(sizes).toEqual([1, 2].map(() => expect.objectContaining({ width: 1039, height: 1344 })));
      return;
    }
    expect(pages).toEqual([]);
    expect(pdfs).toHaveLength(1);
    expect((await PDFDocument.load(pdfs[0]!.bytes)).getPageCount()).toBe(2);
  });

  it('tells the model how to map coordinates back to the original', () => {
    expect(request.text).toMatch(
      /photo\.jpg was resized from 3000x4000 to \d+x\d+ px; multiply coordinates in it by [\d.]+/,
    );
  });
});

describe('without the middleware, on openai.chat', () => {
  it('ships the original photo as JSON text inside the tool message (what the middleware fixes)', async () => {
    const openaiChat = AI_SDK_PROVIDERS.find((p) => p.route === 'openai-chat')!;
    const { request } = await run(openaiChat, false);
    const messages = at(request.json, 'messages') as Array<{ role: string; content: unknown }>;
    const toolMessage = messages.find((m) => m.role === 'tool')!;
    expect(typeof toolMessage.content).toBe('string');
    expect(String(toolMessage.content).length).toBeGreaterThan(base64(photo).length);
    expect(findWireMedia(request.json).find((m) => m.mediaType === 'image/jpeg')?.path).toBeUndefined();
  });
});

describe('routes whose tool results cannot carry media on this model', () => {
  const cases = [
    {
      route: 'gemini',
      modelId: 'gemini-2.5-flash',
      build: (fetch: typeof globalThis.fetch) => createGoogleGenerativeAI({ apiKey: 'k', fetch })('gemini-2.5-flash'),
    },
    {
      route: 'bedrock',
      modelId: 'us.meta.llama3-2-90b-instruct-v1:0',
      build: (fetch: typeof globalThis.fetch) =>
        createAmazonBedrock({ region: 'us-east-1', accessKeyId: 'AKIDTEST', secretAccessKey: 's', fetch })(
          'us.meta.llama3-2-90b-instruct-v1:0',
        ),
    },
  ] as const;

  it.each(cases)(
    '$modelId: the photo follows the tool result in a user turn, and the result itself is text',
    async ({ route, build }) => {
      const provider = AI_SDK_PROVIDERS.find((p) => p.route === route)!;
      const capture = captureFetch((_r, index) =>
        index === 0 ? provider.toolCall('camera', 'call_1') : provider.text('ok'),
      );
      const model = wrapLanguageModel({ model: build(capture.fetch), middleware: fitMediaMiddleware() });
      await generateText({ model, tools: { camera }, prompt: 'Take a photo.', stopWhen: stepCountIs(2) });
      const body = capture.requests[1]!.json;
      const [image, ...rest] = findWireMedia(body);
      expect(rest).toEqual([]);
      if (route === 'gemini') {
        // One functionResponse with the text, then the photo in the next user content.
        // Gemini's reply names no call id, so the SDK made one up.
        expect(at(body, 'contents.2.parts.0.functionResponse.response.content')).toMatch(
          /\[1 image from this result is attached after the tool results, labelled \S+\]$/,
        );
        expect(at(body, 'contents.2.parts.0.functionResponse.parts')).toBeUndefined();
        expect(image!.path).toMatch(/^contents\.3\.parts\.\d+\.inlineData\.data$/);
        expect(at(body, 'contents.3.role')).toBe('user');
      } else {
        // Bedrock merges them into the one user message: toolResult (text), then the label and the image.
        expect(at(body, 'messages.2.content.0.toolResult.content.0.text')).toContain(
          'attached after the tool results, labelled call_1',
        );
        expect(image!.path).toMatch(/^messages\.2\.content\.\d+\.image\.source\.bytes$/);
      }
      const { width, height } = await decodeStrictly(image!.bytes);
      expect(Math.max(width, height)).toBe(route === 'gemini' ? 3072 : 2000);
      expect(height).toBeGreaterThan(width);
    },
  );
});
