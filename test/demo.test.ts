import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { existsSync } from 'node:fs';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { main } from '../packages/agent/src/cli/main.js';
import { FileError } from '../packages/agent/src/fs/file-error.js';
import { captureOutput } from './support/capture-output.js';
import { failsWith } from './support/typed-errors.js';
import demoScript from '../packages/agent/demo/script.json';
import { runDemo } from '../packages/agent/src/cli/demo.js';
import { ESTIMATE_TARGETS } from '../packages/agent/src/cli/estimate-targets.js';
import {
  ANTHROPIC_HIGH_RESOLUTION,
  anthropicImageTokens,
} from '../packages/agent/src/compaction/anthropic-image-tokens.js';
import { estimateMessageTokens } from '../packages/agent/src/compaction/estimate-tokens.js';
import { parseReplayScript } from '../packages/agent/src/loop/replay-script.js';
import { loadSession } from '../packages/agent/src/session/load-session.js';
import * as make from './fixtures/make.js';

let root: string;

beforeAll(async () => {
  // Stand-ins for the bundled samples, so this test does not depend on their exact content.
  root = await mkdtemp(join(tmpdir(), 'glimpse-demo-'));
  await mkdir(join(root, 'samples'));
  await sharp({ create: { width: 2400, height: 1500, channels: 3, background: '#f0f0f0' } })
    .png()
    .toFile(join(root, 'samples/screenshot.png'));
  // Stored 1200 wide × 900 high with EXIF orientation 6: upright it is 900 × 1200.
  await sharp({ create: { width: 1200, height: 900, channels: 3, background: '#806040' } })
    .jpeg()
    .withMetadata({ orientation: 6 })
    .toFile(join(root, 'samples/photo-exif6.jpg'));
  await writeFile(join(root, 'samples/report.pdf'), await make.pdf());
  await writeFile(
    join(root, 'samples/diagram.svg'),
    '<svg xmlns="http://www.w3.org/2000/svg" width="300" height="200"><rect width="300" height="200" fill="#fff"/><circle cx="150" cy="100" r="80" fill="#369"/></svg>',
  );
});

describe('glimpse demo --session in a missing folder', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('is a typed error that says to create the folder, from runDemo and from the CLI (was E_INTERNAL)', async () => {
    const sessionPath = join(root, 'no-such-folder', 'demo.jsonl');
    const error = await failsWith(
      runDemo({ provider: 'anthropic', sessionPath, script: parseReplayScript(demoScript), root }),
      FileError,
      'E_FILE_NOT_FOUND',
    );
    expect(error.message).toContain(`its folder ${join(root, 'no-such-folder')} does not exist`);
    expect(error.message).toContain('mkdir -p');
    const output = captureOutput();
    expect(await main(['demo', '--session', sessionPath])).toBe(1);
    expect(JSON.parse(output.stderr.join(''))).toMatchObject({
      error: { code: 'E_FILE_NOT_FOUND', message: expect.stringContaining('Create it first') },
    });
    expect(existsSync(join(root, 'no-such-folder'))).toBe(false);
  });
});

describe('glimpse demo with a temp folder it cannot write', () => {
  afterEach(() => {
    vi.restoreAllMocks();
    vi.unstubAllEnvs();
  });

  it('says the log goes to the temp folder and to give --session PATH', async () => {
    vi.stubEnv('TMPDIR', '/sys'); // sysfs: no new files, not even for root
    const output = captureOutput();
    expect(await main(['demo'])).toBe(1);
    const { error } = JSON.parse(output.stderr.join(''));
    expect(error.code).toBe('E_PERMISSION_DENIED');
    expect(error.message).toMatch(
      /^Permission denied for \/sys\/glimpse-demo-[^ ]+\.jsonl\. The demo writes its session log/,
    );
    expect(error.message).toContain('give --session PATH');
  });
});

describe('glimpse demo', () => {
  it('views the four samples, prints a table per file and writes a loadable session', async () => {
    const sessionPath = join(root, 'demo.jsonl');
    const report = await runDemo({ provider: 'anthropic', sessionPath, script: parseReplayScript(demoScript), root });
    for (const file of ['screenshot.png', 'photo-exif6.jpg', 'report.pdf', 'diagram.svg'])
      expect(report).toContain(`samples/${file}\n  what the model receives`);
    expect(report).not.toContain('(error result)');
    // claude-sonnet-5-5 works at up to 2576 px and 4,784 patches: the 2400×1500 screenshot goes as it is
    // (86·54 = 4,644 patches); the photo turned upright.
    expect(report).toMatch(/image\/png\s+2400×1500/);
    expect(report).toMatch(/image\/jpeg\s+900×1200/);
    expect(report).toMatch(/application\/pdf\s+1 page/);
    const session = await loadSession(sessionPath);
    // Every token cell is the estimate of the logged result for that column's route.
    const screenshotTable = report.slice(
      report.indexOf('samples/screenshot.png'),
      report.indexOf('samples/photo-exif6.jpg'),
    );
    const screenshotResult = session.messages[2]!;
    for (const target of ESTIMATE_TARGETS) {
      const cell = new RegExp(`${target.label}\\s+([\\d,]+)`).exec(screenshotTable)?.[1];
      expect(Number(cell?.replace(/,/g, '')), target.label).toBe(
        estimateMessageTokens(screenshotResult, target.options),
      );
    }
    // Counted at the model's own tier, as it was sent: ⌈2400/28⌉·⌈1500/28⌉ = 86·54 = 4,644 patches.
    expect(
      estimateMessageTokens(screenshotResult, { provider: 'anthropic', model: 'claude-sonnet-5-5' }) -
        estimateMessageTokens(screenshotResult, { provider: 'anthropic', images: 'fixed' }),
    ).toBe(4644 - 1200);
    expect(anthropicImageTokens(2400, 1500, ANTHROPIC_HIGH_RESOLUTION)).toBe(4644);

    expect(session.header.app).toMatchObject({ name: 'glimpse demo', provider: 'anthropic' });
    expect(session.messages.map((m) => m.role)).toEqual([
      'user',
      'assistant',
      'toolResult',
      'toolResult',
      'toolResult',
      'toolResult',
      'assistant',
    ]);
    const media = session.messages
      .flatMap((m) => (m.role === 'toolResult' ? m.parts : []))
      .filter((p) => p.type !== 'text');
    expect(media.map((p) => p.mediaType)).toEqual(['image/png', 'image/jpeg', 'application/pdf', 'image/png']);
  });

  it('on a route without PDFs the PDF comes as its text and page images, never as PDF bytes', async () => {
    const report = await runDemo({
      provider: 'ollama',
      sessionPath: join(root, 'ollama.jsonl'),
      script: parseReplayScript(demoScript),
      root,
    });
    const pdfTable = report.slice(report.indexOf('samples/report.pdf'), report.indexOf('samples/diagram.svg'));
    expect(pdfTable).not.toContain('(error result)');
    expect(pdfTable).not.toContain('application/pdf');
    expect(pdfTable).toMatch(/image\/png/);
    expect(report).toMatch(/image\/png\s+1344×840/);
  });

  it('finds the bundled samples of the checkout by itself (what npm start runs)', async () => {
    const report = await runDemo({
      provider: 'anthropic',
      sessionPath: join(root, 'bundled.jsonl'),
      script: parseReplayScript(demoScript),
    });
    expect(report).not.toContain('(error result)');
    expect(report.match(/what the model receives/g)).toHaveLength(4);
    const media = (await loadSession(join(root, 'bundled.jsonl'))).messages
      .flatMap((m) => (m.role === 'toolResult' ? m.parts : []))
      .filter((p) => p.type !== 'text');
    expect(media.map((p) => p.mediaType)).toEqual(['image/png', 'image/jpeg', 'application/pdf', 'image/png']);
    // The phone photo is stored sideways with EXIF orientation 6: what the model receives is upright (portrait).
    const photo = media[1]!;
    expect(photo.type === 'image' && photo.height! > photo.width!).toBe(true);
  });
});
