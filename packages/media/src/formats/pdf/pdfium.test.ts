import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createHash } from 'node:crypto';
import { describe, expect, it, vi } from 'vitest';
import { pdfText, renderPdfPage } from '../../pdf-pages.js';
import { dropIdleInstances, idleInstances } from '../../runtime/kernel-pool.js';
import * as make from '../../../../../test/fixtures/make.js';
import { WASM_FILES } from '../../runtime/wasm-files.js';
import { PDFIUM_YES_SLOT, startPdfium } from './pdfium.js';
import '../../entries/node.js';

const wasm = readFileSync(createRequire(import.meta.url).resolve(WASM_FILES.pdfium));

/**
 * Table slots whose function has type (i32) → i32 and a body of exactly `i32.const k` with k ≠ 0: callbacks
 * that answer "yes" without side effects. Read from the binary (sections: 1 types, 2 imports, 3 functions,
 * 9 elements, 10 code), since the JS API cannot show a function's body.
 */
function constantYesSlots(bytes: Uint8Array): number[] {
  let at = 8;
  const unsigned = () => {
    let value = 0;
    let shift = 0;
    let byte: number;
    do {
      byte = bytes[at++]!;
      value += (byte & 0x7f) * 2 ** shift;
      shift += 7;
    } while (byte & 0x80);
    return value;
  };
  const signed = () => {
    let value = 0;
    let shift = 0;
    let byte: number;
    do {
      byte = bytes[at++]!;
      value |= (byte & 0x7f) << shift;
      shift += 7;
    } while (byte & 0x80);
    return shift < 32 && byte & 0x40 ? value | (-1 << shift) : value;
  };
  const types: boolean[] = []; // whether type i is (i32) → i32
  const functionTypes: number[] = [];
  const slots = new Map<number, number[]>();
  let importedFunctions = 0;
  const yes: number[] = [];
  while (at < bytes.length) {
    const id = bytes[at++]!;
    const end = unsigned() + at;
    if (id === 1) {
      for (let n = unsigned(); n > 0; n--) {
        at++; // 0x60
        const params = [...bytes.subarray(at + 1, at + 1 + bytes[at]!)];
        at += 1 + bytes[at]!;
        const results = [...bytes.subarray(at + 1, at + 1 + bytes[at]!)];
        at += 1 + bytes[at]!;
        types.push(params.length === 1 && params[0] === 0x7f && results.length === 1 && results[0] === 0x7f);
      }
    } else if (id === 2) {
      for (let n = unsigned(); n > 0; n--) {
        const skip = () => {
          const length = unsigned(); // read before moving `at`: `at += unsigned()` would add to the old value
          at += length;
        };
        skip(); // module name
        skip(); // field name
        const kind = bytes[at++];
        if (kind === 0) {
          unsigned();
          importedFunctions++;
        } else if (kind === 1 || kind === 2) {
          if (kind === 1) at++;
          const flags = unsigned();
          unsigned();
          if (flags & 1) unsigned();
        } else at += 2;
      }
    } else if (id === 3) {
      for (let n = unsigned(); n > 0; n--) functionTypes.push(unsigned());
    } else if (id === 9) {
      for (let n = unsigned(); n > 0; n--) {
        expect(unsigned()).toBe(0); // active segment on table 0 with an i32.const offset
        at++;
        const offset = signed();
        at++;
        for (let i = 0, count = unsigned(); i < count; i++) {
          const fn = unsigned();
          slots.set(fn, [...(slots.get(fn) ?? []), offset + i]);
        }
      }
    } else if (id === 10) {
      for (let index = 0, n = unsigned(); index < n; index++) {
        const size = unsigned();
        const bodyEnd = at + size;
        const fn = importedFunctions + index;
        if (types[functionTypes[index]!] && bytes[at] === 0 && bytes[at + 1] === 0x41) {
          at += 2;
          const constant = signed();
          if (constant !== 0 && at === bodyEnd - 1 && bytes[at] === 0x0b) yes.push(...(slots.get(fn) ?? []));
        }
        at = bodyEnd;
      }
    }
    at = end;
  }
  return yes;
}

describe('the pinned PDFium build', () => {
  it('has a "return yes" callback at PDFIUM_YES_SLOT (the progressive renderer pauses through it)', () => {
    expect(constantYesSlots(wasm)).toContain(PDFIUM_YES_SLOT);
  });

  it('imports only what startPdfium provides', () => {
    const names = WebAssembly.Module.imports(new WebAssembly.Module(wasm)).map(
      ({ module, name }) => `${module}.${name}`,
    );
    const provided =
      /^(env\.(invoke_\w+|__syscall_\w+|_emscripten_throw_longjmp|_abort_js|emscripten_resize_heap|emscripten_date_now|_tzset_js|_gmtime_js|_localtime_js)|wasi_snapshot_preview1\.(environ_sizes_get|environ_get|fd_write|fd_read|fd_close|fd_seek|fd_sync))$/;
    expect(names.filter((name) => !provided.test(name))).toEqual([]);
  });
});

describe('startPdfium', () => {
  it("reuses a clean call's instance, started again: the same pages and text, no new instance, no growth", async () => {
    const pdf = await make.pdf({ pages: 3 });
    const sha = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
    dropIdleInstances();
    const memories: WebAssembly.Memory[] = [];
    const instantiate = WebAssembly.instantiate;
    const spy = vi.spyOn(WebAssembly, 'instantiate').mockImplementation((async (...args: unknown[]) => {
      const made = await (instantiate as (...a: unknown[]) => Promise<WebAssembly.Instance>)(...args);
      if (made.exports['FPDF_InitLibrary'] && made.exports['memory'] instanceof WebAssembly.Memory)
        memories.push(made.exports['memory']);
      return made;
    }) as typeof WebAssembly.instantiate);
    try {
      const first = { page: sha((await renderPdfPage(pdf, 2)).data), text: await pdfText(pdf) };
      expect(memories).toHaveLength(1);
      expect(idleInstances()['pdfium']).toBe(1);
      const grown = memories[0]!.buffer.byteLength;
      // A password-protected one fails inside PDFium: its instance is dropped, the next starts new and reads the same.
      const locked = new Uint8Array(
        readFileSync(new URL('../../../../../test/fixtures/encrypted-aes256-password.pdf', import.meta.url)),
      );
      await expect(pdfText(locked)).rejects.toMatchObject({ code: 'E_PDF_ENCRYPTED' });
      expect(idleInstances()['pdfium']).toBe(0);
      for (let call = 0; call < 3; call++) {
        expect(sha((await renderPdfPage(pdf, 2)).data)).toBe(first.page);
        expect(await pdfText(pdf)).toEqual(first.text);
      }
      expect(memories).toHaveLength(2);
      expect(memories[1]!.buffer.byteLength).toBeLessThanOrEqual(grown);
    } finally {
      spy.mockRestore();
    }
  });

  it('pauses a progressive render through PDFIUM_YES_SLOT, so a deadline can stop a slow page', async () => {
    const { api } = await startPdfium();
    const bytes = await manyShapesPdf(2000);
    const data = api.malloc(bytes.length);
    new Uint8Array(api.memory.buffer, data, bytes.length).set(bytes);
    const document = api.FPDF_LoadMemDocument(data, bytes.length, 0);
    const page = api.FPDF_LoadPage(document, 0);
    const bitmap = api.FPDFBitmap_Create(200, 200, 0);
    const pause = api.malloc(12);
    new Int32Array(api.memory.buffer, pause, 3).set([1, PDFIUM_YES_SLOT, 0]);
    let status = api.FPDF_RenderPageBitmap_Start(bitmap, page, 0, 0, 200, 200, 0, 0, pause);
    let steps = 1;
    for (; status === 1; steps++) status = api.FPDF_RenderPage_Continue(page, pause);
    expect(status).toBe(2); // done
    expect(steps).toBeGreaterThan(10); // PDFium paused every hundred or so of the 2000 shapes
  });
});

async function manyShapesPdf(shapes: number): Promise<Uint8Array> {
  const { PDFDocument, rgb } = await import('pdf-lib');
  const document = await PDFDocument.create();
  const page = document.addPage([600, 600]);
  for (let i = 0; i < shapes; i++)
    page.drawRectangle({
      x: (i * 7) % 590,
      y: (i * 13) % 590,
      width: 10,
      height: 10,
      color: rgb((i % 10) / 10, 0.5, 0.5),
    });
  return document.save();
}
