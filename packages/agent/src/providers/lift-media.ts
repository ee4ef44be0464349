import type { MediaPart, Part, TextPart, ToolResultMessage } from '../types.js';

/** A tool result split for a route that cannot carry its media inside the result. */
export interface SplitResult {
  /** What stays in the tool result: its text, plus a line saying where the media went. Never empty. */
  text: TextPart[];
  /** The media, to be sent in the same turn after the results, or in the next user message. */
  media: MediaPart[];
}

function count(media: readonly MediaPart[]): string {
  const images = media.filter((part) => part.type === 'image').length;
  const documents = media.length - images;
  const phrase = (n: number, one: string, many: string) => (n === 0 ? [] : [`${n} ${n === 1 ? one : many}`]);
  return [...phrase(images, 'image', 'images'), ...phrase(documents, 'PDF', 'PDFs')].join(' and ');
}

/** The text for a result that is only media, on routes that want text beside it: "[1 image attached]". */
export function attachedLine(media: readonly MediaPart[]): string {
  return `[${count(media)} attached]`;
}

/** Text of a result with no parts at all; providers reject empty tool results. */
export const EMPTY_RESULT = '(no output)';

/** Keeps a result's text in place and takes its media out, leaving a line that says where the media went. */
export function splitToolResult(result: ToolResultMessage): SplitResult {
  const text = result.parts.filter((part): part is TextPart => part.type === 'text');
  const media = result.parts.filter((part): part is MediaPart => part.type !== 'text');
  if (media.length > 0) {
    text.push({
      type: 'text',
      text: `[${count(media)} from this result ${media.length === 1 ? 'is' : 'are'} attached after the tool results, labelled ${result.toolCallId}]`,
    });
  }
  return { text: text.length > 0 ? text : [{ type: 'text', text: EMPTY_RESULT }], media };
}

/**
 * The parts that carry lifted media: for each result that had any, a label naming the call, then its media.
 * One list for all results of a turn, so a provider can send them as one message after the last result.
 */
export function liftedMediaParts(results: readonly ToolResultMessage[]): Part[] {
  return results.flatMap((result) => {
    const { media } = splitToolResult(result);
    if (media.length === 0) return [];
    return [
      { type: 'text', text: `Attached from tool result ${result.toolCallId} (${result.toolName}):` } satisfies TextPart,
      ...media,
    ];
  });
}

/** All text of parts joined, for routes whose tool results are one string. */
export function joinText(parts: readonly TextPart[]): string {
  return parts.map((part) => part.text).join('\n');
}

/** For routes without an error flag on tool results: make a failed result say so in its text. */
export function markError(text: string, isError: boolean): string {
  return isError && !/^error\b/i.test(text) ? `Error: ${text}` : text;
}

/** A failed result's parts, its first text saying it failed (or an `Error:` line in front when it has no text first). */
export function flagError(result: ToolResultMessage): Part[] {
  if (!result.isError) return result.parts;
  const [first, ...rest] = result.parts;
  if (first?.type === 'text') return [{ type: 'text', text: markError(first.text, true) }, ...rest];
  return [{ type: 'text', text: 'Error:' }, ...result.parts];
}
