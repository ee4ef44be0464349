import { describe, expect, it } from 'vitest';
import { requestJson } from '../providers/request-json.js';
import { serialize } from '../providers/serialize.js';
import type { Message } from '../types.js';
import { createMemoryMediaReferences } from '../references/media-references.js';
import { sha256OfBase64 } from '../session/content-address.js';
import { requestMeter } from './request-meter.js';

// Forty 1 MB screenshots in a log: 15 % of a token window, but over every route's bytes per request.
const messages: Message[] = [
  { role: 'user', parts: [{ type: 'text', text: 'watch' }] },
  { role: 'assistant', text: '', toolCalls: [{ id: 'c', name: 'shot', arguments: {} }] },
  {
    role: 'toolResult',
    toolCallId: 'c',
    toolName: 'shot',
    isError: false,
    parts: Array.from({ length: 40 }, () => ({
      type: 'image' as const,
      mediaType: 'image/png' as const,
      data: 'A'.repeat(1_000_000),
      width: 1000,
      height: 700,
    })),
  },
];

describe('requestMeter', () => {
  it('measures the log as one serialized request against the route’s cap', () => {
    const exact = requestJson(serialize('anthropic', { messages }).body).length;
    expect(requestMeter(messages, { provider: 'anthropic' })).toBe(
      `${(exact / 1e6).toFixed(1)} MB of 32.0 MB (${Math.round((exact / 32e6) * 100)} %)`,
    );
    expect(requestMeter(messages, { provider: 'gemini', model: 'gemini-3.1-pro-preview' })).toMatch(
      /^40\.\d MB of 20\.0 MB \(20\d %\)$/,
    );
    expect(requestMeter(messages, { provider: 'ollama', model: 'gemma3' })).toMatch(/ \(no cap\)$/);
    expect(requestMeter(messages, { provider: 'anthropic', images: 'fixed' })).toBe('—');
  });

  it('counts a medium the log uploaded to the route’s provider at its reference’s size, others inline', () => {
    const sha256 = sha256OfBase64('A'.repeat(1_000_000));
    const reference = { provider: 'anthropic' as const, id: 'file_1', mimeType: 'image/png' };
    const references = createMemoryMediaReferences([{ sha256, reference }]);
    const referenced = messages.map((message) =>
      message.role === 'toolResult'
        ? { ...message, parts: message.parts.map((part) => ({ ...part, reference })) }
        : message,
    );
    const exact = requestJson(serialize('anthropic', { messages: referenced }).body).length;
    expect(exact).toBeLessThan(10_000);
    expect(requestMeter(messages, { provider: 'anthropic' }, references)).toBe(
      `${(exact / 1e3).toFixed(2)} KB of 32.0 MB (0 %, 40 by reference)`,
    );
    // Gemini holds none of them: inline, as without the log's references.
    expect(requestMeter(messages, { provider: 'gemini', model: 'gemini-3.1-pro-preview' }, references)).toBe(
      requestMeter(messages, { provider: 'gemini', model: 'gemini-3.1-pro-preview' }),
    );
  });
});
