import { decoderFor, type DecodableInfo } from './pipeline/decoders.js';
import { rasterizeSvg } from './formats/svg/rasterize.js';
import { decodeToFit } from './pipeline/decode-to-fit.js';
import { deadlineAfter, NO_DEADLINE, type Deadline } from './runtime/deadline.js';
import type { Encoding } from './pipeline/encode.js';
import { MediaError } from './errors.js';
import { FIRST_QUALITY, fitWithinLimits, type Fitted } from './pipeline/fit.js';
import { carryIccProfile } from './pipeline/colour-profile.js';
import { presetsTaking, takersSentence } from './presets/takers.js';
import { assertPixelBudget, resolveLimits, type Limits } from './presets/limits.js';
import { swapsAxes } from './raster/orient.js';
import { anyTransparent } from './raster/pixels.js';
import { detect } from './detect.js';
import { checkIntegrity, type IntegrityProblem, verifyIntegrity } from './integrity.js';
import { checkPdfIntegrity, verifyPdfIntegrity } from './formats/pdf/integrity.js';
import { checkSvgImages } from './pipeline/svg-images.js';
import { probe } from './probe.js';
import { recoveredWarning } from './pipeline/truncation.js';
import type {
  MediaType,
  PdfInfo,
  ProbeResult,
  ProcessOptions,
  ProcessResult,
  ProcessStep,
  ProcessWarning,
  SendableImageType,
} from './types.js';

/**
 * Makes `bytes` safe to send: the input untouched when it already fits, otherwise decoded, turned
 * upright, resized and re-encoded within the limits of `options` (default preset: `portable`).
 * A file is only passed through when it passes the checks strict decoders make (chunk CRCs, marker
 * structure, container sizes); otherwise it is re-encoded, or refused when its pixel data is damaged.
 * Throws `MediaError` when nothing valid can be sent.
 */
export async function process(bytes: Uint8Array, options: ProcessOptions = {}): Promise<ProcessResult> {
  if (!(bytes instanceof Uint8Array)) {
    throw new MediaError(
      'E_INVALID_INPUT',
      `process() takes the file's bytes as a Uint8Array (a Node Buffer is one), not ${describeValue(bytes)}. Wrap an ArrayBuffer with new Uint8Array(buffer).`,
    );
  }
  const limits = resolveLimits(options);
  const fonts = assertFonts(options.fonts);
  const deadline = limits.timeoutMs === undefined ? NO_DEADLINE : deadlineAfter(limits.timeoutMs);
  // pdf-lib parses the whole file: refuse an oversized PDF before paying for that.
  if (detect(bytes) === 'application/pdf') assertPdfSize(bytes, limits);
  const info = await probe(bytes);
  deadline.check("Reading the file's header");
  switch (info.mediaType) {
    case 'application/pdf':
      return checkPdf(bytes, info, limits);
    case 'image/svg+xml':
      return renderSvg(bytes, info, limits, fonts, deadline);
    case 'image/png':
    case 'image/jpeg':
    case 'image/gif':
    case 'image/webp':
    case 'image/bmp':
      return processRaster(bytes, info, limits, deadline);
    case 'image/heic':
    case 'image/heif':
    case 'image/x-icon':
    case 'image/tiff':
    case 'image/avif':
      return processRaster(bytes, info, limits, deadline);
    case 'image/jxl':
      throw new MediaError(
        'E_UNSUPPORTED',
        `This is ${FORMAT_NAMES[info.mediaType]} (${info.mediaType}), which glimpse does not decode and providers do not accept. Convert it to PNG or JPEG first.`,
        { mediaType: info.mediaType },
      );
    default: {
      const unreachable: never = info;
      throw new MediaError('E_UNSUPPORTED', `Unsupported media type ${String(unreachable)}.`);
    }
  }
}

const FORMAT_NAMES = {
  'image/jxl': 'a JPEG XL image',
} as const;

function describeValue(value: unknown): string {
  if (value === null) return 'null';
  const name = typeof value === 'object' ? (value.constructor?.name ?? 'plain object') : typeof value;
  return `${/^[aeiouAEIOU]/.test(name) ? 'an' : 'a'} ${name}`;
}

function assertFonts(fonts: ProcessOptions['fonts']): readonly Uint8Array[] {
  if (fonts === undefined) return [];
  if (!Array.isArray(fonts) || !fonts.every((font) => font instanceof Uint8Array)) {
    throw new MediaError(
      'E_INVALID_OPTIONS',
      'Expected fonts to be an array of Uint8Array (TTF, OTF or TTC file bytes).',
      { option: 'fonts' },
    );
  }
  return fonts;
}

/** Browsers and providers decode 8-bit JPEG only; libjpeg's 12-bit mode is a separate build glimpse does not ship. */
function assertEightBitJpeg(info: DecodableInfo): void {
  if (info.mediaType !== 'image/jpeg' || info.bitDepth === 8) return;
  throw new MediaError(
    'E_UNSUPPORTED',
    `This JPEG stores ${info.bitDepth}-bit samples, which browsers and model providers do not decode, and glimpse does not either. Convert it to an 8-bit JPEG or a PNG first (for example \`convert in.jpg -depth 8 out.png\` with ImageMagick).`,
    { format: 'JPEG', bitDepth: info.bitDepth },
  );
}

function original(info: ProbeResult): ProcessResult['original'] {
  return {
    mediaType: info.mediaType,
    width: info.width ?? 0,
    height: info.height ?? 0,
    bytes: info.bytes,
    orientation: info.orientation,
    frames: info.frames,
    ...((info.mediaType === 'application/pdf' || info.mediaType === 'image/tiff') && info.pages !== undefined
      ? { pages: info.pages }
      : {}),
  };
}

async function processRaster(
  bytes: Uint8Array,
  info: DecodableInfo,
  limits: Limits,
  deadline: Deadline,
): Promise<ProcessResult> {
  const { width, height } = assertPixelBudget(info, limits);
  assertEightBitJpeg(info);
  const type = info.mediaType;
  const warnings: ProcessWarning[] = [];
  // What strict decoders check before showing pixels: a damaged critical chunk is refused, the rest repaired by re-encoding.
  const checked = checkedType(type);
  let damage = checked && checkIntegrity(bytes, checked);
  if (damage) warnings.push(integrityWarning(damage, checked));
  // CMYK/YCCK JPEGs are valid but many decoders show them with wrong colours: always convert to RGB.
  // A JPEG cut short is decoded (libjpeg recovers what is there) rather than passed through.
  const cmyk = info.mediaType === 'image/jpeg' && info.components === 4;
  const accepted = acceptedAsIs(type, limits);
  const sendable = accepted !== undefined && !cmyk && !damage;
  // A HEIC is shown upright by its reader (irot/imir are part of the format), so its orientation needs no work.
  const shownUpright = info.orientation === 1 || type === 'image/heic' || type === 'image/heif';
  if (
    sendable &&
    shownUpright &&
    info.frames <= 1 &&
    Math.max(width, height) <= limits.maxEdge &&
    bytes.byteLength <= limits.maxBytes
  ) {
    // Sent untouched only when its format's strictest reader reads every byte of it without complaint:
    // costs about a decode (docs/formats-and-errors.md), and only here, where nothing else decodes the file.
    damage = checked && (await verifyIntegrity(bytes, checked));
    deadline.check('Checking the image data');
    if (!damage)
      return {
        data: bytes,
        mediaType: accepted,
        width,
        height,
        bytes: bytes.byteLength,
        original: original(info),
        resized: false,
        reencoded: false,
        steps: [],
        warnings: [],
      };
    warnings.push(integrityWarning(damage, checked));
  }

  const steps: ProcessResult['steps'] = [];
  const decode = decoderFor(info, limits.maxInputPixels);
  if (!decode) {
    // Sizes as the image is shown (a HEIC's irot turns it), as the user knows it.
    const [shownWidth, shownHeight] = swapsAxes(info.orientation) ? [height, width] : [width, height];
    const over = [
      ...(Math.max(width, height) > limits.maxEdge
        ? [`${shownWidth}×${shownHeight} px, over ${limits.maxEdge} px`]
        : []),
      ...(bytes.byteLength > limits.maxBytes ? [`${bytes.byteLength} bytes, over ${limits.maxBytes}`] : []),
    ];
    const why = damage ? `it must be re-encoded first (${damage.problem})` : `it is over them (${over.join('; ')})`;
    throw noDecoder(type, accepted ? why : undefined);
  }
  // The target comes from the header, so a decoder can deliver rows already shrunk (JPEG's DCT scaling,
  // libwebp's rescaler) and the resizer and orientation work on rows as they arrive: the fitted output
  // is the only image that exists whole.
  const upright = swapsAxes(info.orientation) ? { width: height, height: width } : { width, height };
  const target = fitEdge(upright, limits.maxEdge);
  const decoded = await decodeToFit({
    decode,
    bytes,
    stored: { width, height },
    target,
    orientation: info.orientation,
    deadline,
  });
  deadline.check('Decoding the image');
  if (decoded.damaged)
    warnings.push({
      code: 'W_REPAIRED',
      message: `Part of the image data is damaged (${decoded.damaged}); the decoder filled in what it could not read, so parts of the image may show grey or wrongly coloured bands.`,
    });
  const recovered = decoded.recovered && recoveredWarning(decoded.recovered, info.orientation);
  if (recovered) {
    steps.push('recovered');
    warnings.splice(0, warnings.length, recovered); // says more than "repaired"
  }
  if (info.frames > 1) steps.push('first-frame');
  if (info.mediaType === 'image/tiff' && info.pages > 1) steps.push('first-page');
  if (info.orientation !== 1) steps.push('oriented');
  const resized = target.width !== upright.width || target.height !== upright.height;
  if (resized) steps.push('resized');
  const preferred = preferredEncoding(type, decoded, limits);
  if (preferred.type !== type || cmyk) steps.push('converted');
  // Re-fitting for maxBytes works from this raster: the image is never decoded again.
  const fitted = await fitWithinLimits({
    raster: decoded.raster,
    hasAlpha: decoded.hasAlpha,
    preferred,
    maxBytes: limits.maxBytes,
    accepts: limits.accepts,
    deadline,
  });
  // The pixels are still in the source's colour space: keep its ICC profile unless that breaks maxBytes.
  return reencodedResult(await carryIccProfile(fitted, bytes, type, limits.maxBytes), info, steps, resized, warnings);
}

/** The warning for a file that is re-encoded because of `damage`; throws E_CORRUPT when the damage is fatal. */
function integrityWarning(damage: IntegrityProblem, type: SendableImageType | undefined): ProcessWarning {
  if (damage.fatal) {
    const format = type ? FORMAT_LABELS[type] : 'image';
    throw new MediaError(
      'E_CORRUPT',
      `The ${format} file is damaged: ${damage.problem}. Strict decoders refuse it; re-export or re-download it.`,
      { format },
    );
  }
  return { code: 'W_REPAIRED', message: `The file was re-encoded because ${damage.problem}.` };
}

const FORMAT_LABELS: Readonly<Record<SendableImageType, string>> = {
  'image/png': 'PNG',
  'image/jpeg': 'JPEG',
  'image/gif': 'GIF',
  'image/webp': 'WebP',
  'image/heic': 'HEIC',
  'image/heif': 'HEIF',
};
const CHECKED_TYPES = Object.keys(FORMAT_LABELS) as SendableImageType[];

/** The types whose structure `checkIntegrity` knows (the ones providers take as they are). */
function checkedType(type: MediaType): SendableImageType | undefined {
  return CHECKED_TYPES.find((checked) => checked === type);
}

/** The result of anything that was decoded and re-encoded; `steps` are those taken before fitting. */
function reencodedResult(
  fitted: Fitted,
  info: ProbeResult,
  steps: ProcessStep[],
  resized: boolean,
  warnings: ProcessWarning[],
): ProcessResult {
  return {
    data: fitted.data,
    mediaType: fitted.mediaType,
    width: fitted.width,
    height: fitted.height,
    bytes: fitted.data.byteLength,
    original: original(info),
    resized: resized || fitted.steps.includes('scaled-for-bytes'),
    reencoded: true,
    steps: [...steps, ...fitted.steps.filter((step) => !steps.includes(step))],
    warnings,
  };
}

/** The type a provider on this route takes these bytes as, if it takes them as they are. */
function acceptedAsIs(type: MediaType, limits: Limits): SendableImageType | undefined {
  return limits.accepts.find((accepted) => accepted === type);
}

/**
 * Why this format cannot be converted here, and what to do: which presets take it as it is (from the route
 * table), why this file could not go as it is (`notPassed`, when this preset takes the format), which
 * package decodes it.
 */
function noDecoder(type: MediaType, notPassed: string | undefined): MediaError {
  const label = type === 'image/heic' ? 'HEIC' : 'HEIF';
  const why = notPassed ? ` This file cannot go as it is: ${notPassed}.` : '';
  const remedy = HEVC_TYPES.has(type)
    ? "To convert it, install @glimpse/heif (npm install @glimpse/heif), which adds the HEVC decoder (libheif + libde265, LGPL-3.0): the glimpse CLI and MCP server load it when it is installed; in code, import it once (import '@glimpse/heif'). Or convert the file to JPEG first."
    : 'Convert it to PNG or JPEG first.';
  return new MediaError(
    'E_UNSUPPORTED',
    `This is a ${label} image (${type}). ${takersSentence(type, label)}${why} ${remedy}`,
    {
      mediaType: type,
      acceptedBy: presetsTaking(type),
      ...(HEVC_TYPES.has(type) && { decoderPackage: '@glimpse/heif' }),
    },
  );
}

const HEVC_TYPES: ReadonlySet<MediaType> = new Set(['image/heic', 'image/heif']);

/**
 * Same codec as the source where the provider takes it (JPEG stays JPEG, lossy WebP stays WebP);
 * otherwise PNG where there is alpha or the decoder says the source is lossless, JPEG for the rest. A
 * lossless WebP is re-encoded as PNG, not lossless WebP: PNG streams in bands while libwebp's lossless
 * encoder takes the whole image, and it is 10–16× faster for 1.5–2× the bytes (2000 px, load ~14: a
 * screenshot 0.96 s / 538 KB against 10.3 s / 266 KB, a photo 2.5 s / 3.69 MB against 40.8 s / 2.39 MB);
 * a Worker's isolate grew 116 MB more with the WebP encoder.
 */
function preferredEncoding(
  type: MediaType,
  decoded: { hasAlpha: boolean; lossless: boolean },
  limits: Limits,
): Encoding {
  const jpeg: Encoding = { type: 'image/jpeg', quality: FIRST_QUALITY, lossless: false };
  const png: Encoding = { type: 'image/png', quality: 100, lossless: true };
  if (type === 'image/jpeg' && limits.accepts.includes('image/jpeg')) return jpeg;
  if (decoded.lossless) return png;
  if (type === 'image/webp' && limits.accepts.includes('image/webp')) {
    return { type: 'image/webp', quality: FIRST_QUALITY, lossless: false };
  }
  return decoded.hasAlpha ? png : jpeg;
}

/** Longest side at most `maxEdge`, aspect kept, never upscaled. */
function fitEdge(raster: { width: number; height: number }, maxEdge: number): { width: number; height: number } {
  const longest = Math.max(raster.width, raster.height);
  if (longest <= maxEdge) return { width: raster.width, height: raster.height };
  const scale = maxEdge / longest;
  return {
    width: Math.max(1, Math.round(raster.width * scale)),
    height: Math.max(1, Math.round(raster.height * scale)),
  };
}

async function renderSvg(
  bytes: Uint8Array,
  info: ProbeResult,
  limits: Limits,
  fonts: readonly Uint8Array[],
  deadline: Deadline,
): Promise<ProcessResult> {
  const images = await checkSvgImages(bytes, limits);
  deadline.check('Checking the SVG');
  const { raster, warnings } = await rasterizeSvg(bytes, {
    maxEdge: limits.maxEdge,
    fonts,
    embeddedImagePixels: images.embeddedImagePixels,
  });
  deadline.check('Rendering the SVG');
  const hasAlpha = anyTransparent(raster);
  const fitted = await fitWithinLimits({
    raster,
    hasAlpha,
    preferred: { type: 'image/png', quality: 100, lossless: true },
    maxBytes: limits.maxBytes,
    accepts: limits.accepts,
    deadline,
  });
  const resized = fitted.width !== info.width || fitted.height !== info.height;
  return reencodedResult(fitted, info, ['rasterized'], resized, [...warnings, ...images.warnings]);
}

/** What can be refused from the route and the size alone, before pdf-lib parses the whole file. */
function assertPdfSize(bytes: Uint8Array, limits: Limits): void {
  if (limits.maxPdfPages === 0) {
    throw new MediaError(
      'E_UNSUPPORTED',
      'This provider takes no PDFs. Read the text with pdfText() and render pages with renderPdfPage() instead (CLI: glimpse text FILE, glimpse process FILE --page N).',
      { mediaType: 'application/pdf' },
    );
  }
  if (bytes.byteLength > limits.maxPdfBytes) {
    throw new MediaError(
      'E_TOO_LARGE',
      `The PDF is ${bytes.byteLength} bytes; the limit is ${limits.maxPdfBytes}. Send fewer pages or a compressed copy.`,
      { bytes: bytes.byteLength, maxPdfBytes: limits.maxPdfBytes },
    );
  }
}

/**
 * PDFs pass through untouched once validated: providers read them natively. One whose cross-reference data
 * is wrong is sent re-saved with a fresh table (`W_REPAIRED`); one a strict reader cannot read is `E_CORRUPT`.
 */
async function checkPdf(bytes: Uint8Array, info: PdfInfo, limits: Limits): Promise<ProcessResult> {
  if (info.encrypted) {
    throw new MediaError(
      'E_PDF_ENCRYPTED',
      'The PDF is encrypted or password-protected, and providers refuse such files. Save an unencrypted copy (print to PDF) and send that.',
    );
  }
  const pages = info.pages ?? 0;
  if (pages < 1) throw new MediaError('E_CORRUPT', 'The PDF has no pages. The file is damaged: re-export it.');
  const damage = checkPdfIntegrity(bytes);
  if (damage)
    throw new MediaError(
      'E_CORRUPT',
      `The PDF file is damaged: ${damage.problem}. Strict readers refuse it; re-export it (print to PDF).`,
      { format: 'PDF' },
    );
  if (pages > limits.maxPdfPages) {
    throw new MediaError(
      'E_TOO_LARGE',
      `The PDF has ${pages} pages; the limit is ${limits.maxPdfPages}. Send a page range instead.`,
      { pages, maxPdfPages: limits.maxPdfPages },
    );
  }
  const read = await verifyPdfIntegrity(bytes);
  if (read?.fatal)
    throw new MediaError(
      'E_CORRUPT',
      `The PDF file is damaged: ${read.problem}. Strict readers refuse it; re-export it (print to PDF).`,
      { format: 'PDF' },
    );
  const data = read?.repaired ?? bytes;
  if (data.byteLength > limits.maxPdfBytes) {
    throw new MediaError(
      'E_TOO_LARGE',
      `The PDF is ${data.byteLength} bytes once its cross-reference table is rebuilt; the limit is ${limits.maxPdfBytes}. Send fewer pages or a compressed copy.`,
      { bytes: data.byteLength, maxPdfBytes: limits.maxPdfBytes },
    );
  }
  return {
    data,
    mediaType: 'application/pdf',
    width: info.width ?? Math.round(info.pageWidth ?? 0),
    height: info.height ?? Math.round(info.pageHeight ?? 0),
    bytes: data.byteLength,
    pages,
    original: original(info),
    resized: false,
    reencoded: read !== undefined,
    steps: [],
    warnings: read
      ? [
          {
            code: 'W_REPAIRED',
            message: `The PDF was re-saved with a new cross-reference table because ${read.problem}.`,
          },
        ]
      : [],
  };
}
