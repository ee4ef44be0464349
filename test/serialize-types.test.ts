// `serialize(provider, …)` is typed per provider: the documented SDK calls compile (types/serialize-consumer.ts,
// checked by tsc as a consumer would check it).
import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { expect, it } from 'vitest';

const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
const project = fileURLToPath(new URL('./types/tsconfig.json', import.meta.url));

it('each serialized body spreads into its SDK call: Anthropic, OpenAI Chat and Responses, Gemini, Bedrock, Ollama', async () => {
  const result = await promisify(execFile)(process.execPath, [tsc, '-p', project, '--pretty', 'false']).then(
    () => '',
    (error: { stdout?: string }) => error.stdout ?? String(error),
  );
  expect(result).toBe('');
}, 120_000);
