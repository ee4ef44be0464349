import type { SerializeWarning } from '../providers/types.js';

/**
 * What the middleware tells the app: media replaced by a placeholder (the model cannot read it), or media that
 * could not be fitted (corrupt, unsupported, too large): the model reads a note in its place either way.
 */
export type FitMediaWarning =
  | Extract<SerializeWarning, { type: 'media-omitted' }>
  /** An image fitted smaller to keep the request within its route's bytes per request. */
  | Extract<SerializeWarning, { type: 'media-refitted' }>
  | { type: 'media-failed'; messageIndex: number; message: string };
