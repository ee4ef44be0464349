// The session every runtime's store round-trips (workerd's D1 + R2, Chromium's PGlite on IndexedDB): runtime-
// neutral, made from bytes here, so each suite compares what it reads back with the very messages it wrote.
import type { Message } from '../../../packages/agent/src/types.js';

/** Deterministic bytes standing in for an image or PDF file (stores keep bytes; they never decode them). */
function medium(seed: number, length: number): string {
  let binary = '';
  for (let i = 0; i < length; i++) binary += String.fromCharCode((seed * 131 + i * 7 + (i >> 5)) & 0xff);
  return btoa(binary);
}

const screenshot = medium(1, 48_000);
const photo = medium(2, 20_000);
const pdf = medium(3, 6_000);

/** Two runs' worth: the second half is appended after reopening, as a resumed session. */
export const SESSION_RUNS: Message[][] = [
  [
    { role: 'user', parts: [{ type: 'text', text: 'look at the screenshot and the photo' }] },
    {
      role: 'assistant',
      text: '',
      toolCalls: [
        { id: 'c1', name: 'view_file', arguments: { path: 'shot.png' } },
        { id: 'c2', name: 'view_file', arguments: { path: 'photo.jpg' }, signature: 'sig-1' },
      ],
    },
    {
      role: 'toolResult',
      toolCallId: 'c1',
      toolName: 'view_file',
      isError: false,
      parts: [
        { type: 'text', text: 'shot.png 1568×980' },
        { type: 'image', mediaType: 'image/png', data: screenshot, width: 1568, height: 980 },
      ],
    },
    {
      role: 'toolResult',
      toolCallId: 'c2',
      toolName: 'view_file',
      isError: false,
      parts: [{ type: 'image', mediaType: 'image/jpeg', data: photo, width: 900, height: 1200 }],
    },
  ],
  [
    { role: 'user', parts: [{ type: 'text', text: 'and again, with the report' }] },
    {
      role: 'toolResult',
      toolCallId: 'c3',
      toolName: 'view_file',
      isError: true,
      parts: [
        { type: 'image', mediaType: 'image/png', data: screenshot, width: 1568, height: 980 },
        { type: 'document', mediaType: 'application/pdf', data: pdf, filename: 'report.pdf', pages: 1 },
      ],
    },
    { role: 'assistant', text: 'a screenshot, a photo and a one-page report', toolCalls: [] },
  ],
];

/** The distinct media of the session: each store must hold exactly these, once. */
export const UNIQUE_MEDIA = [screenshot, photo, pdf];
