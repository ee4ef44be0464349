import type { LanguageModelV4Message, LanguageModelV4Prompt } from '@ai-sdk/provider';
import type { MediaPart, Part, ToolResultMessage } from '../types.js';
import { joinText, liftedMediaParts, splitToolResult } from '../providers/lift-media.js';
import { toAiSdkContentItem } from './to-ai-sdk-model-output.js';
import type { AiSdkToolContentItem } from './fit-ai-sdk-tool-output.js';

type ToolMessage = Extract<LanguageModelV4Message, { role: 'tool' }>;
type UserContent = Extract<LanguageModelV4Message, { role: 'user' }>['content'][number];

/** A fitted file as a glimpse media part (base64 in one of the types glimpse sends), or undefined. */
function asMediaPart(item: AiSdkToolContentItem): MediaPart | undefined {
  if (item.type !== 'file' || item.data.type !== 'data' || typeof item.data.data !== 'string') return undefined;
  const { mediaType } = item;
  const data = item.data.data;
  if (mediaType === 'application/pdf')
    return { type: 'document', mediaType, data, ...(item.filename !== undefined && { filename: item.filename }) };
  if (
    mediaType === 'image/png' ||
    mediaType === 'image/jpeg' ||
    mediaType === 'image/gif' ||
    mediaType === 'image/webp'
  )
    return { type: 'image', mediaType, data };
  return undefined;
}

/**
 * Takes the media out of one tool message's results: each result keeps its text plus a line saying where its
 * media went (the same words glimpse's own serializers use), and the media come back labelled by call.
 */
function liftFromToolMessage(message: ToolMessage): { message: ToolMessage; lifted: UserContent[] } {
  const lifted: UserContent[] = [];
  const content = message.content.map((part) => {
    if (part.type !== 'tool-result' || part.output.type !== 'content') return part;
    const media = part.output.value.map(asMediaPart);
    if (media.every((entry) => entry === undefined)) return part;
    const rest = part.output.value.filter((_, index) => media[index] === undefined);
    const glimpseResult: ToolResultMessage = {
      role: 'toolResult',
      toolCallId: part.toolCallId,
      toolName: part.toolName,
      isError: false,
      parts: [
        ...rest.flatMap((item): Part[] => (item.type === 'text' ? [{ type: 'text', text: item.text }] : [])),
        ...media.filter((entry) => entry !== undefined),
      ],
    };
    lifted.push(...liftedMediaParts([glimpseResult]).map(toAiSdkContentItem));
    const text = joinText(splitToolResult(glimpseResult).text);
    // Files glimpse cannot fit (audio, remote URLs) stay where the app put them.
    const others = rest.filter((item) => item.type !== 'text');
    const output =
      others.length === 0
        ? { type: 'text' as const, value: text }
        : { type: 'content' as const, value: [{ type: 'text' as const, text }, ...others] };
    return { ...part, output };
  });
  return { message: { ...message, content }, lifted };
}

/**
 * For routes whose tool results cannot carry media (OpenAI Chat above all): the media of each run of tool
 * messages go into ONE user message right after them, merged into the next user message when there is one.
 */
export function liftAiSdkToolMedia(prompt: LanguageModelV4Prompt): LanguageModelV4Prompt {
  const out: LanguageModelV4Prompt = [];
  let pending: UserContent[] = [];
  for (const message of prompt) {
    if (message.role === 'tool') {
      const { message: kept, lifted } = liftFromToolMessage(message);
      out.push(kept);
      pending.push(...lifted);
      continue;
    }
    if (pending.length > 0) {
      if (message.role === 'user') {
        out.push({ ...message, content: [...pending, ...message.content] });
        pending = [];
        continue;
      }
      out.push({ role: 'user', content: pending });
      pending = [];
    }
    out.push(message);
  }
  if (pending.length > 0) out.push({ role: 'user', content: pending });
  return out;
}
