// HEIF item properties (ipco, associated to items in order by ipma): an image's size, bit depth, the
// transformations that show it (irot, imir as an EXIF orientation; clap), its colour (an ICC profile, nclx
// code points) and what an auxiliary image is for.
import type { Orientation } from '../../types.js';
import { type ByteReader, corrupt } from '../byte-reader.js';
import { type Box, find } from './boxes.js';

export function imageExtent(reader: ByteReader, properties: Box[]): { width: number; height: number } | undefined {
  const ispe = find(properties, 'ispe');
  if (!ispe) return undefined;
  return { width: reader.u32be(ispe.body + 4, 'ispe box'), height: reader.u32be(ispe.body + 8, 'ispe box') };
}

export function bitDepth(reader: ByteReader, properties: Box[]): number | undefined {
  const pixi = find(properties, 'pixi');
  if (pixi && reader.u8(pixi.body + 4, 'pixi box') > 0) return reader.u8(pixi.body + 5, 'pixi box');
  const hvcC = find(properties, 'hvcC');
  if (hvcC) return (reader.u8(hvcC.body + 17, 'hvcC box') & 7) + 8;
  const av1C = find(properties, 'av1C');
  if (av1C) {
    const flags = reader.u8(av1C.body + 2, 'av1C box');
    const high = (flags & 0x40) !== 0;
    const twelve = (flags & 0x20) !== 0;
    return high ? (twelve ? 12 : 10) : 8;
  }
  return undefined;
}

/** Transformations as 2×2 matrices on (x right, y down): [a, b, c, d] maps (x, y) to (ax + by, cx + dy). */
type Matrix = readonly [number, number, number, number];

const multiply = (p: Matrix, q: Matrix): Matrix => [
  p[0] * q[0] + p[1] * q[2],
  p[0] * q[1] + p[1] * q[3],
  p[2] * q[0] + p[3] * q[2],
  p[2] * q[1] + p[3] * q[3],
];
/** What each EXIF orientation does to the stored image to show it. */

const EXIF_MATRICES: Readonly<Record<Orientation, Matrix>> = {
  1: [1, 0, 0, 1],
  2: [-1, 0, 0, 1],
  3: [-1, 0, 0, -1],
  4: [1, 0, 0, -1],
  5: [0, 1, 1, 0],
  6: [0, -1, 1, 0],
  7: [0, -1, -1, 0],
  8: [0, 1, -1, 0],
};

const QUARTER_TURN_ANTICLOCKWISE: Matrix = [0, 1, -1, 0];

/**
 * irot (anticlockwise quarter turns) and imir, in property order, as one EXIF value. imir axis 0 swaps
 * top and bottom, 1 left and right: HEIF's 2nd edition wording, and what libheif (and so Debian's
 * heif-convert, the tests' oracle) does.
 */
export function orientationOf(reader: ByteReader, properties: Box[]): Orientation {
  let transform: Matrix = EXIF_MATRICES[1];
  for (const property of properties) {
    if (property.type === 'irot') {
      const turns = reader.u8(property.body, 'irot box') & 3;
      for (let turn = 0; turn < turns; turn++) transform = multiply(QUARTER_TURN_ANTICLOCKWISE, transform);
    } else if (property.type === 'imir') {
      const axis = reader.u8(property.body, 'imir box') & 1;
      transform = multiply(axis === 0 ? EXIF_MATRICES[4] : EXIF_MATRICES[2], transform);
    }
  }
  for (const [value, matrix] of Object.entries(EXIF_MATRICES)) {
    if (matrix.every((entry, index) => entry === transform[index])) return Number(value) as Orientation;
  }
  return 1;
}

/** Clean aperture: the crop of the stored image that is meant to be shown. */
export interface HeifCrop {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** clap: a centred crop given as fractions; ISO BMFF rounds its edges like this (as libheif does). */
export function cropOf(reader: ByteReader, properties: Box[], width: number, height: number): HeifCrop | undefined {
  const clap = find(properties, 'clap');
  if (!clap) return undefined;
  const fraction = (index: number) => {
    const numerator = reader.u32be(clap.body + index * 8, 'clap box') | 0; // signed
    const denominator = reader.u32be(clap.body + index * 8 + 4, 'clap box');
    if (denominator === 0) throw corrupt(reader.format, 'its clean aperture divides by zero');
    return numerator / denominator;
  };
  const [cropWidth, cropHeight, horizontalOffset, verticalOffset] = [
    fraction(0),
    fraction(1),
    fraction(2),
    fraction(3),
  ];
  const left = Math.max(0, Math.round(horizontalOffset + (width - 1) / 2 - (cropWidth - 1) / 2));
  const top = Math.max(0, Math.round(verticalOffset + (height - 1) / 2 - (cropHeight - 1) / 2));
  const right = Math.min(width - 1, left + Math.round(cropWidth) - 1);
  const bottom = Math.min(height - 1, top + Math.round(cropHeight) - 1);
  if (right < left || bottom < top) throw corrupt(reader.format, 'its clean aperture is empty');
  if (left === 0 && top === 0 && right === width - 1 && bottom === height - 1) return undefined;
  return { x: left, y: top, width: right - left + 1, height: bottom - top + 1 };
}

export function iccProfileOf(reader: ByteReader, properties: Box[]): Uint8Array | undefined {
  for (const colr of properties.filter((box) => box.type === 'colr')) {
    const kind = reader.ascii(colr.body, 4, 'colr box');
    if (kind === 'prof' || kind === 'rICC') return reader.bytes.subarray(colr.body + 4, colr.end);
  }
  return undefined;
}

export const ALPHA_TYPES = new Set(['urn:mpeg:hevc:2015:auxid:1', 'urn:mpeg:mpegB:cicp:systems:auxiliary:alpha']);

export function auxiliaryType(reader: ByteReader, properties: Box[]): string | undefined {
  const auxC = find(properties, 'auxC');
  if (!auxC) return undefined;
  let end = auxC.body + 4;
  while (end < auxC.end && reader.bytes[end] !== 0) end++;
  return reader.ascii(auxC.body + 4, end - auxC.body - 4, 'auxC box');
}

/** Colour description code points (ITU-T H.273) and whether samples use the full range. */
export interface HeifNclx {
  primaries: number;
  transfer: number;
  matrix: number;
  fullRange: boolean;
}

export function nclxOf(reader: ByteReader, properties: Box[]): HeifNclx | undefined {
  for (const colr of properties.filter((box) => box.type === 'colr')) {
    if (reader.ascii(colr.body, 4, 'colr box') !== 'nclx') continue;
    return {
      primaries: reader.u16be(colr.body + 4, 'colr box'),
      transfer: reader.u16be(colr.body + 6, 'colr box'),
      matrix: reader.u16be(colr.body + 8, 'colr box'),
      fullRange: (reader.u8(colr.body + 10, 'colr box') & 0x80) !== 0,
    };
  }
  return undefined;
}
