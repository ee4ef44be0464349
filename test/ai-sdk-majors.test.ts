// fitMediaMiddleware and toAiSdkModelOutput under both AI SDK majors (ai@7: LanguageModelV4, ai@6: V3), read at
// a local HTTP server standing in for each API: the photo arrives fitted, upright, without its GPS position,
// decodable by the strict oracle, and as an image part where the API wants one, never as base64 text or
// `[object Object]`. Before the V3 bridge, ai@6 sent the 1.7 MB sideways original to Anthropic and
// `data:image/jpeg;base64,[object Object]` to OpenAI Chat.
import { fitWorkingSize, PRESETS } from '@glimpse/media';
import sharp from 'sharp';
import { generateText as generateText6 } from 'ai-v6';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createFileTools } from '../packages/agent/src/index.js';
import { workingSizeFor } from '../packages/agent/src/route/working-sizes.js';
import { AiSdkVersionError, fitMediaMiddleware } from '../packages/agent/src/entries/ai-sdk.js';
import { MemoryFileSystem } from '../packages/agent/src/entries/fs.js';
import { AI_SDK_MAJORS, MAJOR_MODELS, type MajorCall, type MajorRoute } from './support/ai-sdk-majors.js';
import { startApiServer, type ApiServer } from './support/api-server.js';
import { at } from './support/json-path.js';
import { readSample } from './support/read-sample.js';
import { assertStrictlyValid } from './support/strict-oracle.js';
import { failsWith } from './support/typed-errors.js';
import { findWireMedia, type WireMedia } from './support/wire-media.js';

/** The camera original: 4000x3000 stored, EXIF orientation 6 (upright 3000x4000), and a GPS position. */
let photo: Buffer;
beforeAll(async () => {
  photo = await sharp(await readSample('photo-exif6.jpg'))
    .withExifMerge({
      IFD3: {
        GPSLatitudeRef: 'N',
        GPSLatitude: '48/1 51/1 2410/100',
        GPSLongitudeRef: 'E',
        GPSLongitude: '2/1 17/1 4000/100',
      },
    })
    .jpeg({ quality: 90 })
    .toBuffer();
  expect(hasGps((await sharp(photo).metadata()).exif)).toBe(true);
});

/** Whether EXIF holds the GPS IFD pointer (tag 0x8825, either byte order). */
function hasGps(exif: Buffer | undefined): boolean {
  if (exif === undefined) return false;
  for (let i = 0; i + 1 < exif.length; i++)
    if ((exif[i] === 0x88 && exif[i + 1] === 0x25) || (exif[i] === 0x25 && exif[i + 1] === 0x88)) return true;
  return false;
}

const PRESET_OF = {
  anthropic: 'anthropic',
  'openai-chat': 'openai',
  'openai-responses': 'openai',
  gemini: 'gemini',
  bedrock: 'bedrock',
} as const;
const ROUTES = Object.keys(MAJOR_MODELS) as MajorRoute[];

let server: ApiServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** Runs the two steps on `major` and returns the second request's body, the one that carries the tool result. */
async function secondRequest(
  run: (call: MajorCall) => Promise<void>,
  call: Pick<MajorCall, 'route' | 'middleware' | 'tool' | 'defaultOutputOn6'>,
): Promise<unknown> {
  const tools = createFileTools({
    fileSystem: new MemoryFileSystem({ files: { '/work/photo.jpg': photo } }),
    root: '/work',
    route: { provider: call.route, model: MAJOR_MODELS[call.route] },
  });
  server = await startApiServer([
    { toolCalls: [{ id: 'call_1', name: call.tool, arguments: {} }] },
    { text: 'A hill under a sun.' },
  ]);
  await run({
    ...call,
    url: server.url,
    photo: photo.toString('base64'),
    viewFile: () => tools.viewFile.execute({ path: 'photo.jpg' }),
  });
  expect(server.requests.map((request) => request.api)).toEqual([call.route, call.route]);
  return server.requests[1]!.body;
}

/** The one image of the body, after checking it is fitted, upright, free of GPS and sound to a strict decoder. */
async function theFittedPhoto(body: unknown, route: MajorRoute): Promise<WireMedia> {
  expect(JSON.stringify(body)).not.toContain('[object Object]');
  const images = findWireMedia(body).filter((media) => media.mediaType.startsWith('image/'));
  expect(images.map((image) => image.path)).toHaveLength(1);
  const image = images[0]!;
  assertStrictlyValid(image.bytes, image.mediaType, `the photo sent to ${route}`);
  const { width, height, orientation, exif } = await sharp(image.bytes).metadata();
  // At the size the route's model works at (Claude's patch budget, OpenAI's 768 px short side), within the preset.
  const working = workingSizeFor(MAJOR_MODELS[route], undefined).workingSize ?? {
    maxEdge: PRESETS[PRESET_OF[route]].maxEdge,
  };
  const expected = fitWorkingSize({ width: 3000, height: 4000 }, working);
  expect(height).toBe(Math.min(expected.height, PRESETS[PRESET_OF[route]].maxEdge));
  expect(width! / height!).toBeCloseTo(3 / 4, 2);
  expect(orientation ?? 1).toBe(1);
  expect(hasGps(exif)).toBe(false);
  // Nothing else of size travels: no second copy as text.
  expect(JSON.stringify(body).length).toBeLessThan(image.chars + 20_000);
  return image;
}

/** Where each API takes an image that came from a tool result. */
function expectToolImagePlace(body: unknown, route: MajorRoute, image: WireMedia): void {
  switch (route) {
    case 'anthropic':
      expect(image.path).toMatch(/^messages\.2\.content\.0\.content\.\d+\.source\.data$/);
      expect(at(body, 'messages.2.content.0.type')).toBe('tool_result');
      break;
    case 'openai-responses':
      expect(image.path).toMatch(/^input\.\d+\.output\.\d+\.image_url$/);
      expect(at(body, image.path.replace(/\.output\..*$/, '.type'))).toBe('function_call_output');
      break;
    case 'gemini':
      expect(image.path).toMatch(/^contents\.2\.parts\.0\.functionResponse\.parts\.\d+\.inlineData\.data$/);
      break;
    case 'bedrock':
      expect(image.path).toMatch(/^messages\.2\.content\.0\.toolResult\.content\.\d+\.image\.source\.bytes$/);
      break;
    case 'openai-chat': {
      // Tool messages are text only: the tool message says where the photo went, ONE user message after it has it.
      const messages = at(body, 'messages') as Array<{ role: string; content: unknown }>;
      const toolIndex = messages.findIndex((message) => message.role === 'tool');
      expect(String(messages[toolIndex]!.content)).toContain('attached after the tool results, labelled call_1');
      expect(image.path).toMatch(new RegExp(`^messages\\.${toolIndex + 1}\\.content\\.\\d+\\.image_url\\.url$`));
      expect(messages[toolIndex + 1]!.role).toBe('user');
      break;
    }
  }
}

describe.each(AI_SDK_MAJORS)('AI SDK $major', ({ run }) => {
  describe.each(ROUTES)('%s', (route) => {
    it("fitMediaMiddleware fits a glimpse-unaware tool's camera original and puts it where the API reads images", async () => {
      const body = await secondRequest(run, { route, middleware: true, tool: 'camera' });
      expectToolImagePlace(body, route, await theFittedPhoto(body, route));
    });

    it('toAiSdkModelOutput with fitMediaMiddleware: the view_file image as an image part', async () => {
      const body = await secondRequest(run, { route, middleware: true, tool: 'view_file' });
      expectToolImagePlace(body, route, await theFittedPhoto(body, route));
    });

    it.skipIf(route === 'openai-chat')(
      'toAiSdkModelOutput alone (no middleware): the API carries the image in the tool result',
      async () => {
        const body = await secondRequest(run, { route, middleware: false, tool: 'view_file' });
        expectToolImagePlace(body, route, await theFittedPhoto(body, route));
      },
    );
  });

  it('toAiSdkModelOutput alone on openai.chat: the tool message is base64 text, and no image part reaches the model', async () => {
    const body = await secondRequest(run, { route: 'openai-chat', middleware: false, tool: 'view_file' });
    const messages = at(body, 'messages') as Array<{ role: string; content: unknown }>;
    expect(messages.map((message) => message.role)).toEqual(['user', 'assistant', 'tool']);
    expect(typeof messages[2]!.content).toBe('string');
    // The fitted 768×1024 JPEG (gpt-4.1's working size) as base64 text: tens of kilobytes, no image.
    expect(String(messages[2]!.content).length).toBeGreaterThan(50_000);
    expect(findWireMedia(body).filter((media) => media.path.endsWith('image_url.url'))).toEqual([]);
  });
});

describe('AI SDK 6 only', () => {
  const run = AI_SDK_MAJORS.find((entry) => entry.major === 6)!.run;

  it("toAiSdkModelOutput's default (file items) is lost without { aiSdk: 6 }, and the middleware rescues it", async () => {
    // ai@6's Anthropic provider drops a `file` item ("unsupported tool content part type: file").
    const lost = await secondRequest(run, {
      route: 'anthropic',
      middleware: false,
      tool: 'view_file',
      defaultOutputOn6: true,
    });
    expect(findWireMedia(lost)).toEqual([]);
    const rescued = await secondRequest(run, {
      route: 'openai-chat',
      middleware: true,
      tool: 'view_file',
      defaultOutputOn6: true,
    });
    expectToolImagePlace(rescued, 'openai-chat', await theFittedPhoto(rescued, 'openai-chat'));
  });

  it('refuses a LanguageModelV2 model (AI SDK 5) with a typed error naming the version, sending nothing', async () => {
    const { wrapLanguageModel } = await import('ai-v6');
    let calls = 0;
    const v2Model = {
      specificationVersion: 'v2',
      provider: 'legacy.chat',
      modelId: 'old-model',
      supportedUrls: {},
      doGenerate: async () => {
        calls++;
        throw new Error('not reached');
      },
      doStream: async () => {
        calls++;
        throw new Error('not reached');
      },
    };
    const model = wrapLanguageModel({ model: v2Model as never, middleware: fitMediaMiddleware({ aiSdk: 6 }) });
    const error = await failsWith(
      generateText6({ model, prompt: 'hi', maxRetries: 0 }),
      AiSdkVersionError,
      'E_AI_SDK_VERSION',
    );
    expect(error.message).toContain('LanguageModelV2');
    expect(error.message).toContain('AI SDK 5');
    expect(error.details.specificationVersion).toBe('v2');
    expect(calls).toBe(0);
  });
});
