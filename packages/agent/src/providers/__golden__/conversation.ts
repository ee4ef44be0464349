// The conversation every provider's golden test serializes: a user image, one assistant turn with three
// parallel calls (an image result, a PDF-only result, an error result that also carries an image), a reply,
// and a follow-up question. Media data is short base64 of readable words so expectations stay legible.
import type { DocumentPart, ImagePart, Message, ToolDefinition } from '../../types.js';

const b64 = (text: string): string => btoa(text);

export const USER_IMAGE: ImagePart = {
  type: 'image',
  mediaType: 'image/png',
  data: b64('user-image'),
  width: 640,
  height: 480,
};
export const CHART: ImagePart = {
  type: 'image',
  mediaType: 'image/jpeg',
  data: b64('chart-image'),
  width: 1568,
  height: 882,
};
export const REPORT: DocumentPart = {
  type: 'document',
  mediaType: 'application/pdf',
  data: b64('report-pdf'),
  filename: 'Q3 report.v2.pdf',
  pages: 2,
};
export const CRASH: ImagePart = {
  type: 'image',
  mediaType: 'image/png',
  data: b64('crash-shot'),
  width: 800,
  height: 600,
};

export const CONVERSATION: Message[] = [
  { role: 'user', parts: [{ type: 'text', text: 'What changed?' }, USER_IMAGE] },
  {
    role: 'assistant',
    text: 'Let me look.',
    toolCalls: [
      { id: 'call_a', name: 'view_file', arguments: { path: 'chart.jpg' } },
      { id: 'call_b', name: 'view_file', arguments: { path: 'Q3 report.v2.pdf' } },
      { id: 'call_c', name: 'run', arguments: { command: 'make' } },
    ],
  },
  // Results arrive out of call order; serializers put them back in call order.
  { role: 'toolResult', toolCallId: 'call_b', toolName: 'view_file', parts: [REPORT], isError: false },
  {
    role: 'toolResult',
    toolCallId: 'call_a',
    toolName: 'view_file',
    parts: [{ type: 'text', text: 'chart.jpg' }, CHART],
    isError: false,
  },
  {
    role: 'toolResult',
    toolCallId: 'call_c',
    toolName: 'run',
    parts: [{ type: 'text', text: 'make failed: exit 2' }, CRASH],
    isError: true,
  },
  { role: 'assistant', text: 'Revenue grew; the build fails.', toolCalls: [] },
  { role: 'user', parts: [{ type: 'text', text: 'Why does it fail?' }] },
];

export const TOOLS: ToolDefinition[] = [
  {
    name: 'view_file',
    description: 'Look at a file.',
    parameters: {
      type: 'object',
      properties: { path: { type: 'string', description: 'The file.' } },
      required: ['path'],
    },
  },
];

/** The --no-vision switch: any model, text only. */
export const TEXT_ONLY = { capabilities: { imageInput: false, pdfInput: false } } as const;

export const PLACEHOLDER = {
  userImage: '[an image (image/png, 640x480 px) was omitted: this model does not accept images]',
  chart: '[an image (image/jpeg, 1568x882 px) was omitted: this model does not accept images]',
  report: '[a PDF (Q3 report.v2.pdf, 2 pages) was omitted: this model does not accept PDF documents]',
  crash: '[an image (image/png, 800x600 px) was omitted: this model does not accept images]',
} as const;
