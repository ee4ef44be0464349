// The AI SDK's two supported majors side by side: `ai@7` (LanguageModelV4, the root devDependencies) and `ai@6`
// (LanguageModelV3, installed under the aliases ai-v6, ai-v6-anthropic, ai-v6-openai, ai-v6-google,
// ai-v6-amazon-bedrock). Each runs the
// same two-step conversation against the local API server (test/support/api-server.ts): the model asks for a tool,
// the tool hands back a photo, and the second request is what the test reads. Each major is written in its own
// package's types, so `tsc` proves glimpse's adapters are what that major's `wrapLanguageModel` and `tool` take.
import { createAmazonBedrock } from '@ai-sdk/amazon-bedrock';
import { createAnthropic } from '@ai-sdk/anthropic';
import { createGoogleGenerativeAI } from '@ai-sdk/google';
import { createOpenAI } from '@ai-sdk/openai';
import { jsonSchema, stepCountIs, streamText, tool, wrapLanguageModel } from 'ai';
import {
  jsonSchema as jsonSchema6,
  stepCountIs as stepCountIs6,
  streamText as streamText6,
  tool as tool6,
  wrapLanguageModel as wrapLanguageModel6,
  type ToolResultPart as ToolResultPart6,
} from 'ai-v6';
import { createAmazonBedrock as createAmazonBedrock6 } from 'ai-v6-amazon-bedrock';
import { createAnthropic as createAnthropic6 } from 'ai-v6-anthropic';
import { createGoogleGenerativeAI as createGoogle6 } from 'ai-v6-google';
import { createOpenAI as createOpenAI6 } from 'ai-v6-openai';
import type { ToolResult } from '../../packages/agent/src/index.js';
import {
  fitMediaMiddleware,
  toAiSdkModelOutput,
  type AiSdk6ModelOutput,
} from '../../packages/agent/src/entries/ai-sdk.js';

export type MajorRoute = 'anthropic' | 'openai-chat' | 'openai-responses' | 'gemini' | 'bedrock';

export const MAJOR_MODELS: Record<MajorRoute, string> = {
  anthropic: 'claude-sonnet-4-6',
  'openai-chat': 'gpt-4.1',
  'openai-responses': 'gpt-5.1',
  gemini: 'gemini-3-pro-preview',
  bedrock: 'us.anthropic.claude-sonnet-4-6-v1:0',
};

/** Bedrock signs its requests: any key does for the local server. */
const AWS = { region: 'us-east-1', accessKeyId: 'AKIDTEST', secretAccessKey: 'test-secret' };

export interface MajorCall {
  route: MajorRoute;
  /** The local API server's base URL. */
  url: string;
  /** Wrap the model in `fitMediaMiddleware`. */
  middleware: boolean;
  /**
   * The tool: `camera` knows nothing of glimpse and hands the camera original to the model in its major's own
   * item (`file` on 7, `image-data` on 6); `view_file` is glimpse's, its result given by `toAiSdkModelOutput`.
   */
  tool: 'camera' | 'view_file';
  /** The camera's JPEG as base64. */
  photo: string;
  /** glimpse's view_file for this route. */
  viewFile(): Promise<ToolResult>;
  /** ai@6 only: `toAiSdkModelOutput` without `{ aiSdk: 6 }`, as a JavaScript caller might write it. */
  defaultOutputOn6?: boolean;
}

const schema = { type: 'object', properties: {}, additionalProperties: false } as const;

function model7(route: MajorRoute, url: string) {
  const id = MAJOR_MODELS[route];
  switch (route) {
    case 'anthropic':
      return createAnthropic({ apiKey: 'k', baseURL: `${url}/v1` })(id);
    case 'openai-chat':
      return createOpenAI({ apiKey: 'k', baseURL: `${url}/v1` }).chat(id);
    case 'openai-responses':
      return createOpenAI({ apiKey: 'k', baseURL: `${url}/v1` }).responses(id);
    case 'gemini':
      return createGoogleGenerativeAI({ apiKey: 'k', baseURL: `${url}/v1beta` })(id);
    case 'bedrock':
      return createAmazonBedrock({ ...AWS, baseURL: url })(id);
  }
}

function model6(route: MajorRoute, url: string) {
  const id = MAJOR_MODELS[route];
  switch (route) {
    case 'anthropic':
      return createAnthropic6({ apiKey: 'k', baseURL: `${url}/v1` })(id);
    case 'openai-chat':
      return createOpenAI6({ apiKey: 'k', baseURL: `${url}/v1` }).chat(id);
    case 'openai-responses':
      return createOpenAI6({ apiKey: 'k', baseURL: `${url}/v1` }).responses(id);
    case 'gemini':
      return createGoogle6({ apiKey: 'k', baseURL: `${url}/v1beta` })(id);
    case 'bedrock':
      return createAmazonBedrock6({ ...AWS, baseURL: url })(id);
  }
}

async function runOn7(call: MajorCall): Promise<void> {
  const base = model7(call.route, call.url);
  const model = call.middleware ? wrapLanguageModel({ model: base, middleware: fitMediaMiddleware() }) : base;
  const tools = {
    camera: tool({
      description: 'Takes a photo.',
      inputSchema: jsonSchema<Record<string, never>>(schema),
      execute: async () => call.photo,
      toModelOutput: ({ output }) => ({
        type: 'content',
        value: [
          { type: 'text', text: 'Took photo.jpg.' },
          { type: 'file', data: { type: 'data', data: output }, mediaType: 'image/jpeg', filename: 'photo.jpg' },
        ],
      }),
    }),
    view_file: tool({
      description: 'Views a file.',
      inputSchema: jsonSchema<Record<string, never>>(schema),
      execute: () => call.viewFile(),
      toModelOutput: ({ output }) => toAiSdkModelOutput(output),
    }),
  };
  const result = streamText({ model, tools, prompt: 'Show me the photo.', stopWhen: stepCountIs(2) });
  await result.consumeStream();
}

async function runOn6(call: MajorCall): Promise<void> {
  const base = model6(call.route, call.url);
  const model = call.middleware
    ? wrapLanguageModel6({ model: base, middleware: fitMediaMiddleware({ aiSdk: 6 }) })
    : base;
  const tools = {
    camera: tool6({
      description: 'Takes a photo.',
      inputSchema: jsonSchema6<Record<string, never>>(schema),
      execute: async () => call.photo,
      toModelOutput: ({ output }) => ({
        type: 'content',
        value: [
          { type: 'text', text: 'Took photo.jpg.' },
          { type: 'image-data', data: output, mediaType: 'image/jpeg' },
        ],
      }),
    }),
    view_file: tool6({
      description: 'Views a file.',
      inputSchema: jsonSchema6<Record<string, never>>(schema),
      execute: () => call.viewFile(),
      // The V4-shaped `file` items are no ai@6 type: only a JavaScript caller (here a cast) can hand them over.
      toModelOutput: ({ output }) =>
        call.defaultOutputOn6 === true
          ? (toAiSdkModelOutput(output) as unknown as AiSdk6ModelOutput)
          : toAiSdkModelOutput(output, { aiSdk: 6 }),
    }),
  };
  const result = streamText6({ model, tools, prompt: 'Show me the photo.', stopWhen: stepCountIs6(2) });
  await result.consumeStream();
}

export const AI_SDK_MAJORS = [
  { major: 7, run: runOn7 },
  { major: 6, run: runOn6 },
] as const;

/** Compile-time only: ai@6's tool output type takes `{ aiSdk: 6 }`'s items and refuses the default `file` items. */
export function ai6OutputTypes(result: ToolResult): ToolResultPart6['output'][] {
  return [
    toAiSdkModelOutput(result, { aiSdk: 6 }),
    // @ts-expect-error ai@6 has no `file` item: `toAiSdkModelOutput(output, { aiSdk: 6 })` is its form
    toAiSdkModelOutput(result),
  ];
}
