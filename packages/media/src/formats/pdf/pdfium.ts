// PDFium (from @hyzyla/pdfium, an emscripten build of Google's PDF engine) on glimpse's WASM seam. The
// package's JS glue is not used: it sniffs the environment and fetches or compiles the .wasm itself, which
// workerd forbids. This file gives the module the few host functions it imports instead, and starts an
// instance per document: one a clean call before left when there is one (its memory set back to what it
// held before its first start-up, and started again: runtime/kernel-pool.ts), since a dropped instance's
// memory (17.8 MB at least, up to the cap) is released late in workerd.
import { MediaError } from '../../errors.js';
import { keepForReuse, rememberStartedImage, takeIdleInstance } from '../../runtime/kernel-pool.js';
import { wasmModule } from '../../runtime/wasm.js';

/** The part of PDFium's C API glimpse calls (fpdfview.h, fpdf_text.h, fpdf_progressive.h, fpdf_edit.h). */
export interface PdfiumExports {
  memory: WebAssembly.Memory;
  __indirect_function_table: WebAssembly.Table;
  malloc(bytes: number): number;
  free(pointer: number): void;
  FPDF_InitLibrary(): void;
  FPDF_LoadMemDocument(data: number, size: number, password: number): number;
  FPDF_GetLastError(): number;
  FPDF_CloseDocument(document: number): void;
  FPDF_GetPageCount(document: number): number;
  FPDF_LoadPage(document: number, index: number): number;
  FPDF_ClosePage(page: number): void;
  FPDF_GetPageWidthF(page: number): number;
  FPDF_GetPageHeightF(page: number): number;
  FPDFBitmap_Create(width: number, height: number, alpha: number): number;
  FPDFBitmap_FillRect(bitmap: number, left: number, top: number, width: number, height: number, color: number): number;
  FPDFBitmap_GetBuffer(bitmap: number): number;
  FPDFBitmap_GetStride(bitmap: number): number;
  FPDFBitmap_Destroy(bitmap: number): void;
  FPDF_RenderPageBitmap_Start(
    bitmap: number,
    page: number,
    x: number,
    y: number,
    width: number,
    height: number,
    rotate: number,
    flags: number,
    pause: number,
  ): number;
  FPDF_RenderPage_Continue(page: number, pause: number): number;
  FPDF_RenderPage_Close(page: number): void;
  FPDFPage_CountObjects(page: number): number;
  FPDFPage_GetObject(page: number, index: number): number;
  FPDFPageObj_GetType(object: number): number;
  FPDFPageObj_GetBounds(object: number, left: number, bottom: number, right: number, top: number): number;
  FPDFText_LoadPage(page: number): number;
  FPDFText_ClosePage(textPage: number): void;
  FPDFText_CountChars(textPage: number): number;
  FPDFText_GetText(textPage: number, start: number, count: number, out: number): number;
}

/** The exports the code above relies on; an instance missing one is refused before any call. */
const REQUIRED: readonly string[] = [
  'malloc',
  'free',
  'FPDF_InitLibrary',
  'FPDF_LoadMemDocument',
  'FPDF_GetLastError',
  'FPDF_CloseDocument',
  'FPDF_GetPageCount',
  'FPDF_LoadPage',
  'FPDF_ClosePage',
  'FPDF_GetPageWidthF',
  'FPDF_GetPageHeightF',
  'FPDFBitmap_Create',
  'FPDFBitmap_FillRect',
  'FPDFBitmap_GetBuffer',
  'FPDFBitmap_GetStride',
  'FPDFBitmap_Destroy',
  'FPDF_RenderPageBitmap_Start',
  'FPDF_RenderPage_Continue',
  'FPDF_RenderPage_Close',
  'FPDFPage_CountObjects',
  'FPDFPage_GetObject',
  'FPDFPageObj_GetType',
  'FPDFPageObj_GetBounds',
  'FPDFText_LoadPage',
  'FPDFText_ClosePage',
  'FPDFText_CountChars',
  'FPDFText_GetText',
  '__wasm_call_ctors',
  'setThrew',
  'emscripten_stack_get_current',
  '_emscripten_stack_restore',
];

/**
 * Most memory one document may use by default (the `maxMemory` option). A page is rendered at most a few
 * megapixels, but an embedded image is decoded whole: this cap turns a hostile image into a typed error
 * instead of an exhausted host.
 */
export const PDFIUM_MAX_MEMORY = 512 * 1024 * 1024;

/**
 * A function-table slot of the pinned build holding a WASM function of type (i32) → i32 whose whole body is
 * `return 1`. PDFium's progressive renderer asks a C callback whether to pause; this slot answers yes, with
 * no side effects. (The table cannot grow, so a host function cannot be added.) pdfium.test.ts reads the
 * .wasm and checks that the slot still holds such a function.
 */
export const PDFIUM_YES_SLOT = 55;

/** PDFium called abort(); the message says what that usually means. */
export class PdfiumFailure extends Error {}

/**
 * One started instance: its C API, whether it was refused memory (which explains a later failure), and
 * `keep`, for a call that ended cleanly with everything closed: the instance goes back for the next one.
 */
export interface Pdfium {
  api: PdfiumExports;
  refusedMemory(): boolean;
  keep(): void;
}

/** An instance and what its host functions read of the call it serves. */
interface PdfiumInstance {
  api: PdfiumExports & Record<string, unknown>;
  call: { maxMemory: number; refused: boolean };
}

// emscripten turns C longjmp into this exception and catches it in the `invoke_*` trampolines.
const LONGJMP = Symbol('longjmp');
// WASI/musl errno values the stubs answer with.
const ENOENT = 44;
const EBADF = 8;

/**
 * A started PDFium instance, whose memory never grows past `maxMemory` bytes: nothing is shared with other
 * calls (a reused one is as a new one; one whose memory is past `maxMemory` already is not reused).
 */
export async function startPdfium(maxMemory = PDFIUM_MAX_MEMORY): Promise<Pdfium> {
  const idle = takeIdleInstance<PdfiumInstance>('pdfium');
  const instance = idle && idle.api.memory.buffer.byteLength <= maxMemory ? idle : await instantiatePdfium();
  instance.call.maxMemory = maxMemory;
  instance.call.refused = false;
  (instance.api['__wasm_call_ctors'] as () => void)();
  instance.api.FPDF_InitLibrary();
  return {
    api: instance.api,
    refusedMemory: () => instance.call.refused,
    keep: () => keepForReuse('pdfium', instance, instance.api.memory),
  };
}

/** A new instance, not started; the memory it has before its start-up is what a reused one is set back to. */
async function instantiatePdfium(): Promise<PdfiumInstance> {
  let exports: (PdfiumExports & Record<string, unknown>) | undefined;
  const call = { maxMemory: PDFIUM_MAX_MEMORY, refused: false };
  const live = () => {
    if (!exports) throw new PdfiumFailure('PDFium called the host before it started');
    return exports;
  };
  const words = () => new Int32Array(live().memory.buffer);
  const trampoline = (index: number, ...args: number[]) => {
    const pdfium = live() as unknown as Record<string, (...values: number[]) => number>;
    const stack = pdfium['emscripten_stack_get_current']!();
    try {
      return (live().__indirect_function_table.get(index) as (...values: number[]) => number)(...args);
    } catch (error) {
      pdfium['_emscripten_stack_restore']!(stack);
      if (error !== LONGJMP) throw error;
      pdfium['setThrew']!(1, 0);
      return 0;
    }
  };
  // C's gmtime/localtime, in UTC everywhere, so output never depends on the host's time zone.
  const fillTm = (seconds: bigint, tm: number) => {
    const date = new Date(Number(seconds) * 1000);
    const yearStart = Date.UTC(date.getUTCFullYear(), 0, 1);
    const fields = [
      date.getUTCSeconds(),
      date.getUTCMinutes(),
      date.getUTCHours(),
      date.getUTCDate(),
      date.getUTCMonth(),
      date.getUTCFullYear() - 1900,
      date.getUTCDay(),
      Math.floor((date.getTime() - yearStart) / 86_400_000),
      0,
      0,
      0,
    ];
    words().set(fields, tm >> 2);
  };
  const env: Record<string, (...args: never[]) => unknown> = {
    _emscripten_throw_longjmp: () => {
      throw LONGJMP;
    },
    _abort_js: () => {
      throw new PdfiumFailure('PDFium stopped on an internal check (usually: it ran out of memory)');
    },
    emscripten_resize_heap: (requested: number) => {
      const grown = growMemory(live().memory, requested >>> 0, call.maxMemory);
      call.refused ||= !grown;
      return grown ? 1 : 0;
    },
    emscripten_date_now: () => Date.now(),
    _tzset_js: (timezone: number, daylight: number, standardName: number, summerName: number) => {
      const memory = new Uint8Array(live().memory.buffer);
      words().set([0], timezone >> 2);
      words().set([0], daylight >> 2);
      memory.set([85, 84, 67, 0], standardName); // "UTC"
      memory.set([85, 84, 67, 0], summerName);
    },
    _gmtime_js: (seconds: bigint, tm: number) => fillTm(seconds, tm),
    _localtime_js: (seconds: bigint, tm: number) => fillTm(seconds, tm),
  };
  // PDFium looks for system fonts on start; there is no file system, so every path is missing.
  const wasi: Record<string, (...args: never[]) => unknown> = {
    environ_sizes_get: (count: number, size: number) => {
      words().set([0], count >> 2);
      words().set([0], size >> 2);
      return 0;
    },
    environ_get: () => 0,
    fd_write: (_fd: number, iovs: number, count: number, written: number) => {
      // Diagnostics PDFium prints are dropped; report them written so it carries on.
      let total = 0;
      for (let i = 0; i < count; i++) total += words()[(iovs >> 2) + i * 2 + 1] ?? 0;
      words().set([total], written >> 2);
      return 0;
    },
    fd_read: () => EBADF,
    fd_close: () => EBADF,
    fd_seek: () => EBADF,
    fd_sync: () => 0,
  };
  const module = await wasmModule('pdfium');
  const imports: Record<'env' | 'wasi_snapshot_preview1', Record<string, unknown>> = {
    env: {},
    wasi_snapshot_preview1: {},
  };
  for (const { module: from, name } of WebAssembly.Module.imports(module)) {
    const table = from === 'env' ? env : wasi;
    const host = name.startsWith('invoke_') ? trampoline : name.startsWith('__syscall_') ? () => -ENOENT : table[name];
    if (host === undefined || (from !== 'env' && from !== 'wasi_snapshot_preview1')) {
      throw new MediaError(
        'E_WASM_UNAVAILABLE',
        `The pdfium WASM module imports ${from}.${name}, which glimpse does not provide: it is not the build glimpse was made for (@hyzyla/pdfium 2.1.13).`,
      );
    }
    imports[from][name] = host;
  }
  const instance = await WebAssembly.instantiate(module, imports as WebAssembly.Imports);
  const missing = REQUIRED.filter((name) => typeof instance.exports[name] !== 'function');
  if (missing.length > 0 || !(instance.exports['memory'] instanceof WebAssembly.Memory)) {
    throw new MediaError(
      'E_WASM_UNAVAILABLE',
      `The pdfium WASM module lacks ${missing.join(', ') || 'its memory'}: it is not the build glimpse was made for (@hyzyla/pdfium 2.1.13).`,
    );
  }
  exports = instance.exports as unknown as PdfiumExports & Record<string, unknown>;
  rememberStartedImage('pdfium', exports.memory);
  return { api: exports, call };
}

/** emscripten's sbrk asks for `requested` bytes in all; grow by a quarter at least, never past the cap. */
function growMemory(memory: WebAssembly.Memory, requested: number, maxMemory: number): boolean {
  const current = memory.buffer.byteLength;
  if (requested > maxMemory) return false;
  const target = Math.min(maxMemory, Math.max(requested, current + current / 4));
  try {
    memory.grow(Math.ceil((target - current) / 65_536));
    return true;
  } catch {
    return false;
  }
}
