import type {
  LanguageModelV3FilePart,
  LanguageModelV3Message,
  LanguageModelV3Prompt,
  LanguageModelV3ToolResultOutput,
  LanguageModelV4Message,
  LanguageModelV4Prompt,
  LanguageModelV4ToolResultOutput,
} from '@ai-sdk/provider';
import { bytesToBase64 } from '../base64.js';
import type { AiSdkFile } from './fit-ai-sdk-file.js';
import type { AiSdkToolContentItem } from './fit-ai-sdk-tool-output.js';
import { toAiSdk6Item } from './to-ai-sdk-model-output.js';

type V3ContentItem = Extract<LanguageModelV3ToolResultOutput, { type: 'content' }>['value'][number];
type V3UserPart = Extract<LanguageModelV3Message, { role: 'user' }>['content'][number];
type V4UserPart = Extract<LanguageModelV4Message, { role: 'user' }>['content'][number];
type V4ToolPart = Extract<LanguageModelV4Message, { role: 'tool' }>['content'][number];
type V3ToolPart = Extract<LanguageModelV3Message, { role: 'tool' }>['content'][number];

/** A prompt of AI SDK 6 (LanguageModelV3) in the V4 shape the fitting reads, and the way back. */
export interface BridgedPrompt {
  prompt: LanguageModelV4Prompt;
  /** The fitted V4 prompt in V3 shape: what glimpse left alone is the caller's own object again. */
  back(prompt: LanguageModelV4Prompt): LanguageModelV3Prompt;
}

/**
 * A V4-shaped `file` item inside a V3 prompt: what `toAiSdkModelOutput` writes by default. AI SDK 6 passes it
 * through untouched, and its providers drop it (Anthropic) or write `[object Object]` (OpenAI Chat).
 */
function isV4File(item: unknown): item is AiSdkFile {
  if (typeof item !== 'object' || item === null || !('type' in item) || item.type !== 'file') return false;
  return 'data' in item && typeof item.data === 'object' && item.data !== null && 'type' in item.data;
}

/** An AI SDK 6 tool-result item as a V4 one, media as `file` items with inline data. */
function itemToV4(item: V3ContentItem): AiSdkToolContentItem | undefined {
  if (isV4File(item)) return item;
  switch (item.type) {
    case 'text':
      return item;
    case 'image-data':
    case 'file-data':
      return {
        type: 'file',
        data: { type: 'data', data: item.data },
        mediaType: item.mediaType,
        ...('filename' in item && item.filename !== undefined && { filename: item.filename }),
        ...(item.providerOptions !== undefined && { providerOptions: item.providerOptions }),
      };
    default:
      return undefined; // URLs and provider file ids: nothing to fit, carried as they are
  }
}

/** A V4 tool-result item as AI SDK 6 takes it: inline images as `image-data`, other inline files as `file-data`. */
export function itemToV3(item: AiSdkToolContentItem): V3ContentItem {
  switch (item.type) {
    case 'text':
    case 'custom':
      return item;
    case 'file': {
      const { data, mediaType, providerOptions } = item;
      const options = providerOptions === undefined ? {} : { providerOptions };
      switch (data.type) {
        case 'data': {
          const base64 = typeof data.data === 'string' ? data.data : bytesToBase64(data.data);
          const file = { type: 'file' as const, data: { type: 'data' as const, data: base64 }, mediaType };
          return {
            ...toAiSdk6Item(item.filename === undefined ? file : { ...file, filename: item.filename }),
            ...options,
          };
        }
        case 'url':
          return { type: 'file-url', url: data.url.href, ...options };
        case 'reference':
          return { type: 'file-id', fileId: data.reference, ...options };
        case 'text':
          return { type: 'text', text: data.text, ...options };
        default: {
          const exhaustive: never = data;
          return exhaustive;
        }
      }
    }
    default: {
      const exhaustive: never = item;
      return exhaustive;
    }
  }
}

function fileToV4(part: LanguageModelV3FilePart): AiSdkFile {
  // Keys of newer V3 releases (a URL's `originalUrl`) ride along in `rest`.
  const { data, ...rest } = part;
  return { ...rest, data: data instanceof URL ? { type: 'url', url: data } : { type: 'data', data } };
}

function fileToV3(part: AiSdkFile): LanguageModelV3FilePart | V3UserPart {
  const { data, ...rest } = part;
  switch (data.type) {
    case 'data':
      return { ...rest, data: data.data };
    case 'url':
      return { ...rest, data: data.url };
    case 'text':
      return { type: 'text', text: data.text };
    case 'reference':
      // V3 user files have no provider references, and glimpse makes none: only a caller's own V4 part gets here.
      throw new TypeError('A provider file reference cannot go into an AI SDK 6 prompt.');
    default: {
      const exhaustive: never = data;
      return exhaustive;
    }
  }
}

/**
 * Reads an AI SDK 6 prompt as V4: user files and tool-result media in V4's tagged shapes. What has no V4 form
 * or needs no fitting (system and assistant messages, URL items, approvals) stays the caller's own object behind
 * a stand-in that the fitting passes through untouched, and `back` puts the original in its place again.
 */
export function bridgeV3Prompt(prompt: LanguageModelV3Prompt): BridgedPrompt {
  // Stand-in → the caller's original, by identity.
  const messages = new Map<object, LanguageModelV3Message>();
  const items = new Map<object, V3ContentItem>();
  const carry = <K, V>(carried: Map<object, V>, standIn: K & object, original: V): K => {
    carried.set(standIn, original);
    return standIn;
  };

  const outputToV4 = (output: LanguageModelV3ToolResultOutput): LanguageModelV4ToolResultOutput =>
    output.type === 'content'
      ? {
          type: 'content',
          value: output.value.map(
            (item) => itemToV4(item) ?? carry<AiSdkToolContentItem, V3ContentItem>(items, { type: 'custom' }, item),
          ),
        }
      : output;
  const toolPartToV4 = (part: V3ToolPart): V4ToolPart =>
    part.type === 'tool-result' ? { ...part, output: outputToV4(part.output) } : part;

  const v4: LanguageModelV4Prompt = prompt.map((message): LanguageModelV4Message => {
    switch (message.role) {
      case 'system':
        return message;
      case 'assistant':
        return carry<LanguageModelV4Message, LanguageModelV3Message>(
          messages,
          { role: 'assistant', content: [] },
          message,
        );
      case 'user':
        return {
          ...message,
          content: message.content.map((part): V4UserPart => (part.type === 'file' ? fileToV4(part) : part)),
        };
      case 'tool':
        return { ...message, content: message.content.map(toolPartToV4) };
      default: {
        const exhaustive: never = message;
        return exhaustive;
      }
    }
  });

  const outputToV3 = (output: LanguageModelV4ToolResultOutput): LanguageModelV3ToolResultOutput =>
    output.type === 'content'
      ? { ...output, value: output.value.map((item) => items.get(item) ?? itemToV3(item)) }
      : output;
  const back = (fitted: LanguageModelV4Prompt): LanguageModelV3Prompt =>
    fitted.map((message): LanguageModelV3Message => {
      const kept = messages.get(message);
      if (kept !== undefined) return kept;
      switch (message.role) {
        case 'system':
          return message;
        case 'assistant':
          throw new TypeError('glimpse makes no assistant messages: this one is not from the AI SDK 6 prompt.');
        case 'user':
          return { ...message, content: message.content.map((part) => (part.type === 'file' ? fileToV3(part) : part)) };
        case 'tool':
          return {
            ...message,
            content: message.content.map(
              (part): V3ToolPart => (part.type === 'tool-result' ? { ...part, output: outputToV3(part.output) } : part),
            ),
          };
        default: {
          const exhaustive: never = message;
          return exhaustive;
        }
      }
    });
  return { prompt: v4, back };
}
