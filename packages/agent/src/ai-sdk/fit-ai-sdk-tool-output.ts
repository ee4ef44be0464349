import type { LanguageModelV4ToolResultOutput } from '@ai-sdk/provider';
import { readToolOutput, type OutputItem } from '../results/read-tool-output.js';
import { fitAiSdkFile, type AiSdkFile, type AiSdkText, type FitContext } from './fit-ai-sdk-file.js';

export type AiSdkToolOutput = LanguageModelV4ToolResultOutput;
export type AiSdkToolContentItem = Extract<AiSdkToolOutput, { type: 'content' }>['value'][number];

const MCP_ITEM_TYPES = new Set(['image', 'audio', 'resource', 'resource_link']);

/** The AI SDK item for one piece of MCP output: media as a `file` with base64 data (fitted next), notes as text. */
function fromOutputItem(item: OutputItem): AiSdkFile | AiSdkText {
  switch (item.kind) {
    case 'text':
    case 'note':
      return { type: 'text', text: item.text };
    case 'media': {
      const { attachment } = item;
      const data = attachment.data ?? attachment.bytes ?? '';
      return {
        type: 'file',
        data: { type: 'data', data },
        mediaType: attachment.mediaType ?? 'application/octet-stream',
        ...(attachment.filename !== undefined && { filename: attachment.filename }),
      };
    }
    default: {
      const exhaustive: never = item;
      return exhaustive;
    }
  }
}

/**
 * MCP content hidden in a text item: `@ai-sdk/mcp` writes every MCP item that is not text or an image (an
 * embedded PDF, audio) as its JSON, base64 and all. Undefined for any other text.
 */
function mcpItemInText(text: string): Array<AiSdkFile | AiSdkText> | undefined {
  if (!text.startsWith('{"type":')) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return undefined;
  }
  const type = typeof parsed === 'object' && parsed !== null && 'type' in parsed ? parsed.type : undefined;
  if (typeof type !== 'string' || !MCP_ITEM_TYPES.has(type)) return undefined;
  return readToolOutput([parsed]).items.map(fromOutputItem);
}

/** A JSON tool output that is an MCP `CallToolResult` (or a list of MCP content) with media in it, as content items. */
function mcpContentInJson(value: unknown): AiSdkToolContentItem[] | undefined {
  const { items, isError } = readToolOutput(value);
  if (!items.some((item) => item.kind === 'media')) return undefined;
  const content = items.map(fromOutputItem);
  return isError === true ? [{ type: 'text', text: 'Error: the tool reported a failure.' }, ...content] : content;
}

/** Every image and PDF of a tool result fitted to the route, in place; notes about them at the end. */
async function fitContent(
  value: readonly AiSdkToolContentItem[],
  context: FitContext,
): Promise<AiSdkToolContentItem[]> {
  const fitted: AiSdkToolContentItem[] = [];
  const notes: string[] = [];
  let files = 0;
  const items = value.flatMap((entry): AiSdkToolContentItem[] =>
    entry.type === 'text' ? (mcpItemInText(entry.text) ?? [entry]) : [entry],
  );
  for (const item of items) {
    if (item.type !== 'file') {
      fitted.push(item);
      continue;
    }
    files++;
    const result = await fitAiSdkFile(item, item.filename ?? `attachment ${files}`, context);
    fitted.push(...result.items);
    notes.push(...result.notes);
  }
  return [...fitted, ...notes.map((text): AiSdkText => ({ type: 'text', text }))];
}

/**
 * A tool result's output with its media fitted: `content` outputs item by item, and JSON outputs that are MCP
 * results with media (a tool without `toModelOutput` returning an MCP result) turned into content first, so
 * their base64 reaches the model as media instead of as JSON text. Other outputs are returned as they are.
 */
export async function fitAiSdkToolOutput(output: AiSdkToolOutput, context: FitContext): Promise<AiSdkToolOutput> {
  switch (output.type) {
    case 'content':
      return { ...output, value: await fitContent(output.value, context) };
    case 'json': {
      const content = mcpContentInJson(output.value);
      return content === undefined
        ? output
        : {
            type: 'content',
            value: await fitContent(content, context),
            ...(output.providerOptions !== undefined && { providerOptions: output.providerOptions }),
          };
    }
    case 'text':
    case 'error-text':
    case 'error-json':
    case 'execution-denied':
      return output;
    default: {
      const exhaustive: never = output;
      return exhaustive;
    }
  }
}
