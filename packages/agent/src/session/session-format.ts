/**
 * The on-disk shape of a glimpse session log (JSONL, one JSON value per line).
 *
 * Line 1 is a `SessionHeader`; every later line is a `SessionEntry` (a message) or a `SessionMediaLine` (a fact
 * about one medium of the log: a provider refused it, or holds it as a file reference). A line counts as committed only
 * once its terminating `\n` is on disk: the writer emits each line, newline included, in one write.
 * Media are stored inline as base64 in pi's image shape, so a log is one self-contained file.
 */

/**
 * Bumped when a reader of the previous version could misread a log. `media` lines did not bump it: every
 * version-1 reader refuses a line whose type it does not know (E_SESSION_CORRUPT naming the line) rather than
 * skip it, so an older glimpse never misreads a log that has them, and a log without them still reads there.
 */
export const SESSION_FORMAT_VERSION = 1;
export const SESSION_FORMAT_NAME = 'glimpse-session';

/** Line 1. `app` is free-form metadata of whoever wrote the log (name, version, model, cwd…). */
export interface SessionHeader {
  type: 'header';
  format: typeof SESSION_FORMAT_NAME;
  version: number;
  /** ISO 8601 time the log was created. */
  created: string;
  app: Record<string, unknown>;
}

/** One conversation message, as written. `at` is the ISO time of the append. */
export interface SessionEntry {
  type: 'message';
  at: string;
  message: LoggedMessage;
}

/**
 * A fact about one medium of the session, keyed by `sha256`: the hex SHA-256 of the medium's stored bytes (the
 * decoded base64 a message part holds, as content-addressed parts name it). Written after the message that holds
 * the medium; a later line about the same medium adds to or replaces what an earlier one said, field by field.
 */
export interface SessionMediaLine {
  type: 'media';
  at: string;
  sha256: string;
  /** A provider refused the medium; what the loop did with it since (refit smaller, or a placeholder). */
  refused?: MediaRefusalFact;
  /** The medium is uploaded to a provider's file API: later requests send this reference instead of base64. */
  reference?: MediaReferenceFact;
}

export interface MediaRefusalFact {
  /** The wire API (provider name, `ProviderName`) that refused it; other routes may still take the medium. */
  route: string;
  /** The refusal's typed code (`MediaRefusalCode`, e.g. `E_MEDIA_REFUSED`). */
  code: string;
  /**
   * `placeholder`: left out of every later request to this route. `refit`: the route refused a whole request as too
   * large (`E_REQUEST_TOO_LARGE`, a 413) and the loop re-fitted this medium smaller (or left it out) under a tightened
   * `maxRequestBytes`; the medium itself may be sent again.
   */
  action: 'refit' | 'placeholder';
  /** The provider's own words, for a reader of the log. */
  reason: string;
  /**
   * With `refit`: the bytes per request the route was tightened to (3/4 of the refused request). A resumed run takes
   * the smallest of its route's from its first request on, so it does not send the refused size again.
   */
  maxRequestBytes?: number;
}

export interface MediaReferenceFact {
  provider: 'anthropic' | 'openai' | 'gemini';
  /** Anthropic's and OpenAI's `file_id`, Gemini's file name (`files/…`). */
  id: string;
  /** Gemini's `fileUri`, where the provider refers to files by URI. */
  uri?: string;
  mimeType: string;
  /** ISO time after which the provider no longer holds the file (Gemini keeps files 48 hours). */
  expiresAt?: string;
}

/** What a writer's `appendMedia` takes: a media line without its type and time. */
export type MediaFact = Omit<SessionMediaLine, 'type' | 'at'>;

export type LoggedMessage = LoggedUserMessage | LoggedAssistantMessage | LoggedToolResultMessage;

export interface LoggedUserMessage {
  role: 'user';
  content: LoggedPart[];
}

export interface LoggedAssistantMessage {
  role: 'assistant';
  text: string;
  toolCalls: { id: string; name: string; arguments: Record<string, unknown>; signature?: string }[];
}

export interface LoggedToolResultMessage {
  role: 'toolResult';
  toolCallId: string;
  toolName: string;
  isError: boolean;
  content: LoggedPart[];
}

export type LoggedPart = LoggedTextPart | LoggedImagePart | LoggedDocumentPart;

export interface LoggedTextPart {
  type: 'text';
  text: string;
}

/**
 * `{"type":"image","data":"<base64>","mimeType":"image/png"}`, plus the pixel size when known.
 * Content-addressed logs add `sha256` (hex of the decoded bytes): the first occurrence carries `data`,
 * later ones carry only the hash and are resolved from the earlier line.
 */
export interface LoggedImagePart {
  type: 'image';
  data?: string;
  mimeType: 'image/png' | 'image/jpeg' | 'image/gif' | 'image/webp' | 'image/heic' | 'image/heif';
  sha256?: string;
  width?: number;
  height?: number;
}

/** `{"type":"document","data","mimeType","filename"}`; `filename` is omitted when the part had none. */
export interface LoggedDocumentPart {
  type: 'document';
  data?: string;
  mimeType: 'application/pdf';
  filename?: string;
  sha256?: string;
  pages?: number;
}
