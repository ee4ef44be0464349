import { PRESETS } from '@glimpse/media';
import { cachedFit, refitSmaller, type FitCache, type Target } from './fit-image.js';
import { fitRequestBudget, type MediaSlot } from './fit-request-budget.js';
import { requestBytes } from './request-bytes.js';
import type { ProviderName } from './route/capabilities.js';
import { routeFor, type RouteOptions } from './route/resolve-route.js';
import { formatBytes } from './tools/format-bytes.js';
import { omitMedia } from './providers/placeholders.js';
import { attachFileReferences } from './references/attach-file-references.js';
import type { ResolveFileReference } from './references/resolve-file-references.js';
import type { MediaPart, Message, Part, ToolDefinition } from './types.js';
import type { SerializeWarning } from './providers/types.js';

export { createFitCache, type FitCache } from './fit-image.js';

export interface FitConversationInput extends RouteOptions {
  messages: readonly Message[];
  /** The route the conversation is about to be sent over (with the model, as in `serialize`). */
  provider: ProviderName;
  /** Share one between calls (the agent loop keeps one per run). */
  cache?: FitCache;
  /** The system prompt and tools the request carries: they count towards its bytes. */
  system?: string;
  tools?: readonly ToolDefinition[];
  /** OpenAI Responses: as `serialize` is told, so the request is measured as it will be sent. */
  liftToolMedia?: boolean;
  /**
   * Most bytes of the serialized request. Default: the route's `requestBytes` (Anthropic 32 MB, Gemini 20 MB,
   * OpenAI 50 MB); a smaller figure tightens it (after a 413), `Infinity` turns the budget off.
   */
  maxRequestBytes?: number;
  /**
   * An image fitted again that the pipeline passes through keeps its Exif, XMP and comments (GPS included).
   * Default false: they are cut out (media's `keepMetadata`). Parts made by view_file or toolResultFrom already
   * went without them unless those were told `keepMetadata` too.
   */
  keepMetadata?: boolean;
  /** Most images of the request. Default: the route's `imagesPerRequest`; smaller after a "too many images". */
  maxImagesPerRequest?: number;
  /**
   * Stored base64 of media the provider refused (`runAgent` records them, `FittedConversation.sources` maps what
   * was sent back to them): each becomes a placeholder, in this request and every later one.
   */
  refused?: ReadonlySet<string>;
  /**
   * Provider file references (`resolveFileReferences`, which `runAgent` makes when its client uploads): each medium,
   * once fitted to the route, is named by its upload instead of its base64. It costs the request only its
   * reference's bytes, so the budget never re-fits it (it still counts towards the image and document caps and the
   * tokens). An upload that fails leaves it inline, with a `media-reference-failed` warning.
   */
  references?: ResolveFileReference;
  /** Cancels the uploads `references` makes. */
  signal?: AbortSignal;
}

export interface FittedConversation {
  messages: Message[];
  /**
   * `media-refitted` for each image sent smaller or in another format (to the route, or to the request's byte
   * budget); `media-omitted` for what could not be fitted or did not fit the budget; `request-over-budget` when even
   * placeholders for every medium left the request over its cap (its text alone is too large).
   */
  warnings: SerializeWarning[];
  /** Bytes of the request body as serialized (JSON, base64 included), when the route has a byte cap. */
  requestBytes?: number;
  /** The stored base64 of each medium sent, by the base64 sent for it: what a refusal naming a block refers to. */
  sources: Map<string, string>;
}

function countImages(messages: readonly Message[]): number {
  let count = 0;
  for (const message of messages)
    if (message.role !== 'assistant') for (const part of message.parts) if (part.type === 'image') count++;
  return count;
}

/** A message's parts as the request sends them: text as it is, each medium by its slot. */
type Piece = Part | MediaSlot;
const isSlot = (piece: Piece): piece is MediaSlot => 'source' in piece;

/**
 * The conversation made to fit the route it is about to be sent over, image by image and as a whole request.
 * Every image that a roomier route's fit left too large (or in a format this route refuses) is fitted again from
 * its stored bytes, instead of being dropped: to the route's preset (Anthropic: 1568 px, its native size), and to
 * Anthropic's 2000 px once the request holds more than 20 images. Then the whole request is measured as serialized
 * (base64, JSON, system prompt and tools): over the route's bytes per request, older images are fitted smaller,
 * then the newest turn's, down to a legible floor, and only then the oldest become placeholders (`fitRequestBudget`).
 * Only what no fitting can carry becomes a placeholder, with a warning. Serialize the result; the serializers' own
 * rules (counts, text-only models) then hold without losing an image that could be sent. The session keeps the
 * original parts: fitting is done per request (and cached across a run).
 */
export async function fitConversation(input: FitConversationInput): Promise<FittedConversation> {
  const { cache } = input;
  const route = routeFor(input.provider, input);
  const warnings: SerializeWarning[] = [];
  if (!route.capabilities.imageInput) return { messages: [...input.messages], warnings, sources: new Map() };
  const preset = PRESETS[route.preset];
  const many = route.media.limits.manyImages;
  const crowded = many !== undefined && countImages(input.messages) > many.above;
  // The model's own long edge where the registry knows it (a Claude high-resolution model: 2576 px).
  const edge = route.capabilities.workingSize?.maxEdge ?? preset.maxEdge;
  const routeTarget: Target = {
    preset: route.preset,
    maxEdge: crowded ? Math.min(edge, many.maxEdge) : edge,
    maxBytes: preset.maxBytes,
    accepts: route.media.imageTypes.filter((type) => preset.accepts.includes(type)),
    why: 'for this route',
    ...(input.keepMetadata === true && { keepMetadata: true }),
  };
  const fit = cachedFit(cache);
  const referenceWarnings: SerializeWarning[] = [];

  const lastAssistant = input.messages.findLastIndex((message) => message.role === 'assistant');
  const pieces: Piece[][] = [];
  const slots: MediaSlot[] = [];
  for (const [index, message] of input.messages.entries()) {
    if (message.role === 'assistant') {
      pieces.push([]);
      continue;
    }
    const row: Piece[] = [];
    for (const part of message.parts) {
      if (part.type === 'text') {
        row.push(part);
        continue;
      }
      const refused = input.refused?.has(part.data) === true;
      const fitted = refused
        ? refusedMedia(part)
        : part.type === 'image'
          ? await fit(part, routeTarget)
          : { parts: [part], warnings: [] };
      // Referenced once fitted to the route: the budget then has nothing to take from it.
      const sent =
        refused || input.references === undefined
          ? { parts: fitted.parts, referenced: false }
          : await attachFileReferences({
              parts: fitted.parts,
              messageIndex: index,
              resolve: input.references,
              route: route.provider,
              ...(input.signal !== undefined && { signal: input.signal }),
            });
      if ('warnings' in sent) referenceWarnings.push(...sent.warnings);
      const slot: MediaSlot = {
        source: part,
        messageIndex: index,
        newest: index > lastAssistant,
        sent: sent.parts,
        warnings: fitted.warnings,
        settled: refused || sent.referenced,
      };
      slots.push(slot);
      row.push(slot);
    }
    pieces.push(row);
  }
  const assemble = (): Message[] =>
    input.messages.map((message, index) =>
      message.role === 'assistant'
        ? message
        : { ...message, parts: pieces[index]!.flatMap((piece) => (isSlot(piece) ? piece.sent : [piece])) },
    );

  const cap = Math.min(input.maxRequestBytes ?? Infinity, route.media.limits.requestBytes ?? Infinity);
  let measured: number | undefined;
  if (Number.isFinite(cap)) {
    const measure = () =>
      requestBytes(route.provider, {
        ...(input.system !== undefined && { system: input.system }),
        ...(input.tools !== undefined && { tools: input.tools }),
        ...(input.liftToolMedia !== undefined && { liftToolMedia: input.liftToolMedia }),
        messages: assemble(),
        route,
      });
    const why = `to keep the request under ${formatBytes(cap)} (${route.provider}'s bytes per request)`;
    const imagesPerRequest = input.maxImagesPerRequest ?? route.media.limits.imagesPerRequest;
    measured = await fitRequestBudget({
      slots,
      cap,
      ...(imagesPerRequest !== undefined && { maxImages: imagesPerRequest }),
      measure,
      refit: (slot, maxBase64Bytes) =>
        refitSmaller(slot, maxBase64Bytes, { ...routeTarget, why, forBudget: true }, fit),
    });
  }
  for (const slot of slots)
    warnings.push(...slot.warnings.map((warning) => ({ ...warning, messageIndex: slot.messageIndex })));
  warnings.push(...referenceWarnings);
  if (measured !== undefined && measured > cap)
    warnings.push({
      type: 'request-over-budget',
      bytes: measured,
      cap,
      message: `the request is ${formatBytes(measured)} with every medium left out, over ${route.provider}'s ${formatBytes(cap)} per request: shorten its text or history`,
    });
  const sources = new Map<string, string>();
  for (const slot of slots)
    for (const part of slot.sent) if (part.type !== 'text') sources.set(part.data, slot.source.data);
  return { messages: assemble(), warnings, sources, ...(measured !== undefined && { requestBytes: measured }) };
}

/** The placeholder for a medium the provider refused once: it is not sent again. */
function refusedMedia(part: MediaPart): { parts: Part[]; warnings: SerializeWarning[] } {
  const warnings: SerializeWarning[] = [];
  return { parts: [omitMedia(part, 'refused-by-provider', -1, warnings)], warnings };
}
