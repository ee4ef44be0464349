import type { BuildOptions, Metafile, Plugin } from 'esbuild';

export const AGENT_ENTRY_POINTS: Record<string, string>;
export const externalDependencies: Plugin;
/** Builds the agent's Node bundles into `outdir` (default packages/agent/dist); other keys are esbuild options. */
export function buildAgent(options?: BuildOptions & { outdir?: string }): Promise<Metafile>;
