import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PDFDocument } from 'pdf-lib';
import sharp from 'sharp';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { base64ToBytes } from '../base64.js';
import { main } from './main.js';
import { lineOfText, textPdf } from '../../../../test/fixtures/pdf-documents.js';

let dir = '';
const file = (name: string) => join(dir, name);

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'glimpse-prepare-'));
  await sharp({ create: { width: 2600, height: 1300, channels: 3, background: { r: 20, g: 90, b: 200 } } })
    .png()
    .toFile(file('screen shot.png'));
  const doc = await PDFDocument.create();
  doc.addPage([300, 400]);
  await writeFile(file('notes.v1.pdf'), await doc.save());
  await writeFile(file('garbage.bin'), 'not media at all');
});

afterEach(() => vi.restoreAllMocks());

/** Runs the CLI in-process and returns its exit code, stdout and stderr. */
async function run(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
    stdout += String(chunk);
    return true;
  });
  vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => {
    stderr += String(chunk);
    return true;
  });
  const code = await main(args);
  vi.restoreAllMocks();
  return { code, stdout, stderr };
}

type Printed = { provider: string; messages: unknown[] } & Record<string, unknown>;

async function prepare(...args: string[]): Promise<Printed> {
  const { code, stdout, stderr } = await run('prepare', ...args);
  expect(code, stderr).toBe(0);
  return JSON.parse(stdout);
}

describe('glimpse prepare', () => {
  it('anthropic: one assistant turn with a tool_use per FILE, one user turn with the results in order', async () => {
    const out = await prepare(
      file('screen shot.png'),
      file('notes.v1.pdf'),
      file('garbage.bin'),
      '--provider',
      'anthropic',
      '--model',
      'claude-sonnet-5-5',
    );
    expect(out.provider).toBe('anthropic');
    expect(Object.keys(out)).toEqual(['provider', 'tools', 'messages']);
    expect(out.tools).toEqual([
      { name: 'view_file', description: expect.any(String), input_schema: expect.objectContaining({ type: 'object' }) },
    ]);
    const [ask, calls, results] = out.messages as Array<{ role: string; content: Array<Record<string, unknown>> }>;
    expect(ask!.role).toBe('user');
    expect(calls!.content.map((block) => [block.type, block.id])).toEqual([
      ['tool_use', 'call_1'],
      ['tool_use', 'call_2'],
      ['tool_use', 'call_3'],
    ]);
    expect(results!.content.map((block) => [block.type, block.tool_use_id])).toEqual([
      ['tool_result', 'call_1'],
      ['tool_result', 'call_2'],
      ['tool_result', 'call_3'],
    ]);
    const image = (results!.content[0]!.content as Array<{ type: string; source?: { data: string } }>).find(
      (block) => block.type === 'image',
    )!;
    const meta = await sharp(base64ToBytes(image.source!.data)!).metadata();
    // claude-sonnet-5-5 is a high-resolution model: 2576 px and 4,784 patches (92×46 = 4,232).
    expect([meta.width, meta.height]).toEqual([2576, 1288]);
    // A garbage file is reported in its own result; the turn goes on.
    expect(JSON.stringify(results!.content[2])).toMatch(/garbage\.bin.*E_UNSUPPORTED|E_UNSUPPORTED.*garbage\.bin/);
  });

  it('bedrock: prints media bytes as base64 strings and sanitises the document name', async () => {
    const out = await prepare(
      file('screen shot.png'),
      file('notes.v1.pdf'),
      '--provider',
      'bedrock',
      '--model',
      'anthropic.claude-3-5-sonnet-20241022-v2:0',
    );
    const results = (
      out.messages[2] as {
        content: Array<{
          toolResult: { content: Array<Record<string, { source: { bytes: unknown }; name?: string }>> };
        }>;
      }
    ).content;
    const image = results[0]!.toolResult.content.find((block) => 'image' in block)!.image!;
    expect(typeof image.source.bytes).toBe('string');
    const meta = await sharp(base64ToBytes(String(image.source.bytes))!).metadata();
    // Claude 3.5 Sonnet on Bedrock works at 1568 px and 1,568 patches (56×28), under Bedrock's 2000 px.
    expect([meta.width, meta.height]).toEqual([1568, 784]);
    expect(results[1]!.toolResult.content.find((block) => 'document' in block)!.document!.name).toBe('notes-v1');
  });

  it('gemini: media inside functionResponse for Gemini 3, beside it for older models', async () => {
    const newer = JSON.stringify(
      await prepare(file('screen shot.png'), '--provider', 'gemini', '--model', 'gemini-3.1-pro-preview'),
    );
    const older = await prepare(file('screen shot.png'), '--provider', 'gemini', '--model', 'gemini-2.5-pro');
    expect(newer).toMatch(/"functionResponse":\{[\s\S]*"parts":\[\{"inlineData"/);
    const parts = ((older.contents as unknown[])[2] as { parts: Array<Record<string, unknown>> }).parts;
    expect(parts.map((part) => Object.keys(part)[0])).toEqual(['functionResponse', 'text', 'inlineData']);
  });

  it('--system: the system prompt goes where each API wants it, beside the tools', async () => {
    const system = 'You review screenshots.';
    const keys = async (provider: string) => {
      const out = await prepare(file('screen shot.png'), '--provider', provider, '--system', system);
      return { keys: Object.keys(out), out };
    };
    expect((await keys('anthropic')).keys).toEqual(['provider', 'system', 'tools', 'messages']);
    expect((await keys('anthropic')).out.system).toBe(system);
    const chat = await keys('openai-chat');
    expect(chat.keys).toEqual(['provider', 'messages', 'tools']);
    expect(chat.out.messages[0]).toEqual({ role: 'system', content: system });
    const responses = await keys('openai-responses');
    expect(responses.keys).toEqual(['provider', 'instructions', 'tools', 'input']);
    expect(responses.out.instructions).toBe(system);
    const gemini = await keys('gemini');
    expect(gemini.keys).toEqual(['provider', 'systemInstruction', 'tools', 'contents']);
    expect(gemini.out.systemInstruction).toEqual({ parts: [{ text: system }] });
    const bedrock = await keys('bedrock');
    expect(bedrock.keys).toEqual(['provider', 'system', 'toolConfig', 'messages']);
    expect(bedrock.out.system).toEqual([{ text: system }]);
    const ollama = await keys('ollama');
    expect(ollama.keys).toEqual(['provider', 'messages', 'tools']);
    expect(ollama.out.messages[0]).toEqual({ role: 'system', content: system });
  });

  it('openai-chat: text-only tool messages, then one user message with the image', async () => {
    const out = await prepare(file('screen shot.png'), file('notes.v1.pdf'), '--provider', 'openai-chat');
    expect((out.messages as Array<{ role: string }>).map((m) => m.role)).toEqual([
      'user',
      'assistant',
      'tool',
      'tool',
      'user',
    ]);
    expect(JSON.stringify(out.messages.slice(2, 4))).not.toMatch(/base64/);
  });

  it('--no-vision sends no media at all, only placeholders', async () => {
    for (const provider of ['anthropic', 'openai-chat', 'openai-responses', 'gemini', 'bedrock', 'ollama']) {
      const { code, stdout, stderr } = await run(
        'prepare',
        file('screen shot.png'),
        file('notes.v1.pdf'),
        '--provider',
        provider,
        '--no-vision',
      );
      expect(code).toBe(0);
      // The request without its tool schema (whose `as` parameter names "images").
      expect(
        JSON.stringify(JSON.parse(stdout), (key, value: unknown) => (key === 'tools' ? undefined : value)),
        provider,
      ).not.toMatch(/base64|inlineData|"images"|"image":|"document":|"bytes"/);
      expect(stdout, provider).toContain('was omitted: this model does not accept images');
      expect(stderr, provider).toContain('warning:');
    }
  });

  it('fails with exit 1 and a JSON error for a missing file, exit 2 for bad usage', async () => {
    const missing = await run('prepare', file('nope.png'), '--provider', 'anthropic');
    expect(missing.code).toBe(1);
    expect(JSON.parse(missing.stderr).error.code).toBe('E_FILE_NOT_FOUND');
    expect((await run('prepare', file('garbage.bin'))).code).toBe(2);
    expect((await run('prepare', file('garbage.bin'), '--provider', 'mistral')).code).toBe(2);
    expect((await run('prepare', '--provider', 'anthropic')).code).toBe(2);
  });
});

describe('glimpse prepare: a PDF for a route without PDF input', () => {
  it('Ollama with a vision model: the tool result carries the text of the 3 pages and 3 page images', async () => {
    await writeFile(file('three.pdf'), await textPdf({ pages: 3, lines: 3 }));
    const out = await prepare(file('three.pdf'), '--provider', 'ollama', '--model', 'gemma3');
    const tool = (out.messages as Array<{ role: string; content: string; images?: string[] }>).find(
      (message) => message.role === 'tool',
    );
    expect(tool?.content).toContain('three.pdf: PDF, 3 pages');
    for (const page of [1, 2, 3])
      expect(tool?.content).toContain(`--- page ${page} of 3 ---\nChapter ${page} heading\n${lineOfText(page - 1, 0)}`);
    expect(tool?.images).toHaveLength(3);
    for (const image of tool?.images ?? [])
      expect(await sharp(base64ToBytes(image)).metadata()).toMatchObject({ format: 'png', width: 1039, height: 1344 });
  });

  it('a text-only model gets the text alone', async () => {
    const out = await prepare(file('three.pdf'), '--provider', 'ollama', '--model', 'llama3.1:8b');
    const json = JSON.stringify(out.messages);
    expect(json).toContain('Chapter 3 heading');
    expect(json).not.toMatch(/"images"|omitted/);
  });
});
