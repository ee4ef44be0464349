// What a model reads when a file fails (stranger review of issue 29): what it can do — ask the user, call its
// tool again — and nothing of glimpse's insides (function names, CLI commands, options, the codec runtime). The
// developer keeps the typed error: its code, message and details are media's own.
import { isMediaError, MediaError } from '@glimpse/media';
import sharp from 'sharp';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { photoJpeg } from '../../../../test/fixtures/make.js';
import { textPdf } from '../../../../test/fixtures/pdf-documents.js';
import { qpdfEncrypted } from '../../../../test/support/qpdf-encrypt.js';
import { FileError } from '../fs/file-error.js';
import { MemoryFileSystem } from '../fs/memory-file-system.js';
import type { CapabilitiesQuery } from '../route/capabilities.js';
import { createReadTool } from '../tools/read.js';
import { viewFailure } from '../tools/view-file-failure.js';
import { viewFile } from '../tools/view-file.js';
import type { ToolResult } from '../types.js';
import { attach } from './attach.js';
import { modelErrorText } from './model-error-text.js';
import { toolResultFrom } from './tool-result-from.js';

const CLAUDE: CapabilitiesQuery = { provider: 'anthropic', model: 'claude-sonnet-4-5' };
/** Words a model cannot act on: media's functions and options, CLI commands, the runtime underneath. */
const INTERNALS =
  /pdfText|renderPdfPage|setWasmLoader|maxBytes|maxInputPixels|maxFileBytes|maxMemory|maxPages|maxEdge|timeoutMs|fileSystem|capabilities:|glimpse (text|process)|--[a-z]|PDFium|isolate|503|Retry-After|WASM|scripts\/|runtime entry/;
/** The text without its error codes (E_WASM_UNAVAILABLE is the code the developer keeps). */
const withoutCodes = (text: string) => text.replace(/\bE_[A-Z_]+\b/g, '');
const textOf = (result: ToolResult) => result.parts.flatMap((p) => (p.type === 'text' ? [p.text] : [])).join('\n');

let plain: Uint8Array;
let fileSystem: MemoryFileSystem;

beforeAll(async () => {
  plain = await textPdf({ pages: 2, lines: 3 });
  fileSystem = new MemoryFileSystem({
    cwd: '/desk',
    files: { '/desk/locked.pdf': qpdfEncrypted(plain, 'secret'), '/desk/open.pdf': qpdfEncrypted(plain, '') },
  });
});

async function attachedNote(bytes: Uint8Array, filename: string, input: { preset: 'anthropic' | 'ollama' }) {
  const message = await toolResultFrom({
    toolCallId: 'call_1',
    toolName: 'fetch_report',
    output: { text: 'here it is', attachments: [{ bytes, filename }] },
    ...input,
  });
  return textOf(message);
}

describe('failures as the model reads them', () => {
  it('view_file and read on a password-protected PDF: no password argument, ask the user; the typed error is kept', async () => {
    for (const as of [undefined, 'document', 'text', 'images']) {
      const outcome = await viewFile(
        { path: 'locked.pdf', ...(as !== undefined && { as }) },
        { fileSystem, route: CLAUDE },
      );
      expect(outcome.isError).toBe(true);
      const text = textOf(outcome);
      expect(text).toMatch(
        /^E_PDF_ENCRYPTED: The PDF is password-protected: it cannot be read or sent without its password \(view_file takes no password\)\. Ask the user for a copy without the password/,
      );
      expect(withoutCodes(text)).not.toMatch(INTERNALS);
      expect(text).not.toMatch(/Save an unencrypted copy/); // the developer's remedy, not the model's
      if (!isMediaError(outcome.error)) throw new Error('expected the typed error');
      expect(outcome.error.code).toBe('E_PDF_ENCRYPTED');
      expect(outcome.error.message).toMatch(/Save an unencrypted copy \(print to PDF\)/);
    }
    const read = await createReadTool({ fileSystem }).execute({ path: 'locked.pdf' });
    expect(read.isError).toBe(true);
    expect(textOf(read)).toMatch(/^E_PDF_ENCRYPTED: .*\(read takes no password\)\. Ask the user/);
    expect(withoutCodes(textOf(read))).not.toMatch(INTERNALS);
  });

  it("an app tool's encrypted PDF attachment: a note without pdfText or CLI commands", async () => {
    const open = await attachedNote(qpdfEncrypted(plain, ''), 'open.pdf', { preset: 'anthropic' });
    expect(open).toMatch(
      /\[could not attach open\.pdf: the PDF is encrypted \(E_PDF_ENCRYPTED\)\. The PDF is encrypted, though it opens without a password, .*Ask the user for an unencrypted copy/,
    );
    expect(withoutCodes(open)).not.toMatch(INTERNALS);
    const locked = await attachedNote(qpdfEncrypted(plain, 'secret'), 'locked.pdf', { preset: 'anthropic' });
    expect(locked).toMatch(
      /could not attach locked\.pdf: .*password-protected.*Ask the user for a copy without the password/,
    );
    expect(locked).not.toMatch(/takes no password/); // an app's tool might take one: nothing is said of its arguments
    expect(withoutCodes(locked)).not.toMatch(INTERNALS);
  });

  it('a PDF attachment for a preset without PDFs, and an image that fits no byte budget', async () => {
    const pdf = await attachedNote(plain, 'report.pdf', { preset: 'ollama' });
    expect(pdf).toMatch(/could not attach report\.pdf: .*The current model takes no PDF attachments.*Ask the user/);
    expect(withoutCodes(pdf)).not.toMatch(INTERNALS);

    const noise = await sharp({
      create: {
        width: 1200,
        height: 900,
        channels: 3,
        background: '#000',
        noise: { type: 'gaussian', mean: 128, sigma: 60 },
      },
    })
      .png()
      .toBuffer();
    const message = await toolResultFrom({
      toolCallId: 'call_1',
      toolName: 'screenshot',
      output: { attachments: [{ bytes: new Uint8Array(noise), filename: 'noise.png' }] },
      preset: 'anthropic',
      limits: { maxBytes: 64 },
    });
    const note = textOf(message);
    expect(note).toMatch(
      /could not attach noise\.png: too large even after shrinking \(E_TOO_LARGE\)\. The image cannot be made to fit 64 bytes, even at \d+ px in image\/\w+\. Ask the user for a smaller copy/,
    );
    expect(withoutCodes(note)).not.toMatch(INTERNALS);
  });

  it('a file tool the app gave no file system: the model can only report it, not call setDefaultFileSystem', async () => {
    // Fresh modules: the test setup's default file system is not set in them, as in a browser or a Worker.
    vi.resetModules();
    const fresh = await import('../fs/default-file-system.js');
    expect(() => fresh.defaultFileSystem()).toThrow(/No fileSystem was given/);
    const { viewFile: freshViewFile } = await import('../tools/view-file.js');
    const result = await freshViewFile({ path: 'shot.png' }, { route: CLAUDE });
    expect(result.isError).toBe(true);
    const text = textOf(result);
    expect(text).toBe(
      "E_NO_FILE_SYSTEM: view_file cannot read files here: the app gave it no file system, a problem of the app's setup, not of the file, and trying again will not help. Tell the user.",
    );
    expect(text).not.toMatch(/setDefaultFileSystem|MemoryFileSystem|denoFileSystem|fileSystem/);
  });

  it('a busy host and codecs that did not start: said as what the model can do', () => {
    const busy = new MediaError(
      'E_BUSY',
      'This isolate is busy: 8 jobs are waiting already, with 2 running in 256 MB. Nothing is wrong with the file: send it again after 3000 ms (in a Worker, answer 503 with Retry-After).',
      { retryAfterMs: 3000 },
    );
    const retry = textOf(viewFailure(busy, []));
    expect(retry).toBe(
      'E_BUSY: The host was busy with other files; nothing is wrong with this one.\nCall view_file again with the same arguments in about 3 s.',
    );
    const wasm = new MediaError(
      'E_WASM_UNAVAILABLE',
      'No WASM loader is registered, so the png codec cannot start. Import @glimpse/media through a runtime entry (node, deno, browser, workerd) or call setWasmLoader().',
    );
    const broken = textOf(viewFailure(wasm, []));
    expect(broken).toMatch(
      /^E_WASM_UNAVAILABLE: The host's media decoders could not start: .*not of the file.*Tell the user\.$/,
    );
    for (const text of [retry, broken]) expect(withoutCodes(text)).not.toMatch(INTERNALS);
  });

  it('an image over the pixel limit, a file over the read cap: what the model can do, no host option (the typed error keeps it)', async () => {
    const big = new Uint8Array(
      await sharp({ create: { width: 3000, height: 2000, channels: 3, background: '#888' } })
        .png()
        .toBuffer(),
    );
    const files = new MemoryFileSystem({ cwd: '/desk', files: { '/desk/big.png': big } });
    const pixels = await viewFile({ path: 'big.png' }, { fileSystem: files, route: CLAUDE, maxInputPixels: 100 });
    expect(pixels.isError).toBe(true);
    const pixelsText = textOf(pixels);
    expect(pixelsText).toMatch(
      /^E_TOO_MANY_PIXELS: The image declares 3000×2000 pixels \(6\.0 MP\); the limit is .*\. It is larger than this host opens, so no part of it can be shown\. Ask the user for a smaller copy/,
    );
    expect(withoutCodes(pixelsText)).not.toMatch(INTERNALS);
    if (!isMediaError(pixels.error)) throw new Error('expected the typed error');
    expect(pixels.error.message).toMatch(/raise maxInputPixels \(--max-input-pixels\)/); // the developer's hint stays

    const capped = await viewFile({ path: 'big.png' }, { fileSystem: files, route: CLAUDE, maxFileBytes: 1000 });
    const cappedText = textOf(capped);
    expect(cappedText).toMatch(
      /^E_FILE_TOO_LARGE: .*big\.png is \d+ bytes, over the 1000-byte read limit\. Ask the user for a smaller copy/,
    );
    expect(withoutCodes(cappedText)).not.toMatch(INTERNALS);
    expect((capped.error as Error).message).toMatch(/--max-file-bytes/);
  });

  it('a PDF page too large to draw, a host without a file system or a capability: no option names', () => {
    const page = new MediaError(
      'E_TOO_MANY_PIXELS',
      'Rendering this page at maxEdge 70000 makes 70000×90000 pixels, over the limit of 100000000 pixels and 65535 per side. Lower maxEdge.',
      { width: 70000, height: 90000, maxInputPixels: 100_000_000 },
    );
    expect(modelErrorText(page)).toMatch(/^The page would be 70000×90000 pixels drawn at the size asked for/);
    const noFs = new FileError(
      'E_NO_FILE_SYSTEM',
      'No fileSystem was given, and this runtime has no default one: pass fileSystem (…), or call setDefaultFileSystem once.',
    );
    expect(modelErrorText(noFs)).toMatch(/a problem of the app's setup.*Tell the user\.$/);
    const unknown = new FileError(
      'E_CAPABILITY_UNKNOWN',
      'view_file is disabled: glimpse does not know whether model "x-1" can see images, and sending images to a text-only model makes it describe what it cannot see. The app can declare it (capabilities: { imageInput: true, … } or a capability rule). Use read for text files.',
      { model: 'x-1' },
    );
    expect(modelErrorText(unknown)).toMatch(/^view_file is disabled: .* cannot see\. Use read for text files\.$/);
    for (const error of [page, noFs, unknown]) expect(modelErrorText(error)).not.toMatch(INTERNALS);
  });

  it('an attachment out of time: alone, the file may be slow; shared with files processed at once, try it alone or later', async () => {
    const photo = await photoJpeg({ width: 3000, height: 2000 });
    const note = async () => (await attach({ bytes: photo }, 'photo.jpg', { maxEdge: 500, timeoutMs: 1 })).notes;
    const lone = await note();
    expect(lone).toEqual([
      expect.stringMatching(
        /^\[could not attach photo\.jpg: reading it took too long \(E_TIMEOUT\)\. (Reading the file's header|Decoding the image) took longer than 1 ms, so it was stopped\. The file may be built to be slow\. Ask the user for a simpler copy \(exported to PNG or JPEG\)\.\]$/,
      ),
    ]);
    // Eight at once: each job's millisecond passes while the others run, and media says so in the error's details.
    const together = await Promise.all(Array.from({ length: 8 }, note));
    for (const notes of together) {
      expect(notes).toEqual([
        expect.stringMatching(
          /^\[could not attach photo\.jpg: reading it took too long \(E_TIMEOUT\)\. (Reading the file's header|Decoding the image) ran out of time \(1 ms\) while other files were being processed at the same time, so it was stopped: .*nothing says this file is at fault\. Try it again on its own, or a little later: that is likely to work\.\]$/,
        ),
      ]);
      expect(notes[0]).not.toMatch(/built to be slow|simpler copy|other jobs|this process/);
    }
    for (const text of [...lone, ...together.flat()]) expect(withoutCodes(text)).not.toMatch(INTERNALS);
  });
});
