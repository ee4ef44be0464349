import { PDFDocument } from 'pdf-lib';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { MemoryFileSystem } from '../fs/memory-file-system.js';
import { viewFile } from '../tools/view-file.js';
import type { ViewFileOutcome } from '../tools/view-file.js';
import { isViewReply, isViewWorkerData, outcomeFromReply, replyFromOutcome } from './view-worker-protocol.js';
import type { PortableViewOptions } from './view-worker-protocol.js';

const OPTIONS: PortableViewOptions = {
  root: '/desk',
  maxFileBytes: 50_000_000,
  strict: false,
  capabilities: { imageInput: true, pdfInput: true, mediaInToolResults: true, preset: 'anthropic' },
};

let fileSystem: MemoryFileSystem;

beforeAll(async () => {
  const pdf = await PDFDocument.create();
  for (let i = 1; i <= 3; i++) pdf.addPage([100 + i, 200]);
  fileSystem = new MemoryFileSystem({
    cwd: '/desk',
    files: {
      '/desk/wide.png': new Uint8Array(
        await sharp({ create: { width: 2400, height: 600, channels: 3, background: '#c60' } })
          .png()
          .toBuffer(),
      ),
      '/desk/small.png': new Uint8Array(
        await sharp({ create: { width: 40, height: 30, channels: 3, background: '#0c6' } })
          .png()
          .toBuffer(),
      ),
      '/desk/report.pdf': await pdf.save(),
      '/desk/notes.txt': new TextEncoder().encode('not an image\n'),
    },
  });
});

/** What the pool sees: the outcome through a real structured clone, with the transfer list the worker uses. */
function acrossThreads(outcome: ViewFileOutcome): ViewFileOutcome {
  const { reply, transfer } = replyFromOutcome(outcome);
  const received: unknown = structuredClone(reply, { transfer });
  if (!isViewReply(received) || received.kind !== 'done') throw new Error('expected a done reply');
  return outcomeFromReply(received);
}

describe('view_file outcomes across the worker boundary', () => {
  it.each<Record<string, string>>([
    { path: 'wide.png' },
    { path: 'small.png' },
    { path: 'report.pdf' },
    { path: 'report.pdf', pages: '2-3' },
    { path: 'notes.txt' },
    { path: 'missing.png' },
  ])('gives the same parts as an in-thread view: %o', async (args) => {
    const inThread = await viewFile(args, { ...OPTIONS, fileSystem });
    const fromWorker = acrossThreads(await viewFile(args, { ...OPTIONS, fileSystem }));
    expect(fromWorker.parts).toEqual(inThread.parts);
    expect(fromWorker.isError).toBe(inThread.isError);
    expect(fromWorker.path).toBe(inThread.path);
  });

  it('moves the result bytes instead of copying their base64', async () => {
    const outcome = await viewFile({ path: 'wide.png' }, { ...OPTIONS, fileSystem });
    const { reply, transfer } = replyFromOutcome(outcome);
    if (reply.kind !== 'done') throw new Error('expected a done reply');
    expect(reply.parts.map((part) => part.type === 'text' || part.data === undefined)).toEqual([true, true]);
    expect(transfer).toHaveLength(1);
    expect(transfer[0]!.byteLength).toBe(outcome.processed!.bytes);
    structuredClone(reply, { transfer });
    expect(transfer[0]!.byteLength).toBe(0); // detached: it moved
  });

  it('copies bytes that share their buffer, so the rest of it is not detached', async () => {
    const outcome = await viewFile({ path: 'small.png' }, { ...OPTIONS, fileSystem });
    const shared = new Uint8Array(outcome.processed!.data.byteLength + 16);
    shared.set(outcome.processed!.data, 8);
    const sliced = {
      ...outcome,
      processed: { ...outcome.processed!, data: shared.subarray(8, 8 + outcome.processed!.data.byteLength) },
    };
    const { reply, transfer } = replyFromOutcome(sliced);
    structuredClone(reply, { transfer });
    expect(shared.byteLength).toBe(outcome.processed!.data.byteLength + 16);
    expect(acrossThreads(sliced).parts).toEqual(outcome.parts);
  });
});

describe("the workers' start-up data", () => {
  it('takes fonts as byte arrays and a systemFonts flag, and nothing else', () => {
    const font = new Uint8Array([0, 1, 0, 0]);
    expect(isViewWorkerData(structuredClone({ fonts: [font], systemFonts: true }))).toBe(true);
    expect(
      [{ fonts: ['font.ttf'], systemFonts: true }, { fonts: [font] }, { fonts: font, systemFonts: false }, null].map(
        isViewWorkerData,
      ),
    ).toEqual([false, false, false, false]);
  });
});
