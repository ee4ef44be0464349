import { spawn } from 'node:child_process';
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadSession } from '../packages/agent/src/session/load-session.js';
import { SessionWriter } from '../packages/agent/src/session/session-writer.js';
import { crashEntry } from './fixtures/session-crash-entry.js';

let workDir: string;
let childScript: string;

beforeAll(async () => {
  workDir = await mkdtemp(join(tmpdir(), 'glimpse-crash-'));
  childScript = join(workDir, 'writer.mjs');
  // Node 20 runs no TypeScript: bundle the child writer once.
  await build({
    entryPoints: [fileURLToPath(new URL('./fixtures/session-crash-writer.ts', import.meta.url))],
    outfile: childScript,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    logLevel: 'error',
  });
});

/** Runs the writer, kills it with SIGKILL `delayMs` after its `minimum`-th commit, returns the commits it reported. */
function runAndKill(path: string, mode: 'serial' | 'parallel', minimum: number, delayMs: number): Promise<Set<number>> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [childScript, path, mode], { stdio: ['ignore', 'pipe', 'pipe'] });
    const acknowledged = new Set<number>();
    let buffered = '';
    let stderr = '';
    let armed = false;
    child.stdout.on('data', (chunk: Buffer) => {
      buffered += chunk.toString();
      const lines = buffered.split('\n');
      buffered = lines.pop()!;
      for (const line of lines) acknowledged.add(Number(line));
      if (!armed && acknowledged.size >= minimum) {
        armed = true;
        setTimeout(() => child.kill('SIGKILL'), delayMs);
      }
    });
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('exit', (code, signal) => {
      if (signal === 'SIGKILL') resolve(acknowledged);
      else reject(new Error(`writer exited on its own (code ${code}): ${stderr}`));
    });
  });
}

describe('a writer killed mid-append', () => {
  for (const mode of ['serial', 'parallel'] as const) {
    it(`leaves a log that loads with every committed entry (${mode} appends)`, async () => {
      for (let round = 0; round < 6; round++) {
        const path = join(workDir, `${mode}-${round}.jsonl`);
        const acknowledged = await runAndKill(path, mode, 3 + round, round * 7);
        const loaded = await loadSession(path);
        // Every append the writer reported is there; anything loaded is whole and in order.
        expect(loaded.messages.length).toBeGreaterThanOrEqual(acknowledged.size);
        for (const index of acknowledged) expect(index).toBeLessThan(loaded.messages.length);
        loaded.messages.forEach((message, index) => expect(message).toStrictEqual(crashEntry(index)));
        // A killed log resumes: the torn tail is cut and new lines follow the committed ones.
        const writer = await SessionWriter.open(path);
        await writer.append(crashEntry(1_000));
        await writer.close();
        const resumed = await loadSession(path);
        expect(resumed.tornTail).toBeUndefined();
        expect(resumed.messages).toStrictEqual([...loaded.messages, crashEntry(1_000)]);
      }
    });
  }

  it('detects a torn tail left by a real process that wrote half a line', async () => {
    const path = join(workDir, 'half.jsonl');
    const writer = await SessionWriter.open(path);
    await writer.append(crashEntry(1));
    await writer.close();
    const full = await readFile(path);
    const line = Buffer.from(
      `${JSON.stringify({
        type: 'message',
        at: new Date().toISOString(),
        message: { role: 'user', content: [{ type: 'text', text: 'x' }] },
      })}\n`,
    );
    // A second process appends half a line and is killed before finishing it.
    const script = `const fs=require('fs');fs.appendFileSync(${JSON.stringify(path)}, Buffer.from(${JSON.stringify(line.subarray(0, 20).toString('base64'))},'base64'));process.kill(process.pid,'SIGKILL');`;
    await new Promise((resolve) => spawn(process.execPath, ['-e', script]).on('exit', resolve));
    const loaded = await loadSession(path);
    expect(loaded.tornTail).toEqual({ line: 3, bytes: 20 });
    expect(loaded.committedBytes).toBe(full.length);
    expect(loaded.messages).toStrictEqual([crashEntry(1)]);
  });
});
