/**
 * The on-disk shape of a glimpse session log (JSONL, one JSON value per line).
 *
 * Line 1 is a `SessionHeader`; every later line is a `SessionEntry`. A line counts as committed only
 * once its terminating `\n` is on disk: the writer emits each line, newline included, in one write.
 * Media are stored inline as base64 in pi's image shape, so a log is one self-contained file.
 */

/** Bumped when a reader of the previous version could misread a log. */
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
