import type {
  ContentBlock,
  Message,
  SystemContentBlock,
  Tool,
  ToolResultContentBlock,
  ToolUseBlock,
} from '@aws-sdk/client-bedrock-runtime';
import type { RouteLimits } from '@glimpse/media';
import { base64ToBytes } from '../base64.js';
import type { MediaPart, Part, ToolDefinition } from '../types.js';
import { sanitizeDocumentName } from './bedrock-names.js';
import { attachedLine, EMPTY_RESULT, liftedMediaParts, splitToolResult } from './lift-media.js';
import { omitMedia, placeholderFor } from './placeholders.js';
import { prepareConversation } from './turns.js';
import type { SerializeInput, Serialized, SerializeWarning } from './types.js';

/**
 * The Converse request without `modelId` and `inferenceConfig`, as the SDK takes it: media bytes are `Uint8Array`s.
 * Its JSON form (bytes as base64, what `glimpse prepare` prints) goes back through `bedrockRequestFromJson`.
 */
export interface BedrockRequestBody {
  system?: SystemContentBlock[];
  toolConfig?: { tools: Tool[] };
  messages: Message[];
}

type JsonDocument = Exclude<ToolUseBlock['input'], undefined>;

/** A JSON value as Smithy's document type, the way JSON.stringify would see it. */
function toDocument(value: unknown): JsonDocument {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return value;
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (Array.isArray(value)) return value.map(toDocument);
  if (typeof value === 'object') {
    const out: { [key: string]: JsonDocument } = {};
    for (const [key, item] of Object.entries(value)) if (item !== undefined) out[key] = toDocument(item);
    return out;
  }
  return null;
}

const FORMAT = { 'image/png': 'png', 'image/jpeg': 'jpeg', 'image/gif': 'gif', 'image/webp': 'webp' } as const;

type MediaBlock = ContentBlock.TextMember | ContentBlock.ImageMember | ContentBlock.DocumentMember;

/** Where a media block sits, so that the per-message caps can turn the oldest ones into placeholders. */
interface MediaSlot {
  part: MediaPart;
  holder: ContentBlock[] | ToolResultContentBlock[];
  messageIndex: number;
}

/** Builds one user message; its media is counted against the per-message caps when it is built. */
class UserMessageBuilder {
  readonly blocks: ContentBlock[] = [];
  private readonly slots = new Map<MediaBlock, MediaSlot>();
  private topLevelText = false;

  constructor(
    private readonly messageIndex: () => number,
    private readonly names: Set<string>,
    private readonly warnings: SerializeWarning[],
    /** Per-message caps of the Converse API (the route's media limits); the oldest media past them become placeholders. */
    private readonly limits: RouteLimits,
  ) {}

  /** Bedrock's wire blocks for parts; shared by top-level content and toolResult content (same shapes). */
  convert(parts: readonly Part[]): MediaBlock[] {
    return parts.flatMap((part): MediaBlock[] => {
      switch (part.type) {
        case 'text':
          return part.text === '' ? [] : [{ text: part.text }];
        case 'image': {
          const bytes = base64ToBytes(part.data);
          if (bytes === undefined)
            return [{ text: omitMedia(part, 'invalid-data', this.messageIndex(), this.warnings).text }];
          // The route takes no HEIC/HEIF (route.media.imageTypes): prepareConversation made such parts placeholders already.
          if (part.mediaType === 'image/heic' || part.mediaType === 'image/heif')
            return [{ text: placeholderFor(part, 'format-not-accepted').text }];
          return [this.media(part, { image: { format: FORMAT[part.mediaType], source: { bytes } } })];
        }
        case 'document': {
          const bytes = base64ToBytes(part.data);
          if (bytes === undefined)
            return [{ text: omitMedia(part, 'invalid-data', this.messageIndex(), this.warnings).text }];
          const name = sanitizeDocumentName(part.filename, this.names);
          if (part.filename !== undefined && name !== part.filename.replace(/\.pdf$/i, '')) {
            this.warnings.push({
              type: 'document-renamed',
              from: part.filename,
              to: name,
              messageIndex: this.messageIndex(),
              message: `document name "${part.filename}" sent as "${name}" (Bedrock's character rules)`,
            });
          }
          return [this.media(part, { document: { format: 'pdf', name, source: { bytes } } })];
        }
        default: {
          const exhaustive: never = part;
          return exhaustive;
        }
      }
    });
  }

  private media(part: MediaPart, block: MediaBlock): MediaBlock {
    this.slots.set(block, { part, holder: this.blocks, messageIndex: this.messageIndex() });
    return block;
  }

  /** Records which array each media block ended up in (the message, or a toolResult's content). */
  private place(blocks: MediaBlock[], holder: ContentBlock[] | ToolResultContentBlock[]): void {
    for (const block of blocks) {
      const slot = this.slots.get(block);
      if (slot) slot.holder = holder;
    }
  }

  addParts(parts: readonly Part[]): void {
    const blocks = this.convert(parts);
    if (blocks.some((block) => block.text !== undefined)) this.topLevelText = true;
    this.place(blocks, this.blocks);
    this.blocks.push(...blocks);
  }

  addToolResult(toolUseId: string, parts: readonly Part[], isError: boolean): void {
    const blocks = this.convert(parts);
    const content: ToolResultContentBlock[] = blocks;
    this.place(blocks, content);
    // A document must travel with a text block; a result that is only media gets one.
    if (!content.some((block) => block.text !== undefined)) {
      const media = parts.filter((part): part is MediaPart => part.type !== 'text');
      content.unshift({ text: media.length > 0 ? attachedLine(media) : EMPTY_RESULT });
    }
    this.blocks.push({ toolResult: { toolUseId, content, ...(isError ? { status: 'error' } : {}) } });
  }

  /** Over a cap, the oldest blocks of that kind become placeholders: the newest media are the ones the turn is about. */
  private enforceCap(
    kind: 'image' | 'document',
    cap: number,
    reason: 'too-many-images' | 'too-many-documents',
  ): number {
    const slots = [...this.slots].filter(([block]) => block[kind] !== undefined);
    for (const [block, slot] of slots.slice(0, Math.max(0, slots.length - cap))) {
      const at = slot.holder.indexOf(block);
      if (at !== -1) slot.holder[at] = { text: omitMedia(slot.part, reason, slot.messageIndex, this.warnings).text };
    }
    return Math.min(slots.length, cap);
  }

  build(): Message | undefined {
    if (this.blocks.length === 0) return undefined;
    this.enforceCap('image', this.limits.imagesPerMessage ?? Infinity, 'too-many-images');
    const documents = this.enforceCap('document', this.limits.documentsPerMessage ?? Infinity, 'too-many-documents');
    if (documents > 0 && !this.topLevelText)
      this.blocks.push({
        text: documents === 1 ? 'The document is attached above.' : 'The documents are attached above.',
      });
    return { role: 'user', content: this.blocks };
  }
}

function toTool(tool: ToolDefinition): Tool {
  return {
    toolSpec: { name: tool.name, description: tool.description, inputSchema: { json: toDocument(tool.parameters) } },
  };
}

/**
 * Bedrock Converse: results of one assistant turn are `toolResult` blocks of ONE user message, in call order.
 * Images and documents ride inside `toolResult.content` for Claude and Nova; for other models, and for error
 * results, they follow the results in the same message. Turns strictly alternate (same-role neighbours merge);
 * each message holds ≤ 20 images and ≤ 5 documents (the oldest past them become placeholders), and any message
 * with a document also holds a text block.
 * Media bytes are `Uint8Array`s, as the SDK wants them; the CLI prints them as base64, like the JSON wire format.
 */
export function serializeBedrock(input: SerializeInput): Serialized<BedrockRequestBody> {
  const { turns, warnings, route } = prepareConversation('bedrock', input);
  const names = new Set<string>();
  const messages: Message[] = [];
  let currentIndex = 0;
  const newUserMessage = () => new UserMessageBuilder(() => currentIndex, names, warnings, route.media.limits);
  let user = newUserMessage();
  const flushUser = () => {
    const built = user.build();
    if (built) messages.push(built);
    user = newUserMessage();
  };
  let previousRole: 'user' | 'assistant' | undefined;
  for (const turn of turns) {
    currentIndex = turn.messageIndex;
    switch (turn.role) {
      case 'user':
        if (previousRole === 'user') {
          warnings.push({
            type: 'turns-merged',
            role: 'user',
            messageIndex: turn.messageIndex,
            message: 'two user turns in a row were merged (Bedrock needs strict alternation)',
          });
        }
        user.addParts(turn.message.parts);
        break;
      case 'assistant': {
        flushUser();
        const content: ContentBlock[] = turn.message.text === '' ? [] : [{ text: turn.message.text }];
        for (const call of turn.message.toolCalls)
          content.push({ toolUse: { toolUseId: call.id, name: call.name, input: toDocument(call.arguments) } });
        if (content.length === 0) break;
        const previous = messages[messages.length - 1];
        if (previous?.role === 'assistant') {
          previous.content = [...(previous.content ?? []), ...content];
          warnings.push({
            type: 'turns-merged',
            role: 'assistant',
            messageIndex: turn.messageIndex,
            message: 'two assistant turns in a row were merged (Bedrock needs strict alternation)',
          });
        } else {
          messages.push({ role: 'assistant', content });
        }
        const lifted = turn.results
          .filter(({ result }) => result.isError || !route.capabilities.mediaInToolResults)
          .map(({ result }) => result);
        for (const { result, messageIndex } of turn.results) {
          currentIndex = messageIndex;
          user.addToolResult(
            result.toolCallId,
            lifted.includes(result) ? splitToolResult(result).text : result.parts,
            result.isError,
          );
        }
        user.addParts(liftedMediaParts(lifted));
        break;
      }
      default: {
        const exhaustive: never = turn;
        return exhaustive;
      }
    }
    previousRole = turn.role;
  }
  flushUser();
  const tools = (input.tools ?? []).map(toTool);
  if (tools.length === 0 && input.messages.some((m) => m.role === 'assistant' && m.toolCalls.length > 0)) {
    warnings.push({
      type: 'tools-missing',
      message:
        'the history has tool calls but no tools were given: Bedrock refuses toolUse blocks without toolConfig (pass tools)',
    });
  }
  const body: BedrockRequestBody = {
    ...(input.system ? { system: [{ text: input.system }] } : {}),
    ...(tools.length > 0 ? { toolConfig: { tools } } : {}),
    messages,
  };
  return { body, warnings };
}
