import type { Attachment } from '../types.js';

/** One piece of a tool's output, before media processing. */
export type OutputItem =
  | { kind: 'text'; text: string }
  | { kind: 'media'; attachment: Attachment }
  | { kind: 'note'; text: string };

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const optionalString = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

/** The last path segment of a URI, as a name for notes. */
function nameFromUri(uri: string | undefined): string | undefined {
  const last = uri?.split(/[/\\]/).filter(Boolean).pop();
  return last === undefined ? undefined : decodeURIComponent(last.replace(/[?#].*$/, '')) || undefined;
}

/**
 * One content item, checked field by field: MCP servers and plugins are outside the type system, so nothing
 * here trusts the shape. Unknown items become a note rather than an error.
 */
function itemFrom(item: unknown): OutputItem {
  if (!isRecord(item))
    return {
      kind: 'note',
      text: `[skipped a content item that is not an object: ${JSON.stringify(item) ?? String(item)}]`,
    };
  const type = item.type;
  if (type === 'text' && typeof item.text === 'string') return { kind: 'text', text: item.text };
  if ((type === 'image' || type === 'document') && typeof item.data === 'string') {
    return {
      kind: 'media',
      attachment: {
        data: item.data,
        mediaType: optionalString(item.mediaType) ?? optionalString(item.mimeType),
        filename: optionalString(item.filename),
      },
    };
  }
  if (type === 'resource' && isRecord(item.resource)) {
    const { uri, mimeType, blob, text } = item.resource;
    const filename = nameFromUri(optionalString(uri));
    if (typeof blob === 'string')
      return { kind: 'media', attachment: { data: blob, mediaType: optionalString(mimeType), filename } };
    if (typeof text === 'string') return { kind: 'text', text };
  }
  if (type === 'resource_link' && typeof item.uri === 'string') {
    return { kind: 'text', text: `[resource: ${optionalString(item.name) ?? item.uri} <${item.uri}>]` };
  }
  if (type === 'audio')
    return {
      kind: 'note',
      text: `[skipped ${optionalString(item.mimeType) ?? 'audio'} content: audio is not attached]`,
    };
  return { kind: 'note', text: `[skipped content of type ${JSON.stringify(type)}: not text, image, PDF or resource]` };
}

/**
 * A tool's output (a `ToolOutput`) as an ordered list of text, media and notes, plus an error flag MCP may carry.
 * Takes unknown and checks it: handlers written in JavaScript, MCP servers and plugins do not honour the type.
 */
export function readToolOutput(output: unknown): { items: OutputItem[]; isError?: boolean } {
  if (typeof output === 'string') return { items: [{ kind: 'text', text: output }] };
  if (Array.isArray(output)) return { items: output.map(itemFrom) };
  if (isRecord(output) && Array.isArray(output.content)) {
    return {
      items: output.content.map(itemFrom),
      ...(typeof output.isError === 'boolean' ? { isError: output.isError } : {}),
    };
  }
  if (isRecord(output) && Array.isArray(output.attachments)) {
    const text =
      typeof output.text === 'string' && output.text !== '' ? [{ kind: 'text' as const, text: output.text }] : [];
    const attachments = output.attachments.map((attachment: unknown): OutputItem => {
      if (!isRecord(attachment)) return { kind: 'note', text: '[skipped an attachment that is not an object]' };
      const bytes = attachment.bytes instanceof Uint8Array ? attachment.bytes : undefined;
      return {
        kind: 'media',
        attachment: {
          bytes,
          data: optionalString(attachment.data),
          mediaType: optionalString(attachment.mediaType),
          filename: optionalString(attachment.filename),
        },
      };
    });
    return { items: [...text, ...attachments] };
  }
  return {
    items: [
      {
        kind: 'note',
        text: '[the tool returned a value glimpse cannot read: expected a string, { text, attachments }, a part list or MCP content]',
      },
    ],
  };
}
