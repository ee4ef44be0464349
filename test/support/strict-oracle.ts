// The strict oracle: says why a file would be refused by a strict reader, or nothing when it is sound.
// Two independent layers, neither sharing code with the media core:
//   1. own structural checks written from the specs: PNG chunk CRCs, zlib Adler-32 and the exact amount
//      of image data (what libpng refuses; like libpng, bytes after IEND are ignored); JPEG marker structure; WebP RIFF and chunk sizes; GIF blocks;
//      HEIF top-level boxes (passed through for Gemini);
//   2. Debian's reference tools, which refuse what their libraries refuse: `pngcheck` (libpng's checks
//      plus zlib), `djpeg -strict` (libjpeg-turbo, warnings fatal), `webpinfo` and `dwebp` (libwebp),
//      `gif2rgb` (giflib), `qpdf --check` (PDF structure), `heif-convert` (libheif + libde265).
// Browsers, sharp and Pillow tolerate much of this, which is how a PNG with a zero IEND CRC went unnoticed.
// scripts/install-test-tools.sh installs the tools; a missing tool is an error, never a silent pass.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { crc32, inflateSync } from 'node:zlib';

export type StrictFormat = 'png' | 'jpeg' | 'webp' | 'gif' | 'pdf' | 'heif';

const MEDIA_TYPES: Record<StrictFormat, string[]> = {
  png: ['image/png'],
  jpeg: ['image/jpeg'],
  webp: ['image/webp'],
  gif: ['image/gif'],
  pdf: ['application/pdf'],
  heif: ['image/heic', 'image/heif'],
};

/** The format the bytes' signature names, or undefined. */
export function signatureFormat(bytes: Uint8Array): StrictFormat | undefined {
  const ascii = (start: number, end: number) => String.fromCharCode(...bytes.subarray(start, end));
  if (bytes[0] === 0x89 && ascii(1, 8) === 'PNG\r\n\x1a\n') return 'png';
  if (bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'jpeg';
  if (ascii(0, 4) === 'RIFF' && ascii(8, 12) === 'WEBP') return 'webp';
  if (ascii(0, 6) === 'GIF87a' || ascii(0, 6) === 'GIF89a') return 'gif';
  if (ascii(0, 5) === '%PDF-') return 'pdf';
  if (ascii(4, 8) === 'ftyp' && /^(heic|heix|mif1|msf1)$/.test(ascii(8, 12))) return 'heif';
  return undefined;
}

/**
 * Every reason a strict reader would refuse `bytes`; empty when none. `mediaType`, when given, must
 * match the signature (a result that says PNG must be a PNG).
 */
export function strictProblems(bytes: Uint8Array, mediaType?: string): string[] {
  const format = signatureFormat(bytes);
  if (format === undefined)
    return [`no PNG, JPEG, WebP, GIF, PDF or HEIF signature (first bytes ${hex(bytes.subarray(0, 8))})`];
  if (mediaType !== undefined && !MEDIA_TYPES[format].includes(mediaType))
    return [`says ${mediaType} but the bytes are ${MEDIA_TYPES[format].join(' or ')}`];
  const own = OWN_CHECKS[format](bytes).map((problem) => `${format}: ${problem}`);
  return [...own, ...toolProblems(format, bytes)];
}

/** Throws with every problem when a strict reader would refuse the bytes. */
export function assertStrictlyValid(bytes: Uint8Array, mediaType?: string, label = 'output'): void {
  const problems = strictProblems(bytes, mediaType);
  if (problems.length > 0)
    throw new Error(`strict oracle refuses the ${label} (${bytes.byteLength} B):\n  ${problems.join('\n  ')}`);
}

// ---------------------------------------------------------------- own checks

const OWN_CHECKS: Record<StrictFormat, (bytes: Uint8Array) => string[]> = {
  png: pngProblems,
  jpeg: jpegProblems,
  webp: webpProblems,
  gif: gifProblems,
  pdf: pdfProblems,
  heif: heifProblems,
};

function hex(bytes: Uint8Array): string {
  return [...bytes].map((byte) => byte.toString(16).padStart(2, '0')).join(' ');
}

function view(bytes: Uint8Array): DataView {
  return new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

const CHANNELS: Record<number, number> = { 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 };
const ADAM7 = [
  [0, 0, 8, 8],
  [4, 0, 8, 8],
  [0, 4, 4, 8],
  [2, 0, 4, 4],
  [0, 2, 2, 4],
  [1, 0, 2, 2],
  [0, 1, 1, 2],
] as const;

/** Bytes of filtered scanlines libpng expects for this IHDR. */
function pngImageDataLength(
  width: number,
  height: number,
  bitDepth: number,
  colourType: number,
  interlaced: boolean,
): number {
  const bitsPerPixel = bitDepth * (CHANNELS[colourType] ?? 0);
  const rows = (w: number, h: number) => (w === 0 || h === 0 ? 0 : h * (1 + Math.ceil((w * bitsPerPixel) / 8)));
  if (!interlaced) return rows(width, height);
  let total = 0;
  for (const [x0, y0, dx, dy] of ADAM7) total += rows(Math.ceil((width - x0) / dx), Math.ceil((height - y0) / dy));
  return total;
}

function pngProblems(bytes: Uint8Array): string[] {
  const problems: string[] = [];
  const data = view(bytes);
  const idat: Uint8Array[] = [];
  let header: { width: number; height: number; bitDepth: number; colourType: number; interlaced: boolean } | undefined;
  let offset = 8;
  let ended = false;
  let previous = '';
  while (offset < bytes.length) {
    if (offset + 12 > bytes.length) return [...problems, `truncated chunk header at byte ${offset}`];
    const length = data.getUint32(offset);
    const type = String.fromCharCode(...bytes.subarray(offset + 4, offset + 8));
    if (!/^[A-Za-z]{4}$/.test(type))
      return [...problems, `invalid chunk type ${hex(bytes.subarray(offset + 4, offset + 8))} at byte ${offset}`];
    if (length > 0x7fffffff || offset + 12 + length > bytes.length)
      return [...problems, `${type} chunk runs past the end of the file`];
    const body = bytes.subarray(offset + 8, offset + 8 + length);
    const stored = data.getUint32(offset + 8 + length);
    const computed = crc32(bytes.subarray(offset + 4, offset + 8 + length));
    if (stored !== computed)
      problems.push(
        `CRC error in chunk ${type} (computed ${computed.toString(16).padStart(8, '0')}, stored ${stored.toString(16).padStart(8, '0')})`,
      );
    if (previous === '' && type !== 'IHDR') problems.push(`first chunk is ${type}, not IHDR`);
    if (type === 'IHDR' && length === 13) {
      const fields = view(body);
      header = {
        width: fields.getUint32(0),
        height: fields.getUint32(4),
        bitDepth: body[8] ?? 0,
        colourType: body[9] ?? 0,
        interlaced: body[12] === 1,
      };
    }
    if (type === 'IDAT') {
      if (idat.length > 0 && previous !== 'IDAT') problems.push('IDAT chunks are not consecutive');
      idat.push(body);
    }
    offset += 12 + length;
    previous = type;
    if (type === 'IEND') {
      ended = true;
      break;
    }
  }
  // Bytes after IEND are not read by libpng (nor by any decoder), so they are not counted against the file.
  if (!ended) problems.push('no IEND chunk');
  if (header === undefined) return [...problems, 'no valid IHDR'];
  if (header.width === 0 || header.height === 0) problems.push(`IHDR size ${header.width}x${header.height}`);
  if (idat.length === 0) return [...problems, 'no IDAT chunk'];
  let inflated: Buffer;
  try {
    // Node's zlib verifies the stream's Adler-32 and refuses a stream that does not end.
    inflated = inflateSync(Buffer.concat(idat));
  } catch (error) {
    return [...problems, `zlib stream: ${(error as Error).message}`];
  }
  const expected = pngImageDataLength(
    header.width,
    header.height,
    header.bitDepth,
    header.colourType,
    header.interlaced,
  );
  if (inflated.length !== expected) problems.push(`image data is ${inflated.length} bytes, IHDR needs ${expected}`);
  return problems;
}

/** Markers with no length field: SOI, EOI, RSTn, TEM. */
function standalone(marker: number): boolean {
  return marker === 0xd8 || marker === 0xd9 || (marker >= 0xd0 && marker <= 0xd7) || marker === 0x01;
}

function jpegProblems(bytes: Uint8Array): string[] {
  const data = view(bytes);
  let offset = 2;
  let frames = 0;
  let scans = 0;
  while (offset < bytes.length) {
    if (bytes[offset] !== 0xff)
      return [`expected a marker at byte ${offset}, found ${hex(bytes.subarray(offset, offset + 1))}`];
    while (bytes[offset] === 0xff) offset++; // fill bytes
    const marker = bytes[offset++] ?? 0;
    if (marker === 0xd9) return frames === 1 && scans > 0 ? [] : [`EOI after ${frames} frame(s) and ${scans} scan(s)`];
    if (marker === 0xd8) return ['a second SOI'];
    if (standalone(marker)) continue;
    if (offset + 2 > bytes.length) break;
    const length = data.getUint16(offset);
    if (length < 2 || offset + length > bytes.length)
      return [`segment FF${marker.toString(16)} at byte ${offset - 2} runs past the end of the file`];
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      frames++;
      const precision = bytes[offset + 2];
      if (precision !== 8) return [`sample precision ${precision} (baseline readers take 8)`];
    }
    offset += length;
    if (marker === 0xda) {
      scans++;
      // Entropy-coded data runs to the next marker that is not a stuffed zero or a restart marker. Fill
      // bytes (more 0xFF) may come between the 0xFF and what follows, as libjpeg reads them: FF FF 00 is data.
      for (;;) {
        while (offset < bytes.length && bytes[offset] !== 0xff) offset++;
        let next = offset + 1;
        while (bytes[next] === 0xff) next++;
        if (next >= bytes.length) break;
        const code = bytes[next]!;
        if (code !== 0 && !(code >= 0xd0 && code <= 0xd7)) {
          offset = next - 1; // the last 0xFF before the marker code
          break;
        }
        offset = next + 1;
      }
      if (offset + 1 >= bytes.length) break;
    }
  }
  return ['no EOI marker (truncated)'];
}

function webpProblems(bytes: Uint8Array): string[] {
  if (bytes.length < 12) return ['shorter than a RIFF header'];
  const data = view(bytes);
  const problems: string[] = [];
  const riffSize = data.getUint32(4, true);
  if (riffSize + 8 !== bytes.length)
    problems.push(`RIFF size ${riffSize} but the file holds ${bytes.length - 8} bytes after it`);
  const end = Math.min(bytes.length, riffSize + 8);
  let offset = 12;
  let first = '';
  while (offset < end) {
    if (offset + 8 > end) return [...problems, `truncated chunk header at byte ${offset}`];
    const type = String.fromCharCode(...bytes.subarray(offset, offset + 4));
    const size = data.getUint32(offset + 4, true);
    if (first === '') first = type;
    if (offset + 8 + size > end) return [...problems, `chunk '${type}' of ${size} bytes runs past the RIFF payload`];
    offset += 8 + size + (size % 2);
  }
  if (offset > end + 1) problems.push('last chunk padding runs past the RIFF payload');
  if (!['VP8 ', 'VP8L', 'VP8X'].includes(first)) problems.push(`first chunk is '${first}', not VP8/VP8L/VP8X`);
  return problems;
}

function gifProblems(bytes: Uint8Array): string[] {
  if (bytes.length < 13) return ['shorter than a logical screen descriptor'];
  let offset = 13;
  const packed = bytes[10] ?? 0;
  if (packed & 0x80) offset += 3 << ((packed & 7) + 1);
  let images = 0;
  const skipSubBlocks = () => {
    while (offset < bytes.length) {
      const size = bytes[offset++] ?? 0;
      if (size === 0) return true;
      offset += size;
    }
    return false;
  };
  while (offset < bytes.length) {
    const introducer = bytes[offset++];
    if (introducer === 0x3b) return images > 0 ? [] : ['no image before the trailer'];
    if (introducer === 0x21) {
      offset++; // label
      if (!skipSubBlocks()) break;
    } else if (introducer === 0x2c) {
      if (offset + 9 > bytes.length) break;
      const flags = bytes[offset + 8] ?? 0;
      offset += 9;
      if (flags & 0x80) offset += 3 << ((flags & 7) + 1);
      else if (!(packed & 0x80)) return [`image ${images + 1} has no colour table and there is no global one`];
      const codeSize = bytes[offset++] ?? 0;
      if (codeSize < 2 || codeSize > 8) return [`LZW minimum code size ${codeSize} (GIF allows 2–8)`];
      if (!skipSubBlocks()) break;
      images++;
    } else {
      return [`unknown block introducer 0x${(introducer ?? 0).toString(16)} at byte ${offset - 1}`];
    }
  }
  return ['no trailer (truncated)'];
}

function pdfProblems(bytes: Uint8Array): string[] {
  const tail = new TextDecoder('latin1').decode(bytes.subarray(Math.max(0, bytes.length - 1024)));
  return tail.includes('%%EOF') ? [] : ['no %%EOF in the last 1024 bytes'];
}

/** ISO BMFF: the top-level boxes tile the file, ftyp first, one meta (the image items). */
function heifProblems(bytes: Uint8Array): string[] {
  const data = view(bytes);
  const types: string[] = [];
  for (let offset = 0; offset < bytes.length; ) {
    if (offset + 8 > bytes.length) return [`${bytes.length - offset} bytes after the last box`];
    const declared = data.getUint32(offset);
    const size =
      declared === 1 ? Number(data.getBigUint64(offset + 8)) : declared === 0 ? bytes.length - offset : declared;
    const type = String.fromCharCode(...bytes.subarray(offset + 4, offset + 8));
    if (size < 8 || offset + size > bytes.length) return [`box '${type}' at byte ${offset} has a bad size ${size}`];
    types.push(type);
    offset += size;
  }
  const problems = types[0] === 'ftyp' ? [] : ['first box is not ftyp'];
  const metas = types.filter((type) => type === 'meta').length;
  return metas === 1 ? problems : [...problems, `${metas} meta boxes`];
}

// ---------------------------------------------------------------- Debian's tools

interface Tool {
  /** Arguments, with FILE where the path goes. */
  command: string[];
  /** Debian package that ships it. */
  package: string;
  /** Whether an exit status and output mean the file passes (default: exit 0). */
  passes?: (status: number, output: string) => boolean;
  /** Files the tool cannot judge. */
  skips?: (bytes: Uint8Array) => boolean;
}

const TOOLS: Record<StrictFormat, Tool[]> = {
  // pngcheck also refuses what libpng reads without complaint: a tIME year of 1970 (PngSuite's valid
  // cm7n0g04), NUL characters inside tEXt, bytes after IEND. Those alone do not fail a file.
  png: [
    {
      command: ['pngcheck', 'FILE'],
      package: 'pngcheck',
      passes: (status, output) => status === 0 || pedanticOnly(output),
    },
  ],
  jpeg: [{ command: ['djpeg', '-strict', '-outfile', '/dev/null', 'FILE'], package: 'libjpeg-turbo-progs' }],
  webp: [
    { command: ['webpinfo', 'FILE'], package: 'webp' },
    // dwebp decodes stills only; webpinfo checks an animation's frames.
    { command: ['dwebp', '-quiet', 'FILE', '-o', '/dev/null'], package: 'webp', skips: hasAnimChunk },
  ],
  gif: [{ command: ['gif2rgb', '-o', '/dev/null', 'FILE'], package: 'giflib-tools' }],
  // qpdf exits 3 for warnings it recovered from (a repaired xref); 2 is an error.
  pdf: [{ command: ['qpdf', '--check', 'FILE'], package: 'qpdf', passes: (status) => status === 0 || status === 3 }],
  // heif-convert decodes the primary image (libde265 for HEVC) and writes it out.
  heif: [{ command: ['heif-convert', 'FILE', 'FILE.png'], package: 'libheif-examples' }],
};

const PNGCHECK_PEDANTRY = /invalid (tIME )?year|text contains NULL|additional data after IEND/;

/** pngcheck stops at its first error: only that error is in the output, next to the final ERROR line. */
function pedanticOnly(output: string): boolean {
  const complaints = output.split('\n').filter((line) => line.trim() && !/^(ERROR|OK)\b/.test(line.trim()));
  return complaints.length > 0 && complaints.every((line) => PNGCHECK_PEDANTRY.test(line));
}

function hasAnimChunk(bytes: Uint8Array): boolean {
  const data = view(bytes);
  for (
    let offset = 12;
    offset + 8 <= bytes.length;
    offset += 8 + data.getUint32(offset + 4, true) + (data.getUint32(offset + 4, true) % 2)
  ) {
    if (String.fromCharCode(...bytes.subarray(offset, offset + 4)) === 'ANIM') return true;
  }
  return false;
}

let scratch: string | undefined;

function scratchFile(format: StrictFormat, bytes: Uint8Array): string {
  if (scratch === undefined) {
    const directory = mkdtempSync(join(tmpdir(), 'glimpse-oracle-'));
    scratch = directory;
    globalThis.process.once('exit', () => rmSync(directory, { recursive: true, force: true }));
  }
  const path = join(scratch, `input.${format}`);
  writeFileSync(path, bytes);
  return path;
}

/** The lines of a tool's output that say what is wrong (webpinfo also prints every chunk it read). */
function summary(output: string): string {
  const lines = output
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);
  const telling = lines.filter((line) =>
    /error|invalid|fail|status|truncat|corrupt|premature|unsupported|not enough|eof/i.test(line),
  );
  return (telling.length > 0 ? telling : lines).slice(0, 3).join(' | ');
}

function toolProblems(format: StrictFormat, bytes: Uint8Array): string[] {
  const path = scratchFile(format, bytes);
  const problems: string[] = [];
  for (const tool of TOOLS[format]) {
    if (tool.skips?.(bytes)) continue;
    const [program = '', ...args] = tool.command.map((part) => part.replace(/^FILE/, path));
    const run = spawnSync(program, args, { encoding: 'utf8', timeout: 30_000, maxBuffer: 64 << 20 });
    if (run.error) {
      const missing = (run.error as NodeJS.ErrnoException).code === 'ENOENT';
      throw new Error(
        missing
          ? `strict oracle: ${program} is missing; install Debian's ${tool.package} (scripts/install-test-tools.sh)`
          : `strict oracle: ${program} failed to run: ${run.error.message}`,
      );
    }
    const output = `${run.stdout}${run.stderr}`.replaceAll(path, 'FILE').trim();
    const status = run.status ?? -1;
    const passed = tool.passes ? tool.passes(status, output) : status === 0;
    if (!passed) problems.push(`${program} refuses it (exit ${status}): ${summary(output)}`);
  }
  return problems;
}
