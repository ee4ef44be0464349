// What the code under test writes to stdout and stderr (the CLI's commands), captured instead of printed, for
// the agent's CLI tests. The spies stay until `vi.restoreAllMocks()` (each such test file restores after each test).
import { vi } from 'vitest';

export interface CapturedOutput {
  stdout: string[];
  stderr: string[];
}

export function captureOutput(): CapturedOutput {
  const captured: CapturedOutput = { stdout: [], stderr: [] };
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
    captured.stdout.push(String(chunk));
    return true;
  });
  vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => {
    captured.stderr.push(String(chunk));
    return true;
  });
  return captured;
}
