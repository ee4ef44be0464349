// Runs the `glimpse` CLI's main() in-process with its output captured: the exit code and what it printed.
import { vi } from 'vitest';
import { main } from '../../packages/agent/src/cli/main.js';
import { captureOutput } from './capture-output.js';

export interface CliRun {
  code: number;
  out: string;
  err: string;
}

export async function runCli(...argv: string[]): Promise<CliRun> {
  const { stdout, stderr } = captureOutput();
  try {
    return { code: await main(argv), out: stdout.join(''), err: stderr.join('') };
  } finally {
    vi.restoreAllMocks();
  }
}
