// The agent-loop tests' screen: a `screenshot` tool whose `n` argument seeds a dense synthetic screenshot
// (test/support/dense-screenshot.ts, so each n is its own bytes and the same n the same bytes), and the script of a
// model that calls it once a turn, then answers.
import type { HandlerTool } from '../../packages/agent/src/index.js';
import type { ScriptEntry } from './api-server.js';
import { denseScreenshot } from './dense-screenshot.js';

export function screenshotTool({
  width,
  height,
  text,
  onShot,
}: {
  /** The screenshot's size; default denseScreenshot's (1500×1000). */
  width?: number;
  height?: number;
  /** The result's text beside the image; none by default. */
  text?: string;
  /** Called with each call's `n` before the screenshot is taken (a test may change the store then). */
  onShot?: (n: number) => void;
} = {}): HandlerTool {
  return {
    definition: { name: 'screenshot', description: 'Takes a screenshot', parameters: { type: 'object' } },
    handler: async (args) => {
      const n = Number(args.n);
      onShot?.(n);
      const bytes = await denseScreenshot({
        seed: n,
        ...(width !== undefined && { width }),
        ...(height !== undefined && { height }),
      });
      return { ...(text !== undefined && { text }), attachments: [{ bytes, filename: 'screen.png' }] };
    },
  };
}

/** `turns` model turns that each call `screenshot` with n = from, from + 1, … (ids `call_<n>`), then `last` as text. */
export function screenshotTurns(from: number, turns: number, last = 'Done.'): ScriptEntry[] {
  return [
    ...Array.from({ length: turns }, (_, i) => ({
      toolCalls: [{ id: `call_${from + i}`, name: 'screenshot', arguments: { n: from + i } }],
    })),
    { text: last },
  ];
}

/**
 * `count` screenshots rendered once (seeds `seed`, `seed + 1`, …), as base64, and a `screenshot` tool that returns the
 * n-th as an attachment's `data`: a test finds each in a request by its base64.
 */
export async function storedScreenshots({
  count,
  seed,
  width = 400,
  height = 300,
}: {
  count: number;
  seed: number;
  width?: number;
  height?: number;
}): Promise<{ shots: string[]; tool: HandlerTool }> {
  const shots = await Promise.all(
    Array.from({ length: count }, async (_, i) =>
      (await denseScreenshot({ seed: seed + i, width, height })).toString('base64'),
    ),
  );
  const tool: HandlerTool = {
    definition: { name: 'screenshot', description: 'Takes a screenshot', parameters: { type: 'object' } },
    handler: (args) => {
      const data = shots[Number(args.n)];
      if (data === undefined) throw new Error(`no screenshot ${String(args.n)}`);
      return { attachments: [{ data, mediaType: 'image/png', filename: 'screen.png' }] };
    },
  };
  return { shots, tool };
}
