import type { AfterToolCallContext, AfterToolCallResult } from '@mariozechner/pi-agent-core';
import type { Api, Model } from '@mariozechner/pi-ai';
import { fitPiContent, type FitPiContentOptions } from './fit-pi-content.js';
import type { PiContent } from './pi-content.js';
import { fitOptionsNow, type PiToolOptions } from './pi-tools.js';

/**
 * pi-agent-core's `afterToolCall` hook that fits the result of every tool the agent runs, wrapped or not:
 * `new Agent({ afterToolCall: fitPiToolResults({ model: () => agent.state.model }) })`.
 */
export function fitPiToolResults(
  options: PiToolOptions = {},
): (context: AfterToolCallContext) => Promise<AfterToolCallResult | undefined> {
  return async ({ result }) => {
    const content: PiContent[] = result.content;
    if (!content.some((item) => item.type === 'image')) return undefined;
    return { content: await fitPiContent(content, fitOptionsNow(options)) };
  };
}

/** The part of pi's extension API the glimpse extension uses (`@mariozechner/pi-coding-agent`'s `ExtensionAPI`). */
export interface PiExtensionApi {
  on(
    event: 'tool_result',
    handler: (
      event: { content: PiContent[] },
      context: { model: Model<Api> | undefined },
    ) => Promise<{ content?: PiContent[] } | undefined>,
  ): void;
}

/**
 * A pi coding-agent extension: every tool result — built-in tools, other extensions' tools, MCP adapters —
 * has its images fitted for the session's current model before the model sees them, so one oversized
 * screenshot cannot brick a session. In `~/.pi/agent/extensions/glimpse.ts`:
 * `export default glimpsePiExtension();`
 */
export function glimpsePiExtension(options: Omit<FitPiContentOptions, 'model'> = {}): (pi: PiExtensionApi) => void {
  return (pi) => {
    pi.on('tool_result', async (event, context) => {
      if (!event.content.some((item) => item.type === 'image')) return undefined;
      return {
        content: await fitPiContent(event.content, {
          ...options,
          ...(context.model !== undefined && { model: context.model }),
        }),
      };
    });
  };
}
