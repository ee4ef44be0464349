import type { ProcessOptions } from '@glimpse/media';
import { attach } from './attach.js';
import { fitOptionsOf } from '../route/fit-options.js';
import type { PresetOptions } from '../route/resolve-route.js';
import type { Part, ToolOutput, ToolResultMessage } from '../types.js';
import { readToolOutput } from './read-tool-output.js';
import { truncateToolText, type TruncateOptions } from './truncate.js';

/**
 * The limits attachments are fitted to come from `preset`, else `route` (resolved already), else the preset of
 * `provider` and `model` in the capability registry, else `portable`.
 */
export interface ToolResultInput extends PresetOptions {
  toolCallId: string;
  toolName: string;
  /** Whatever the handler returned (see ToolOutput). */
  output: ToolOutput;
  /** The call failed. An MCP result's own `isError` counts too. */
  isError?: boolean;
  /** Explicit limits over the preset's (maxEdge, maxBytes, maxInputPixels, PDF limits). */
  limits?: Omit<ProcessOptions, 'preset' | 'provider'>;
  /** Cuts long tool text (text parts only); `false` keeps it whole. Default: 50,000 characters, head and tail. */
  truncate?: TruncateOptions | false;
}

/**
 * Assembles a tool result from a handler's output. Every attachment goes through `@glimpse/media`'s `process`,
 * whatever its source (bytes, base64 parts, MCP content): nothing bypasses it. An attachment that fails becomes
 * a note and the result goes on; a resized image gets a note with the factor that maps coordinates back.
 * Notes come after the tool's own parts and are never truncated.
 */
export async function toolResultFrom(input: ToolResultInput): Promise<ToolResultMessage> {
  const options: ProcessOptions = { ...fitOptionsOf(input), ...input.limits };
  const { items, isError } = readToolOutput(input.output);
  const parts: Part[] = [];
  const notes: string[] = [];
  let mediaCount = 0;
  // One at a time: the codecs hold large buffers, and results keep the tool's order.
  for (const item of items) {
    switch (item.kind) {
      case 'text':
        parts.push({ type: 'text', text: item.text });
        break;
      case 'note':
        notes.push(item.text);
        break;
      case 'media': {
        mediaCount++;
        const name = item.attachment.filename ?? `attachment ${mediaCount}`;
        const attached = await attach(item.attachment, name, options);
        parts.push(...attached.parts);
        notes.push(...attached.notes);
        break;
      }
      default: {
        const exhaustive: never = item;
        return exhaustive;
      }
    }
  }
  const kept = input.truncate === false ? parts : truncateToolText(parts, input.truncate);
  return {
    role: 'toolResult',
    toolCallId: input.toolCallId,
    toolName: input.toolName,
    parts: [...kept, ...notes.map((text): Part => ({ type: 'text', text }))],
    isError: input.isError === true || isError === true,
  };
}
