// A PDF page drawn by PDFium into an RGBA raster, upright and on white, its longer side at maxEdge, with
// whether it is mostly a photo or scan (which decides JPEG over PNG for it).
import { MediaError } from '../../errors.js';
import { MAX_SIDE } from '../../presets/limits.js';
import { fitWorkingSize, type WorkingSize } from '../../presets/working-size.js';
import type { Deadline } from '../../runtime/deadline.js';
import type { Size } from '../../raster/contract.js';
import type { Raster, Region } from '../../types.js';
import { corrupt, type PdfDocument } from './document.js';
import { PDFIUM_YES_SLOT } from './pdfium.js';

// fpdfview.h / fpdf_progressive.h / fpdf_edit.h constants.
const FPDF_ANNOT = 0x01;
const FPDF_REVERSE_BYTE_ORDER = 0x10;
const FPDF_RENDER_TOBECONTINUED = 1;
const FPDF_RENDER_DONE = 2;
const FPDF_PAGEOBJ_IMAGE = 3;
/** A page whose images cover at least this share of it is photo-like (a scan, a photo with a caption): JPEG, not PNG. */
const PHOTO_SHARE = 0.25;

export interface DrawnPage {
  raster: Raster;
  /** Images cover at least PHOTO_SHARE of the page: a scan, a photo with a caption. */
  photo: boolean;
  /** The page's size in points, /Rotate applied. */
  points: { width: number; height: number };
  pageCount: number;
}

/** Draws page `index` (from 0) so its longer side is `maxEdge`; a bitmap past maxInputPixels is E_TOO_MANY_PIXELS. */
export function drawPage(
  { pdfium, handle, pageCount }: PdfDocument,
  index: number,
  limits: WorkingSize & { maxInputPixels: number },
  deadline: Deadline,
  region?: Region,
): DrawnPage {
  const page = pdfium.FPDF_LoadPage(handle, index);
  if (page === 0) throw corrupt(`page ${index + 1} cannot be loaded`);
  let bitmap = 0;
  let pause = 0;
  try {
    // Sizes in points with /Rotate applied, so the bitmap is upright.
    const points = { width: pdfium.FPDF_GetPageWidthF(page), height: pdfium.FPDF_GetPageHeightF(page) };
    if (!(points.width > 0 && points.height > 0)) throw corrupt(`page ${index + 1} has no size`);
    const { width, height, place } =
      region === undefined ? wholePage(points, limits) : regionOfPage(points, region, limits);
    bitmap = pdfium.FPDFBitmap_Create(width, height, 0);
    if (bitmap === 0)
      throw new MediaError(
        'E_TOO_LARGE',
        `A ${width}×${height} bitmap for page ${index + 1} does not fit in memory. Lower maxEdge.`,
        { width, height },
      );
    pdfium.FPDFBitmap_FillRect(bitmap, 0, 0, width, height, 0xffffffff);
    pause = pausePointer(pdfium);
    // Progressive rendering hands control back every few objects, so the deadline can stop a slow page.
    // The page is laid out at place.width × place.height with its corner at (place.x, place.y) of the bitmap:
    // a region is the page drawn larger, shifted so the region lands on the bitmap, which clips the rest.
    let status = pdfium.FPDF_RenderPageBitmap_Start(
      bitmap,
      page,
      place.x,
      place.y,
      place.width,
      place.height,
      0,
      FPDF_ANNOT | FPDF_REVERSE_BYTE_ORDER,
      pause,
    );
    while (status === FPDF_RENDER_TOBECONTINUED) {
      deadline.check(`Rendering page ${index + 1}`);
      status = pdfium.FPDF_RenderPage_Continue(page, pause);
    }
    pdfium.FPDF_RenderPage_Close(page);
    if (status !== FPDF_RENDER_DONE) throw corrupt(`PDFium could not draw page ${index + 1}`);
    return {
      raster: copyPixels(pdfium, bitmap, width, height),
      photo: imageShare(pdfium, page, points) >= PHOTO_SHARE,
      points,
      pageCount,
    };
  } finally {
    if (pause !== 0) pdfium.free(pause);
    if (bitmap !== 0) pdfium.FPDFBitmap_Destroy(bitmap);
    pdfium.FPDF_ClosePage(page);
  }
}

interface PagePixels {
  width: number;
  height: number;
  /** Where the whole page lies on the bitmap, in bitmap pixels. */
  place: Region;
}

/** The longer side at maxEdge (less where the working size says so), the shape kept. */
function wholePage(points: Size, limits: WorkingSize & { maxInputPixels: number }): PagePixels {
  const scale = limits.maxEdge / Math.max(points.width, points.height);
  // At maxEdge, then within the rest of the working size (a patch budget, a short side).
  const size = fitWorkingSize(
    { width: Math.max(1, Math.round(points.width * scale)), height: Math.max(1, Math.round(points.height * scale)) },
    limits,
  );
  return { ...checkedBitmap(size, limits), place: { x: 0, y: 0, ...size } };
}

/** Points per inch times this is the most a region is magnified: 50 × 72 = 3,600 dpi. */
const MAX_REGION_ZOOM = 50;

/**
 * A region of the page (in points, upright) drawn at the resolution that fills the working size: its long
 * side at maxEdge, then within the patch budget, magnified at most MAX_REGION_ZOOM times.
 */
function regionOfPage(points: Size, region: Region, limits: WorkingSize & { maxInputPixels: number }): PagePixels {
  if (region.x + region.width > Math.ceil(points.width) || region.y + region.height > Math.ceil(points.height))
    throw new MediaError(
      'E_INVALID_OPTIONS',
      `The region x ${region.x}, y ${region.y}, ${region.width}×${region.height} reaches past the page, which is ${Math.round(points.width)}×${Math.round(points.height)} points upright: keep it inside.`,
      { option: 'region', region, width: Math.round(points.width), height: Math.round(points.height) },
    );
  const zoom = Math.min(MAX_REGION_ZOOM, limits.maxEdge / Math.max(region.width, region.height));
  const size = fitWorkingSize(
    { width: Math.max(1, Math.round(region.width * zoom)), height: Math.max(1, Math.round(region.height * zoom)) },
    limits,
  );
  const scale = size.width / region.width;
  return {
    ...checkedBitmap(size, limits),
    place: {
      x: -Math.round(region.x * scale),
      y: -Math.round(region.y * scale),
      width: Math.max(1, Math.round(points.width * scale)),
      height: Math.max(1, Math.round(points.height * scale)),
    },
  };
}

/** Refused past the pixel budget (only a huge maxEdge gets there). */
function checkedBitmap(size: Size, { maxEdge, maxInputPixels }: { maxEdge: number; maxInputPixels: number }): Size {
  const { width, height } = size;
  if (width > MAX_SIDE || height > MAX_SIDE || width * height > maxInputPixels) {
    throw new MediaError(
      'E_TOO_MANY_PIXELS',
      `Rendering this page at maxEdge ${maxEdge} makes ${width}×${height} pixels, over the limit of ${maxInputPixels} pixels and ${MAX_SIDE} per side. Lower maxEdge.`,
      { width, height, maxInputPixels },
    );
  }
  return { width, height };
}

/** An IFSDK_PAUSE whose NeedToPauseNow always answers yes, so PDFium returns after each batch of objects. */
function pausePointer(pdfium: PdfDocument['pdfium']): number {
  const pause = pdfium.malloc(12);
  if (pause === 0) throw corrupt('no memory is left to start rendering');
  new Int32Array(pdfium.memory.buffer, pause, 3).set([1, PDFIUM_YES_SLOT, 0]); // version, NeedToPauseNow, user
  return pause;
}

/** The bitmap's rows as an RGBA raster that owns its buffer (FPDF_REVERSE_BYTE_ORDER made them RGBx, x = 255). */
function copyPixels(pdfium: PdfDocument['pdfium'], bitmap: number, width: number, height: number): Raster {
  const stride = pdfium.FPDFBitmap_GetStride(bitmap);
  const source = new Uint8Array(pdfium.memory.buffer, pdfium.FPDFBitmap_GetBuffer(bitmap), stride * height);
  const data = new Uint8Array(width * height * 4);
  if (stride === width * 4) data.set(source);
  else for (let y = 0; y < height; y++) data.set(source.subarray(y * stride, y * stride + width * 4), y * width * 4);
  return { data, width, height };
}

/** Share of the page's area under image objects (clamped to 1); overlaps count twice, which is fine for a hint. */
function imageShare(pdfium: PdfDocument['pdfium'], page: number, points: { width: number; height: number }): number {
  const box = pdfium.malloc(16);
  if (box === 0) return 0;
  try {
    let area = 0;
    const count = Math.min(pdfium.FPDFPage_CountObjects(page), 10_000);
    for (let i = 0; i < count; i++) {
      const object = pdfium.FPDFPage_GetObject(page, i);
      if (object === 0 || pdfium.FPDFPageObj_GetType(object) !== FPDF_PAGEOBJ_IMAGE) continue;
      if (!pdfium.FPDFPageObj_GetBounds(object, box, box + 4, box + 8, box + 12)) continue;
      const [left = 0, bottom = 0, right = 0, top = 0] = new Float32Array(pdfium.memory.buffer, box, 4);
      area += Math.abs(right - left) * Math.abs(top - bottom);
    }
    return Math.min(1, area / (points.width * points.height));
  } finally {
    pdfium.free(box);
  }
}
