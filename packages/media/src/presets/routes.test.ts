import { describe, expect, it } from 'vitest';
import { isMediaError } from '../errors.js';
import { resolveLimits } from './limits.js';
import { PRESETS } from './presets.js';
import { ROUTES, ROUTE_NAMES } from './routes.js';

describe('the route table', () => {
  it('is what the presets read: image types and PDF support come from each preset’s route', () => {
    for (const name of ROUTE_NAMES) {
      const route = ROUTES[name];
      expect(PRESETS[route.preset].accepts, name).toEqual(route.imageTypes);
      expect(PRESETS[route.preset].maxPdfPages > 0, name).toBe(route.pdfInput);
    }
    // portable takes what every hosted route takes: no GIF (Gemini), no route left out.
    expect(PRESETS.portable.accepts).toEqual(['image/png', 'image/jpeg', 'image/webp']);
  });
});

describe('the preset option', () => {
  it('is named preset; provider, its old name, still works', () => {
    expect(resolveLimits({ preset: 'gemini' }).maxEdge).toBe(3072);
    expect(resolveLimits({ provider: 'gemini' }).maxEdge).toBe(3072);
    expect(resolveLimits({ preset: 'ollama', provider: 'ollama' }).maxEdge).toBe(1344);
    expect(resolveLimits({}).maxEdge).toBe(PRESETS.portable.maxEdge);
  });

  it('refuses two different presets, and an unknown one, with E_INVALID_OPTIONS', () => {
    const code = (run: () => unknown) => {
      try {
        run();
      } catch (error) {
        return isMediaError(error) ? error.code : 'untyped';
      }
      return 'none';
    };
    expect(code(() => resolveLimits({ preset: 'gemini', provider: 'anthropic' }))).toBe('E_INVALID_OPTIONS');
    // @ts-expect-error an unknown name, as JavaScript callers may pass
    expect(code(() => resolveLimits({ preset: 'openai-chat' }))).toBe('E_INVALID_OPTIONS');
  });
});
