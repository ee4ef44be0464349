// `glimpse demo --live`: against the real API when the key is set (here the local server, through the
// SDK's own base-URL variable), and a clear E_AUTH naming the variable when it is not.
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { captureOutput } from './support/capture-output.js';
import { main } from '../packages/agent/src/cli/main.js';
import { startApiServer, type ApiServer } from './support/api-server.js';

let server: ApiServer | undefined;
afterEach(async () => {
  vi.unstubAllEnvs();
  vi.restoreAllMocks();
  await server?.close();
  server = undefined;
});

describe('glimpse demo --live', () => {
  it.each([
    ['anthropic', 'the environment variable ANTHROPIC_API_KEY'],
    ['gemini', 'the environment variable GEMINI_API_KEY or GOOGLE_API_KEY'],
    ['bedrock', 'the environment variables AWS_REGION, AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY'],
  ])('--provider %s without credentials exits 1 naming %s', async (provider, named) => {
    for (const name of [
      'ANTHROPIC_API_KEY',
      'GEMINI_API_KEY',
      'GOOGLE_API_KEY',
      'AWS_REGION',
      'AWS_DEFAULT_REGION',
      'AWS_ACCESS_KEY_ID',
      'AWS_SECRET_ACCESS_KEY',
      'AWS_PROFILE',
      'AWS_BEARER_TOKEN_BEDROCK',
    ])
      vi.stubEnv(name, '');
    const { stdout, stderr } = captureOutput();
    expect(await main(['demo', '--live', '--provider', provider])).toBe(1);
    expect(stdout).toEqual([]);
    const error = JSON.parse(stderr.join(''));
    expect(error).toEqual({
      error: {
        code: 'E_AUTH',
        message: expect.stringContaining(
          `needs ${named}. Set ${named.includes('variables') ? 'them' : 'it'}, or run glimpse demo without --live`,
        ),
      },
    });
  });

  it('runs the demo against the API when the key is set, streaming the answer to stderr', async () => {
    const paths = ['samples/screenshot.png', 'samples/photo-exif6.jpg', 'samples/report.pdf', 'samples/diagram.svg'];
    server = await startApiServer([
      {
        text: 'Opening them.',
        toolCalls: paths.map((path, i) => ({ id: `toolu_${i}`, name: 'view_file', arguments: { path } })),
      },
      { text: 'A code review, a hill at noon, a quarterly report and a diagram.' },
    ]);
    vi.stubEnv('ANTHROPIC_API_KEY', 'test-key');
    vi.stubEnv('ANTHROPIC_BASE_URL', server.url);
    const session = join(await mkdtemp(join(tmpdir(), 'glimpse-live-')), 'live.jsonl');
    const { stdout, stderr } = captureOutput();
    expect(
      await main(['demo', '--live', '--provider', 'anthropic', '--model', 'claude-sonnet-4-6', '--session', session]),
    ).toBe(0);
    const report = stdout.join('');
    expect(report).toMatch(
      /^glimpse demo: live model claude-sonnet-4-6 on anthropic; the files are fitted to the anthropic preset/,
    );
    for (const path of paths) expect(report).toContain(path);
    expect(report).toContain('assistant: A code review, a hill at noon, a quarterly report and a diagram.');
    expect(stderr.join('')).toBe('Opening them.A code review, a hill at noon, a quarterly report and a diagram.\n');
    const [first, second] = server.requests;
    expect(first!.body).toMatchObject({ model: 'claude-sonnet-4-6', max_tokens: 8192, stream: true });
    expect(JSON.stringify(first!.body)).toContain('open them with view_file');
    expect(JSON.stringify(second!.body)).toContain('"type":"tool_result"');
  });
});
