import { describe, expect, it } from 'vitest';
import { toAiSdkModelOutput } from './to-ai-sdk-model-output.js';

describe('toAiSdkModelOutput', () => {
  it('maps text, images and PDFs to the AI SDK content items', () => {
    expect(
      toAiSdkModelOutput({
        isError: false,
        parts: [
          { type: 'text', text: 'shot.png: PNG 800x600' },
          { type: 'image', mediaType: 'image/png', data: 'iVBORw0KGgo=', width: 800, height: 600 },
          { type: 'document', mediaType: 'application/pdf', data: 'JVBERi0=', filename: 'a.pdf', pages: 2 },
        ],
      }),
    ).toEqual({
      type: 'content',
      value: [
        { type: 'text', text: 'shot.png: PNG 800x600' },
        { type: 'file', data: { type: 'data', data: 'iVBORw0KGgo=' }, mediaType: 'image/png' },
        { type: 'file', data: { type: 'data', data: 'JVBERi0=' }, mediaType: 'application/pdf', filename: 'a.pdf' },
      ],
    });
  });

  it('turns an error result into error-text', () => {
    expect(
      toAiSdkModelOutput({ isError: true, parts: [{ type: 'text', text: 'E_FILE_NOT_FOUND: No file at x.png.' }] }),
    ).toEqual({ type: 'error-text', value: 'E_FILE_NOT_FOUND: No file at x.png.' });
  });
});
