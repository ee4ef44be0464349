// AVIF's compact form (AVIF 1.2; HEIF 3rd edition amendment 2, the "low-overhead image file format"): a file
// branded `mif3` whose `mini` box (MinimizedImageBox) stands for the `meta` box, a few bit fields followed by
// the coded data. The specification defines the items and properties those fields mean; this file writes
// them out as the regular AVIF they stand for (ftyp, meta with pitm/iinf/iloc/iref/iprp, mdat with the same
// coded bytes), which the HEIF reader and the AV1 decoder then take like any other AVIF. Metadata (Exif,
// XMP) and an HDR gain map are skipped: the SDR image is what is decoded.
import { MediaError } from '../../errors.js';
import { ByteReader, corrupt } from '../byte-reader.js';
import { concatBytes } from '../bytes.js';
import { find, walkBoxes } from '../heif/boxes.js';

const FORMAT = 'AVIF';

/** The regular files rebuilt, per input: probe and decode read the same file. */
const rebuilt = new WeakMap<Uint8Array, Uint8Array>();

/** The regular AVIF a `mini` file stands for; any other file as it is. */
export function regularAvif(bytes: Uint8Array): Uint8Array {
  const known = rebuilt.get(bytes);
  if (known) return known;
  const reader = new ByteReader(bytes, FORMAT);
  const boxes = walkBoxes(reader, 0, bytes.length, true).boxes;
  const mini = find(boxes, 'mini');
  if (!mini || find(boxes, 'meta')) return bytes;
  const regular = writeRegular(readMini(bytes.subarray(mini.body, mini.end)));
  rebuilt.set(bytes, regular);
  return regular;
}

/** Bits read most significant first; past the end is truncation. */
class BitReader {
  private bit = 0;
  constructor(private readonly bytes: Uint8Array) {}

  read(count: number): number {
    let value = 0;
    for (let i = 0; i < count; i++, this.bit++) {
      const byte = this.bytes[this.bit >> 3];
      if (byte === undefined) throw corrupt(FORMAT, 'its mini box ends inside its header fields');
      value = value * 2 + ((byte >> (7 - (this.bit & 7))) & 1);
    }
    return value;
  }

  flag(): boolean {
    return this.read(1) === 1;
  }

  /** The byte after the header fields (they end padded to a byte). */
  byteEnd(): number {
    return Math.ceil(this.bit / 8);
  }
}

/** What the mini box says about the image, with its coded bytes. */
interface MiniImage {
  width: number;
  height: number;
  bitDepth: number;
  /** 0 4:0:0, 1 4:2:0, 2 4:2:2, 3 4:4:4. */
  chroma: number;
  orientation: number;
  nclx: { primaries: number; transfer: number; matrix: number; fullRange: boolean };
  icc?: Uint8Array;
  mainConfig: Uint8Array;
  main: Uint8Array;
  alpha?: { config: Uint8Array; data: Uint8Array; premultiplied: boolean };
}

const unsupported = (what: string) =>
  new MediaError(
    'E_UNSUPPORTED',
    `This AVIF is in the compact form (a mif3 \`mini\` box) ${what}, which glimpse does not decode. Convert it to a regular AVIF, PNG or JPEG (for example \`avifenc\` without \`--mini\`, or any image editor) and send that.`,
    { format: FORMAT },
  );

/** The fields of a MinimizedImageBox (version 0), in the order the specification gives them. */
function readMini(box: Uint8Array): MiniImage {
  const bits = new BitReader(box);
  const version = bits.read(2);
  if (version !== 0) throw unsupported(`of version ${version}`);
  const explicitCodecTypes = bits.flag();
  const float = bits.flag();
  const fullRange = bits.flag();
  const hasAlpha = bits.flag();
  const explicitCicp = bits.flag();
  const hdr = bits.flag();
  const hasIcc = bits.flag();
  const hasExif = bits.flag();
  const hasXmp = bits.flag();
  const chroma = bits.read(2);
  const orientation = bits.read(3) + 1;
  const large = bits.flag();
  const width = bits.read(large ? 15 : 7) + 1;
  const height = bits.read(large ? 15 : 7) + 1;
  if (chroma === 1 || chroma === 2) bits.read(1); // chroma_is_horizontally_centered
  if (chroma === 1) bits.read(1); // chroma_is_vertically_centered
  if (float) throw unsupported('with floating-point samples');
  const bitDepth = bits.flag() ? bits.read(3) + 9 : 8;
  const premultiplied = hasAlpha && bits.flag();
  const nclx = explicitCicp
    ? { primaries: bits.read(8), transfer: bits.read(8), matrix: chroma !== 0 ? bits.read(8) : 2, fullRange }
    : { primaries: hasIcc ? 2 : 1, transfer: hasIcc ? 2 : 13, matrix: chroma === 0 ? 2 : 6, fullRange };
  if (explicitCodecTypes) {
    const text = (value: number) =>
      String.fromCharCode(value >>> 24, (value >> 16) & 255, (value >> 8) & 255, value & 255);
    const itemType = text(bits.read(32));
    const configType = text(bits.read(32));
    if (itemType !== 'av01' || configType !== 'av1C')
      throw unsupported(`coded as '${itemType}' (not AV1), so it is not an AVIF image glimpse reads`);
  }
  const gainMap = hdr ? readHdrFields(bits, large) : undefined;
  const largeMetadata = hasIcc || hasExif || hasXmp || gainMap !== undefined ? bits.flag() : false;
  const largeConfig = bits.flag();
  const largeData = bits.flag();
  const metadataBits = largeMetadata ? 20 : 10;
  const configBits = largeConfig ? 12 : 3;
  const dataBits = largeData ? 28 : 15;
  const iccSize = hasIcc ? bits.read(metadataBits) + 1 : 0;
  const toneMapIccSize = gainMap?.toneMapIcc ? bits.read(metadataBits) + 1 : 0;
  const gainMapMetadataSize = gainMap ? bits.read(metadataBits) : 0;
  const gainMapDataSize = gainMap ? bits.read(dataBits) : 0;
  const gainMapConfigSize = gainMap && gainMapDataSize > 0 ? bits.read(configBits) : 0;
  const mainConfigSize = bits.read(configBits);
  const mainSize = bits.read(dataBits) + 1;
  const alphaSize = hasAlpha ? bits.read(dataBits) : 0;
  const alphaConfigSize = alphaSize > 0 ? bits.read(configBits) : 0;
  if (hasExif || hasXmp) bits.read(1); // exif_xmp_compressed_flag: the metadata is skipped either way
  const exifSize = hasExif ? bits.read(metadataBits) + 1 : 0;
  const xmpSize = hasXmp ? bits.read(metadataBits) + 1 : 0;

  // The chunks follow the fields, each exactly once: no byte missing, none left over.
  let at = bits.byteEnd();
  const take = (length: number) => box.subarray(at, (at += length));
  const sizes = [mainConfigSize, alphaConfigSize, gainMapConfigSize, iccSize, toneMapIccSize, gainMapMetadataSize];
  const total = [...sizes, alphaSize, gainMapDataSize, mainSize, exifSize, xmpSize].reduce((sum, n) => sum + n, 0);
  if (at + total !== box.length) {
    throw corrupt(
      FORMAT,
      `its mini box holds ${box.length - at} bytes after its header where its fields declare ${total}${at + total > box.length ? ' (it is cut short)' : ''}`,
    );
  }
  const mainConfig = take(mainConfigSize);
  const alphaConfig = take(alphaConfigSize);
  take(gainMapConfigSize);
  const icc = take(iccSize);
  take(toneMapIccSize + gainMapMetadataSize);
  const alpha = take(alphaSize);
  take(gainMapDataSize);
  const main = take(mainSize);
  return {
    width,
    height,
    bitDepth,
    chroma,
    orientation,
    nclx,
    ...(hasIcc && { icc }),
    mainConfig,
    main,
    // An alpha item with no data of its own has none to decode (the colour is then opaque as far as glimpse reads).
    ...(alphaSize > 0 && {
      alpha: { config: alphaConfigSize > 0 ? alphaConfig : mainConfig, data: alpha, premultiplied },
    }),
  };
}

/** Reads past the HDR fields (the gain map's description and the light-level properties); whether a gain map follows. */
function readHdrFields(bits: BitReader, large: boolean): { toneMapIcc: boolean } | undefined {
  const gainMap = bits.flag();
  let toneMapIcc = false;
  if (gainMap) {
    bits.read(2 * (large ? 15 : 7) + 8 + 1); // size, matrix coefficients, full range
    const chroma = bits.read(2);
    if (chroma === 1 || chroma === 2) bits.read(1);
    if (chroma === 1) bits.read(1);
    if (bits.flag()) throw unsupported('with a floating-point gain map');
    if (bits.flag()) bits.read(3);
    toneMapIcc = bits.flag();
    if (bits.flag()) bits.read(8 * 3 + 1); // the tone-mapped image's explicit code points and range
  }
  skipHdrProperties(bits);
  if (gainMap) skipHdrProperties(bits);
  return gainMap ? { toneMapIcc } : undefined;
}

/** clli, mdcv, cclv, amve, reve, ndwt, each present by its flag. */
function skipHdrProperties(bits: BitReader): void {
  const [clli, mdcv, cclv, amve, reve, ndwt] = [1, 2, 3, 4, 5, 6].map(() => bits.flag());
  if (clli) bits.read(32);
  if (mdcv) bits.read(16 * 8 + 64);
  if (cclv) {
    bits.read(2);
    const [primaries, min, max, average] = [1, 2, 3, 4].map(() => bits.flag());
    bits.read(2);
    if (primaries) bits.read(6 * 32);
    for (const present of [min, max, average]) if (present) bits.read(32);
  }
  if (amve) bits.read(64);
  if (reve) bits.read(128);
  if (ndwt) bits.read(32);
}

const ascii = (text: string) => Uint8Array.from(text, (c) => c.charCodeAt(0));

function u16(value: number): number[] {
  return [(value >> 8) & 255, value & 255];
}

function u32(value: number): number[] {
  return [(value >>> 24) & 255, (value >> 16) & 255, (value >> 8) & 255, value & 255];
}

function box(type: string, ...parts: (Uint8Array | number[])[]): Uint8Array {
  const body = concatBytes(parts.map((part) => (part instanceof Uint8Array ? part : Uint8Array.from(part))));
  return concatBytes([Uint8Array.from(u32(body.length + 8)), ascii(type), body]);
}

/** A full box: version and flags first. */
function fullBox(type: string, version: number, ...parts: (Uint8Array | number[])[]): Uint8Array {
  return box(type, [version, 0, 0, 0], ...parts);
}

/** The EXIF orientation as irot (anticlockwise quarter turns) then imir (axis), the specification's mapping. */
const TRANSFORMS: Record<number, { turns?: number; axis?: number }> = {
  2: { axis: 1 },
  3: { turns: 2 },
  4: { axis: 0 },
  5: { turns: 1, axis: 0 },
  6: { turns: 3 },
  7: { turns: 1, axis: 1 },
  8: { turns: 1 },
};

const COLOUR_ID = 1;
const ALPHA_ID = 2;

/** The regular AVIF: items 1 (colour) and 2 (alpha) as the mini box defines them, their data in one mdat. */
function writeRegular(image: MiniImage): Uint8Array {
  const planes = image.chroma === 0 ? 1 : 3;
  const properties: Uint8Array[] = [];
  const add = (property: Uint8Array) => properties.push(property) as number; // its 1-based index
  const ispe = add(fullBox('ispe', 0, u32(image.width), u32(image.height)));
  const colour: [number, boolean][] = [];
  if (image.mainConfig.length > 0) colour.push([add(box('av1C', image.mainConfig)), true]);
  colour.push([ispe, false]);
  colour.push([add(fullBox('pixi', 0, [planes, ...Array<number>(planes).fill(image.bitDepth)])), false]);
  const { primaries, transfer, matrix, fullRange } = image.nclx;
  colour.push([
    add(box('colr', ascii('nclx'), u16(primaries), u16(transfer), u16(matrix), [fullRange ? 0x80 : 0])),
    true,
  ]);
  if (image.icc) colour.push([add(box('colr', ascii('prof'), image.icc)), true]);
  const transform = TRANSFORMS[image.orientation] ?? {};
  const transforms: [number, boolean][] = [];
  if (transform.turns !== undefined) transforms.push([add(box('irot', [transform.turns])), true]);
  if (transform.axis !== undefined) transforms.push([add(box('imir', [transform.axis])), true]);
  colour.push(...transforms);

  const associations: [number, [number, boolean][]][] = [[COLOUR_ID, colour]];
  const items: { id: number; data: Uint8Array }[] = [{ id: COLOUR_ID, data: image.main }];
  const references: Uint8Array[] = [];
  if (image.alpha) {
    const alpha: [number, boolean][] = [
      [add(box('av1C', image.alpha.config)), true],
      [ispe, false],
    ];
    alpha.push([add(fullBox('auxC', 0, ascii('urn:mpeg:mpegB:cicp:systems:auxiliary:alpha\0'))), true]);
    alpha.push([add(fullBox('pixi', 0, [1, image.bitDepth])), false], ...transforms);
    associations.push([ALPHA_ID, alpha]);
    items.push({ id: ALPHA_ID, data: image.alpha.data });
    references.push(box('auxl', u16(ALPHA_ID), u16(1), u16(COLOUR_ID)));
    if (image.alpha.premultiplied) references.push(box('prem', u16(COLOUR_ID), u16(1), u16(ALPHA_ID)));
  }

  const ftyp = box('ftyp', ascii('avif'), u32(0), ascii('avifmif1miaf'));
  const meta = (dataStart: number) => {
    let offset = dataStart;
    const locations = items.flatMap(({ id, data }) => {
      const entry = [...u16(id), ...u16(0), ...u16(1), ...u32(offset), ...u32(data.length)];
      offset += data.length;
      return entry;
    });
    return fullBox(
      'meta',
      0,
      fullBox('hdlr', 0, u32(0), ascii('pict'), Array<number>(13).fill(0)),
      fullBox('pitm', 0, u16(COLOUR_ID)),
      fullBox('iloc', 0, [0x44, 0x00], u16(items.length), locations),
      fullBox(
        'iinf',
        0,
        u16(items.length),
        ...items.map(({ id }) => fullBox('infe', 2, u16(id), u16(0), ascii('av01'), [0])),
      ),
      ...(references.length > 0 ? [fullBox('iref', 0, ...references)] : []),
      box(
        'iprp',
        box('ipco', ...properties),
        fullBox(
          'ipma',
          0,
          u32(associations.length),
          ...associations.map(([id, list]) => [
            ...u16(id),
            list.length,
            ...list.map(([index, essential]) => (essential ? 0x80 : 0) | index),
          ]),
        ),
      ),
    );
  };
  // The meta box's size does not depend on the offsets in it: measured once, then written with them.
  const dataStart = ftyp.length + meta(0).length + 8;
  return concatBytes([ftyp, meta(dataStart), box('mdat', ...items.map(({ data }) => data))]);
}
