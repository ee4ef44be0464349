import type { SharedV4FileData, SharedV4ProviderOptions } from '@ai-sdk/provider';
import { detect, type ProcessOptions } from '@glimpse/media';
import { attach, type AttachedPart } from '../results/attach.js';
import { base64ToBytes, bytesToBase64 } from '../base64.js';
import { pdfAsTextAndPages } from '../tools/pdf-as-text-and-pages.js';
import type { Attachment, DocumentPart, MediaPart, Part } from '../types.js';
import { omitMedia, unreadableReason } from '../providers/placeholders.js';
import type { OmitReason, SerializeWarning } from '../providers/types.js';
import type { AiSdkRoute } from './ai-sdk-route.js';
import type { FitCache } from './fit-cache.js';
import type { FitMediaWarning } from './fit-media-warning.js';

/** A file as an AI SDK prompt carries it, in a user message or in a tool result's content. */
export interface AiSdkFile {
  type: 'file';
  data: SharedV4FileData;
  mediaType: string;
  filename?: string;
  providerOptions?: SharedV4ProviderOptions;
}

export interface AiSdkText {
  type: 'text';
  text: string;
  providerOptions?: SharedV4ProviderOptions;
}

/** What one file became: fitted files or placeholders in its place, and notes for the end of its message. */
export interface FittedFile {
  items: Array<AiSdkFile | AiSdkText>;
  notes: string[];
}

export interface FitContext {
  route: AiSdkRoute;
  options: ProcessOptions;
  cache: FitCache<AttachedPart>;
  /** Where warnings go, with the index of the prompt message they concern. */
  warn: (warning: FitMediaWarning) => void;
  messageIndex: number;
}

const CLAIMS_MEDIA = /^(image(\/|$)|application\/pdf$)/i;

/** The inline bytes or base64 of a file; undefined for a remote URL, a provider reference or inline text. */
function inlineData(data: SharedV4FileData): Uint8Array | string | undefined {
  if (data.type === 'data') return data.data;
  if (data.type === 'url' && data.url.protocol === 'data:') return data.url.href;
  return undefined;
}

function toAiSdkItem(part: Part, original: AiSdkFile): AiSdkFile | AiSdkText {
  const extra = {
    ...(original.filename !== undefined && { filename: original.filename }),
    ...(original.providerOptions !== undefined && { providerOptions: original.providerOptions }),
  };
  switch (part.type) {
    case 'text':
      return { type: 'text', text: part.text };
    case 'image':
    case 'document':
      return { type: 'file', data: { type: 'data', data: part.data }, mediaType: part.mediaType, ...extra };
    default: {
      const exhaustive: never = part;
      return exhaustive;
    }
  }
}

/**
 * Fits one file of the prompt to the route: every image or PDF goes through `@glimpse/media` (from the
 * cache when it was fitted before), whatever its declared type says; what the model cannot read becomes a
 * placeholder, what cannot be fitted a note. Anything else (audio, text files, remote URLs, provider file
 * references) is left as it is: glimpse cannot see inside it.
 */
export async function fitAiSdkFile(file: AiSdkFile, name: string, context: FitContext): Promise<FittedFile> {
  const raw = inlineData(file.data);
  if (raw === undefined) return { items: [file], notes: [] };
  const bytes = typeof raw === 'string' ? base64ToBytes(raw) : raw;
  const type = bytes === undefined ? undefined : detect(bytes);
  if (type === undefined && !CLAIMS_MEDIA.test(file.mediaType)) return { items: [file], notes: [] };
  const { capabilities } = context.route;
  const variant = `${name}\n${JSON.stringify(context.options)}`;
  if (type === 'application/pdf' && bytes !== undefined && !capabilities.pdfInput) {
    const pages = await context.cache.get(raw, `pages\n${variant}`, async () => ({
      parts: await pdfAsTextAndPages(pdfPart(bytes, file), context.options),
      notes: [],
    }));
    return pdfWithoutDocuments(pages.parts, file, context);
  }
  const attachment: Attachment = {
    ...(bytes === undefined ? { data: typeof raw === 'string' ? raw : '' } : { bytes }),
    mediaType: file.mediaType,
    ...(file.filename !== undefined && { filename: file.filename }),
  };
  const attached = await context.cache.get(raw, variant, () => attach(attachment, name, context.options));
  if (attached.parts.length === 0)
    for (const note of attached.notes)
      context.warn({ type: 'media-failed', messageIndex: context.messageIndex, message: note.slice(1, -1) });
  const items = readableItems(attached.parts, file, context);
  // A note about an image the model will not see (resized, first frame) would only confuse it.
  const shown = items.some((item) => item.type === 'file');
  return { items, notes: shown || attached.parts.length === 0 ? attached.notes : [] };
}

function pdfPart(bytes: Uint8Array, file: AiSdkFile): DocumentPart {
  return {
    type: 'document',
    mediaType: 'application/pdf',
    data: bytesToBase64(bytes),
    ...(file.filename !== undefined && { filename: file.filename }),
  };
}

/** A PDF on a route without documents: its text and page images when they can be made, else a note (and a warning). */
function pdfWithoutDocuments(parts: readonly Part[], file: AiSdkFile, context: FitContext): FittedFile {
  if (!parts.some((part) => part.type === 'image')) {
    context.warn({
      type: 'media-omitted',
      reason: 'no-pdf-input',
      mediaType: 'application/pdf',
      messageIndex: context.messageIndex,
      message: `${file.filename ?? 'a PDF'} was not sent: the route takes no PDF documents`,
    });
  }
  return { items: readableItems(parts, file, context), notes: [] };
}

/** The parts as AI SDK items, each one the model cannot read replaced by a placeholder. */
function readableItems(parts: readonly Part[], file: AiSdkFile, context: FitContext): Array<AiSdkFile | AiSdkText> {
  return parts.map((part) => {
    const reason = unreadableReason(part, context.route);
    return reason === undefined || part.type === 'text' ? toAiSdkItem(part, file) : omit(part, reason, context);
  });
}

function omit(part: MediaPart, reason: OmitReason, context: FitContext): AiSdkText {
  const warnings: SerializeWarning[] = [];
  const placeholder = omitMedia(part, reason, context.messageIndex, warnings);
  for (const warning of warnings) if (warning.type === 'media-omitted') context.warn(warning);
  return { type: 'text', text: placeholder.text };
}
