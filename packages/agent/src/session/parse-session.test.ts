import { describe, expect, it } from 'vitest';
import { throwsWith } from '../../../../test/support/typed-errors.js';
import { parseSession } from './parse-session.js';
import { SessionError } from './session-error.js';

const header = JSON.stringify({
  type: 'header',
  format: 'glimpse-session',
  version: 1,
  created: '2026-01-01T00:00:00.000Z',
  app: {},
});
const user = (text: string) =>
  JSON.stringify({
    type: 'message',
    at: '2026-01-01T00:00:01.000Z',
    message: { role: 'user', content: [{ type: 'text', text }] },
  });
const bytes = (text: string) => new TextEncoder().encode(text);

describe('parseSession', () => {
  it('drops and reports a torn last line at every cut point', () => {
    const committed = `${header}\n${user('a')}\n`;
    const last = `${user('b')}\n`;
    for (let cut = 0; cut < last.length; cut++) {
      const loaded = parseSession(bytes(committed + last.slice(0, cut)));
      expect(loaded.messages).toHaveLength(1);
      expect(loaded.committedBytes).toBe(bytes(committed).length);
      expect(loaded.tornTail).toEqual(cut === 0 ? undefined : { line: 3, bytes: cut });
    }
    expect(parseSession(bytes(committed + last)).messages).toHaveLength(2);
  });

  it('names the line of any committed bad line', () => {
    const cases: [string, RegExp][] = [
      [`${header}\n${user('a')}\n{"type":"message"\n${user('c')}\n`, /line 3: not valid JSON/],
      [`${header}\n\n${user('c')}\n`, /line 2: empty line/],
      [
        `${header}\n${user('a')}\n{"type":"message","at":"x","message":{"role":"robot"}}\n`,
        /line 3: unknown message role "robot"/,
      ],
      [
        `${header}\n{"type":"message","at":"x","message":{"role":"user","content":[{"type":"image","data":"AAAA","mimeType":"image/tiff"}]}}\n`,
        /line 2: image mimeType "image\/tiff"/,
      ],
      [
        `${header}\n{"type":"message","at":"x","message":{"role":"user","content":[{"type":"image","mimeType":"image/png","sha256":"${'a'.repeat(64)}"}]}}\n`,
        /line 2: .*no earlier line stores/,
      ],
      [
        `${header}\n{"type":"message","at":"x","message":{"role":"user","content":[{"type":"image","data":"AAAA","mimeType":"image/png","sha256":"${'a'.repeat(64)}"}]}}\n`,
        /line 2: image data hashes to/,
      ],
      [
        `${header}\n{"type":"message","at":"x","message":{"role":"user","content":[{"type":"image","data":"not base64!","mimeType":"image/png"}]}}\n`,
        /line 2: image data is not base64/,
      ],
      [`{"type":"header"}\n`, /line 1: not a glimpse session header/],
      [``, /line 1: not a glimpse session: the header is missing/],
    ];
    for (const [text, message] of cases) {
      expect(throwsWith(() => parseSession(bytes(text)), SessionError, 'E_SESSION_CORRUPT').message).toMatch(message);
    }
  });

  it('reads media lines in their place and names the line of a bad one', () => {
    const sha256 = 'b'.repeat(64);
    const media = (fields: Record<string, unknown>) =>
      JSON.stringify({ type: 'media', at: '2026-01-01T00:00:02.000Z', sha256, ...fields });
    const refused = { route: 'gemini', code: 'E_REQUEST_TOO_LARGE', action: 'refit', reason: '', maxRequestBytes: 9 };
    const loaded = parseSession(
      bytes(`${header}\n${user('a')}\n${media({ refused, extra: 'kept out' })}\n${user('b')}\n`),
    );
    expect(loaded.messages).toHaveLength(2);
    expect(loaded.media).toStrictEqual([
      { type: 'media', at: '2026-01-01T00:00:02.000Z', sha256, refused, line: 3, afterEntries: 1 },
    ]);
    const cases: [string, RegExp][] = [
      [media({}), /line 3: media line: has neither "refused" nor "reference"/],
      [media({ sha256: 'B'.repeat(64), refused }), /line 3: media line: sha256 "B+" is not 64 lowercase hex/],
      [media({ refused: { ...refused, action: 'drop' } }), /line 3: media line: refused.action "drop" is not one of/],
      [media({ refused: { ...refused, maxRequestBytes: 0 } }), /line 3: media line: refused.maxRequestBytes 0 is not/],
      [media({ refused: { ...refused, maxRequestBytes: '9' } }), /refused.maxRequestBytes "9" is not a positive/],
      [media({ reference: { provider: 7, id: 'x', mimeType: 'image/png' } }), /line 3: media line: reference.provider/],
      [
        media({ reference: { provider: 'bedrock', id: '', mimeType: 'image/png' } }),
        /line 3: media line: reference.id/,
      ],
      [
        media({ reference: { provider: 'bedrock', id: 'x', mimeType: 'image/png', expiresAt: 'soon' } }),
        /line 3: media line: reference.expiresAt is not an ISO time/,
      ],
      [
        media({ reference: { provider: 'gemini', id: 'files/x', mimeType: 'image/png', expiresAt: 'soon' } }),
        /line 3: media line: reference.expiresAt is not an ISO time/,
      ],
      [JSON.stringify({ type: 'media', sha256, refused }), /line 3: media line: time "at"/],
    ];
    for (const [line, pattern] of cases) {
      const error = throwsWith(() => parseSession(bytes(`${header}\n${user('a')}\n${line}\n`)), SessionError);
      expect(error.code).toBe('E_SESSION_CORRUPT');
      expect(error.message).toMatch(pattern);
    }
  });

  it('passes over a well-formed reference of a provider it does not know (a newer writer’s), keeping the rest', () => {
    const sha256 = 'c'.repeat(64);
    const at = '2026-01-01T00:00:02.000Z';
    const bedrock = { provider: 'bedrock', id: 's3://b/k', mimeType: 'image/png' };
    const gemini = { provider: 'gemini', id: 'files/x', uri: 'https://g/files/x', mimeType: 'image/png' };
    const refused = { route: 'bedrock', code: 'E_MEDIA_REFUSED', action: 'placeholder', reason: 'no' };
    const line = (fields: Record<string, unknown>) => JSON.stringify({ type: 'media', at, sha256, ...fields });
    const loaded = parseSession(
      bytes(
        `${header}\n${user('a')}\n${line({ reference: bedrock })}\n${line({ reference: gemini })}\n` +
          `${line({ refused, reference: bedrock })}\n${user('b')}\n`,
      ),
    );
    expect(loaded.messages).toHaveLength(2);
    expect(loaded.media).toStrictEqual([
      { type: 'media', at, sha256, reference: gemini, line: 4, afterEntries: 1 },
      { type: 'media', at, sha256, refused, line: 5, afterEntries: 1 },
    ]);
  });

  it('a bad line in the middle is corruption even when the tail is torn', () => {
    const error = throwsWith(
      () => parseSession(bytes(`${header}\nnope\n${user('b').slice(0, 10)}`)),
      SessionError,
      'E_SESSION_CORRUPT',
    );
    expect([error.line, error.message]).toEqual([2, expect.stringMatching(/^line 2: /)]);
  });

  it('refuses logs from a newer format version', () => {
    const newer = JSON.stringify({ type: 'header', format: 'glimpse-session', version: 99, created: 'x', app: {} });
    expect(throwsWith(() => parseSession(bytes(`${newer}\n`)), SessionError, 'E_SESSION_VERSION').line).toBe(1);
  });
});
