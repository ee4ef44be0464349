import { describe, expect, it } from 'vitest';
import { clientHeadroom, fitRequestBudget, sentBytes, type MediaSlot, type Refit } from './fit-request-budget.js';
import type { ImagePart, Part } from './types.js';

// The budget's decisions on stand-in images: `data` of a given length, refits that honour the allowance down to
// a floor, and a request whose bytes are the slots' bytes plus fixed overhead.
const image = (bytes: number, edge = 1500): ImagePart => ({
  type: 'image',
  mediaType: 'image/png',
  data: 'A'.repeat(bytes),
  width: edge,
  height: Math.round((edge * 2) / 3),
});

function slot(bytes: number, messageIndex: number, newest = false): MediaSlot {
  const source = image(bytes);
  return { source, messageIndex, newest, sent: [source], warnings: [], settled: false };
}

const OVERHEAD = 10_000;
const measure = (slots: MediaSlot[]) => () => OVERHEAD + slots.reduce((sum, s) => sum + sentBytes(s), 0);

/** Refits to the allowance, never under `floor` bytes (then at its floor); records each call. */
function refitter(floor: number, calls: number[] = []) {
  return async (target: MediaSlot, allowance: number): Promise<Refit> => {
    calls.push(target.messageIndex);
    const bytes = Math.max(floor, Math.floor(allowance * 0.9));
    const parts: Part[] = [image(bytes, 1200)];
    return {
      parts,
      warnings: [
        {
          type: 'media-refitted',
          mediaType: 'image/jpeg',
          messageIndex: -1,
          from: { width: 1500, height: 1000 },
          to: { width: 1200, height: 800 },
          message: 'smaller',
        },
      ],
      atFloor: bytes === floor,
    };
  };
}

describe('fitRequestBudget', () => {
  it('leaves a request under its cap alone', async () => {
    const slots = [slot(100_000, 1), slot(100_000, 3, true)];
    const calls: number[] = [];
    const size = await fitRequestBudget({ slots, cap: 1_000_000, measure: measure(slots), refit: refitter(1, calls) });
    expect(size).toBe(OVERHEAD + 200_000);
    expect(calls).toEqual([]);
    expect(slots.every((s) => s.warnings.length === 0)).toBe(true);
  });

  it('takes from the oldest image first, a step at a time, and leaves the newest turn its fit', async () => {
    const slots = [slot(1_500_000, 1), slot(900_000, 3), slot(1_500_000, 5), slot(1_500_000, 7, true)];
    const newest = slots[3]!.sent;
    const calls: number[] = [];
    // Over by 500 KB: the oldest image's first step (to 0.6 of its bytes) is enough.
    const cap = OVERHEAD + 5_400_000 - 500_000 + 64_000;
    const size = await fitRequestBudget({ slots, cap, measure: measure(slots), refit: refitter(50_000, calls) });
    expect(size).toBeLessThanOrEqual(cap - 64_000);
    expect(calls).toEqual([1]);
    expect(sentBytes(slots[0]!)).toBe(Math.floor(1_500_000 * 0.6 * 0.9));
    expect(slots.slice(1).map(sentBytes)).toEqual([900_000, 1_500_000, 1_500_000]);
    expect(slots[3]!.sent).toBe(newest);
    expect(slots[0]!.warnings).toHaveLength(1);
    // Over by more: every older image goes a step down before the oldest goes a second.
    const again = [slot(1_500_000, 1), slot(900_000, 3), slot(1_500_000, 5), slot(1_500_000, 7, true)];
    const more: number[] = [];
    await fitRequestBudget({ slots: again, cap: 3_500_000, measure: measure(again), refit: refitter(50_000, more) });
    expect(more.slice(0, 3)).toEqual([1, 3, 5]);
    expect(more[3]).toBe(1);
    expect(again[3]!.warnings).toEqual([]);
  });

  it('goes to the newest turn only when the older images are at their floor', async () => {
    const slots = [slot(1_000_000, 1), slot(1_000_000, 3), slot(2_000_000, 5, true), slot(2_000_000, 5, true)];
    const calls: number[] = [];
    const size = await fitRequestBudget({
      slots,
      cap: 2_600_000,
      measure: measure(slots),
      refit: refitter(400_000, calls),
    });
    expect(size).toBeLessThanOrEqual(2_600_000 - 64_000);
    expect(sentBytes(slots[0]!)).toBe(400_000);
    expect(sentBytes(slots[1]!)).toBe(400_000);
    // The older turn was settled at its floor before the newest turn was asked for anything.
    const firstNewest = calls.indexOf(5);
    expect(firstNewest).toBeGreaterThan(calls.lastIndexOf(3));
    expect(firstNewest).toBeGreaterThan(calls.lastIndexOf(1));
    expect(calls.slice(firstNewest).every((index) => index === 5)).toBe(true);
    expect(slots.every((s) => s.sent.some((part) => part.type === 'image'))).toBe(true);
  });

  it('then leaves the oldest out with a note saying what and how to see it again, never the newest first', async () => {
    const slots = [slot(1_000_000, 1), slot(1_000_000, 3), slot(1_000_000, 5), slot(1_000_000, 7, true)];
    // At their floor (600 KB each) two fit under 1.5 MB: the two oldest go, and each of the rest keeps its image.
    const size = await fitRequestBudget({ slots, cap: 1_500_000, measure: measure(slots), refit: refitter(600_000) });
    expect(size).toBeLessThanOrEqual(1_500_000 - 64_000);
    const kept = slots.map((s) => s.sent.some((part) => part.type === 'image'));
    expect(kept).toEqual([false, false, true, true]);
    expect(slots.slice(2).every((s) => sentBytes(s) === 600_000)).toBe(true);
    for (const omitted of slots.slice(0, 2)) {
      expect(omitted.sent).toEqual([
        {
          type: 'text',
          text: expect.stringMatching(
            /^\[an image \(image\/png, 1500x1000 px\) was omitted: the request would pass this provider's bytes per request .* view the file again to see it\]$/,
          ),
        },
      ]);
      expect(omitted.warnings).toMatchObject([
        { type: 'media-omitted', reason: 'request-too-large', messageIndex: omitted.messageIndex },
      ]);
    }
  });

  it('leaves the oldest images out past the route’s count, before any byte is measured', async () => {
    const slots = [slot(10, 1), slot(10, 2), slot(10, 3, true)];
    await fitRequestBudget({ slots, cap: 1_000_000, maxImages: 2, measure: measure(slots), refit: refitter(1) });
    expect(slots[0]!.warnings).toMatchObject([{ type: 'media-omitted', reason: 'too-many-images' }]);
    expect(slots.slice(1).every((s) => s.sent[0]?.type === 'image')).toBe(true);
  });

  it('keeps 64,000 bytes free under a provider-sized cap, a share of a small one', () => {
    expect([clientHeadroom(32_000_000), clientHeadroom(20_000_000), clientHeadroom(2_000_000)]).toEqual([
      64_000, 64_000, 64_000,
    ]);
    // A gateway's 100 KB, tightened after a 413 to 3/4 of the 117,880 bytes sent: 1 KB and a sixteenth of it.
    expect(clientHeadroom(88_410)).toBe(1_024 + 5_526);
  });

  it('under a small cap an image that fits once refitted is sent, not left out for the headroom', async () => {
    const slots = [slot(78_000, 1, true)];
    // At its floor (30 KB) the request is 40 KB: over 88,410 less a fixed 64,000, well under it less 6,550.
    const size = await fitRequestBudget({ slots, cap: 88_410, measure: measure(slots), refit: refitter(30_000) });
    expect(slots[0]!.sent[0]?.type).toBe('image');
    expect(slots[0]!.warnings).toMatchObject([{ type: 'media-refitted' }]);
    expect(size).toBeLessThanOrEqual(88_410 - clientHeadroom(88_410));
  });

  it('leaves nothing out while an image can still go smaller, however far the estimate is off', async () => {
    const slots = [slot(100_000, 1), slot(100_000, 3), slot(100_000, 5, true)];
    // The wire counts a quarter of each image's bytes: the budget's running estimate, which subtracts each saving
    // in full, thinks the request fits long before it does, pass after pass.
    const quarter = () => OVERHEAD + slots.reduce((sum, s) => sum + sentBytes(s), 0) / 4;
    const cap = 40_000;
    const size = await fitRequestBudget({ slots, cap, measure: quarter, refit: refitter(5_000) });
    expect(slots.map((s) => s.sent[0]?.type)).toEqual(['image', 'image', 'image']);
    expect(size).toBeLessThanOrEqual(cap - clientHeadroom(cap));
  });

  it('returns the size over the cap when text alone is over it: nothing is taken that would not help', async () => {
    const slots = [slot(1_000, 1, true)];
    const size = await fitRequestBudget({ slots, cap: 5_000, measure: measure(slots), refit: refitter(500) });
    expect(size).toBeGreaterThan(5_000);
    expect(slots[0]!.warnings).toMatchObject([{ type: 'media-omitted', reason: 'request-too-large' }]);
  });
});
