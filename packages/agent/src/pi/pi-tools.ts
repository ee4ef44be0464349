import type { AgentTool as PiAgentTool, AgentToolResult as PiAgentToolResult } from '@mariozechner/pi-agent-core';
import type { TSchema } from '@mariozechner/pi-ai';
import type { Tool } from '../types.js';
import { fitPiContent, type FitPiContentOptions } from './fit-pi-content.js';
import { toPiContent } from './pi-content.js';
import { presetForPiModel, type PiModelInfo } from './pi-route.js';

/** Which pi model tool results are for: fixed, or read at every call (pi can switch models mid-session). */
export type PiModelSource = PiModelInfo | (() => PiModelInfo | undefined);

export interface PiToolOptions extends Omit<FitPiContentOptions, 'model'> {
  model?: PiModelSource;
}

/** The fit options for this call: the model read now. */
export function fitOptionsNow(options: PiToolOptions): FitPiContentOptions {
  const model = typeof options.model === 'function' ? options.model() : options.model;
  return {
    ...(options.preset !== undefined && { preset: options.preset }),
    ...(options.limits !== undefined && { limits: options.limits }),
    ...(model !== undefined && { model }),
  };
}

/**
 * A pi tool whose results are fitted: whatever its `execute` returns (a screenshot from a browser, an image
 * from an MCP server), every image reaches the model through `@glimpse/media`. Everything else is the tool's own.
 */
export function fitPiTool<P extends TSchema, D>(
  tool: PiAgentTool<P, D>,
  options: PiToolOptions = {},
): PiAgentTool<P, D> {
  return {
    ...tool,
    execute: async (toolCallId, params, signal, onUpdate) => {
      const result: PiAgentToolResult<D> = await tool.execute(toolCallId, params, signal, onUpdate);
      return { ...result, content: await fitPiContent(result.content, fitOptionsNow(options)) };
    },
  };
}

/**
 * A glimpse tool (`read`, `view_file`, a wrapped MCP tool, any `Tool`) as a pi tool. Its parts are fitted already; a PDF becomes text and page images (pi has no
 * document type). A failed call throws its text, which is how pi wants tools to fail.
 */
export function toPiTool(
  tool: Tool,
  options: PiToolOptions & { label?: string } = {},
): PiAgentTool<TSchema, undefined> {
  const { name, description, parameters } = tool.definition;
  return {
    name,
    description,
    label: options.label ?? name,
    // pi validates arguments against any JSON Schema object; TypeBox's TSchema is an empty interface.
    parameters: parameters satisfies TSchema,
    execute: async (_toolCallId, params, signal) => {
      const args: Record<string, unknown> = typeof params === 'object' && params !== null ? { ...params } : {};
      const result = await tool.execute(args, signal ? { signal } : {});
      if (result.isError)
        throw new Error(result.parts.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('\n'));
      const { model } = fitOptionsNow(options);
      const preset = options.preset ?? (model === undefined ? 'portable' : presetForPiModel(model));
      return { content: await toPiContent(result.parts, { ...options.limits, preset }), details: undefined };
    },
  };
}
