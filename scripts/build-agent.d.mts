import type { BuildOptions, Metafile, Plugin } from 'esbuild';

/** dist file → source: every `exports` entry of packages/agent/package.json, plus the CLI and its MCP worker. */
export function agentEntryPoints(exportsField?: Record<string, unknown>): Record<string, string>;
export const externalDependencies: Plugin;
/** Builds the agent's Node bundles into `outdir` (default packages/agent/dist); other keys are esbuild options. */
export function buildAgent(options?: BuildOptions & { outdir?: string }): Promise<Metafile>;
