// What libheif (the reader behind heif-convert, and the likeliest behind a provider's HEIC support) refuses
// in a file whose boxes and item graph read: rules of libheif 1.15's file-type check, its image list and its
// grid decoding (heif.cc heif_check_filetype, heif_context.cc interpret_heif_file and
// decode_full_grid_image), which glimpse's own decoder does not need. Found by the fuzzer: files that
// @glimpse/heif decodes but heif-convert refuses.
import type { HeifImageItem } from './image-items.js';

/** Major brands heif-convert takes as a still HEIF image; others are "not HEIF" or "unsupported". */
const STILL_IMAGE_BRANDS = new Set(['heic', 'heix', 'mif1']);

/** Item types libheif makes images of. */
const IMAGE_TYPES = new Set(['hvc1', 'grid', 'iden', 'iovl', 'av01', 'vvc1']);

/** Derived images: their bit depth is their first input's. Chains are short; the cap bounds a hostile loop. */
const DERIVED_TYPES = new Set(['grid', 'iden', 'iovl']);
const MAX_DERIVATION_DEPTH = 8;

/** The first rule of libheif's that the file breaks, or undefined: a phrase for "re-encoded because …". */
export function libheifRefusal(
  bytes: Uint8Array,
  { primaryId, items, ambiguities }: { primaryId: number; items: HeifImageItem[]; ambiguities: string[] },
): string | undefined {
  const brand = String.fromCharCode(...bytes.subarray(8, 12));
  if (!STILL_IMAGE_BRANDS.has(brand))
    return `its ftyp box's major brand ${JSON.stringify(brand)} is not one HEIF readers take as a still image (heic, heix, mif1)`;
  if (ambiguities.length > 0) return `${ambiguities[0]}, so HEIF readers may not see the same images`;
  const byId = new Map(items.map((item) => [item.id, item]));
  const primary = byId.get(primaryId);
  if (!primary || !IMAGE_TYPES.has(primary.type) || primary.hidden)
    return `libheif refuses it: its primary item ${primaryId} is not a visible image`;
  for (const item of items) {
    if (item.type === 'hvc1' && item.codedBits === undefined)
      return `libheif refuses it: image item ${item.id} has no hvcC property (its HEVC decoder configuration)`;
    const auxiliaryOf = item.references.get('auxl');
    if (IMAGE_TYPES.has(item.type) && auxiliaryOf && !(auxiliaryOf.length === 1 && item.propertyTypes.includes('auxC')))
      return `libheif refuses it: auxiliary image ${item.id} lacks an auxC property or names ${auxiliaryOf.length} main images`;
  }
  const topLevel = topLevelImages(items);
  // heif-convert decodes every top-level image; glimpse's check decodes the primary only.
  if (topLevel.length > 1)
    return `it holds ${topLevel.length} top-level images, and only the primary one is checked before sending`;
  for (const image of topLevel) {
    const bits = lumaBits(image, byId, 0);
    if (bits === undefined)
      return `libheif refuses it: image ${image.id} has no defined bit depth (it is not made from an HEVC or AV1 image)`;
    // libheif 1.15 mirrors 8-bit pixels only; a grid's pixels have its pixi depth.
    const depth = image.type === 'grid' ? (image.pixiBits?.[0] ?? bits) : bits;
    if (image.propertyTypes.includes('imir') && depth > 8)
      return `libheif refuses it: image ${image.id} is mirrored (imir) and ${depth}-bit, and libheif mirrors 8-bit images only`;
    if (image.type === 'grid') {
      const problem = gridRefusal(image, byId);
      if (problem) return `libheif refuses it: grid image ${image.id} ${problem}`;
    }
  }
  return undefined;
}

/**
 * The images a reader lists and decodes (heif-convert converts each): image items not hidden, other than
 * thumbnails and auxiliary images (alpha, depth) of another image.
 */
function topLevelImages(items: HeifImageItem[]): HeifImageItem[] {
  return items.filter(
    (item) =>
      IMAGE_TYPES.has(item.type) && !item.hidden && !item.references.has('thmb') && !item.references.has('auxl'),
  );
}

/** The luma bit depth libheif reports: from the hvcC/av1C of the image, or of a derived image's first input. */
function lumaBits(item: HeifImageItem, byId: Map<number, HeifImageItem>, depth: number): number | undefined {
  if (DERIVED_TYPES.has(item.type)) {
    const first = item.references.get('dimg')?.[0];
    const input = first === undefined || first === item.id ? undefined : byId.get(first);
    return input && depth < MAX_DERIVATION_DEPTH ? lumaBits(input, byId, depth + 1) : undefined;
  }
  if (item.type === 'hvc1' || (item.type === 'av01' && item.propertyTypes.includes('av1C'))) return item.codedBits ?? 8;
  return undefined;
}

/** What libheif's grid decoding refuses: the descriptor, the tile count, pixi, and tiles past the output. */
function gridRefusal(grid: HeifImageItem, byId: Map<number, HeifImageItem>): string | undefined {
  if (!grid.grid || 'unreadable' in grid.grid) return 'has a grid descriptor that does not read';
  const { rows, columns, outputWidth, outputHeight } = grid.grid;
  const tiles = (grid.references.get('dimg') ?? []).map((id) => byId.get(id));
  if (tiles.length !== rows * columns) return `is a ${columns}×${rows} grid of ${tiles.length} tiles`;
  if (tiles.some((tile) => tile === undefined || !IMAGE_TYPES.has(tile.type))) return 'has a tile that is not an image';
  const pixi = grid.pixiBits;
  if (pixi) {
    if (pixi.length < 1) return 'has a pixi property with no channels';
    if (pixi.length === 3 && (pixi[1] !== pixi[0] || pixi[2] !== pixi[0]))
      return `has a pixi property with different depths per channel (${pixi.join(', ')})`;
    if (pixi[0]! < 8 || pixi[0]! > 16) return `has a pixi property of ${pixi[0]} bits`;
    const other = tiles.find((tile) => tile!.codedBits !== undefined && tile!.codedBits !== pixi[0]);
    if (other) return `declares ${pixi[0]}-bit pixels (pixi), but tile ${other.id} is coded with ${other.codedBits}`;
  }
  // Tiles are placed one after another at their own sizes; one that starts outside the output is an error.
  for (let row = 0, y = 0; row < rows; row++) {
    let x = 0;
    for (let column = 0; column < columns; column++) {
      const size = tiles[row * columns + column]!.size ?? { width: 0, height: 0 };
      if (x >= outputWidth || y >= outputHeight)
        return `places tile ${row * columns + column + 1} at (${x}, ${y}), outside its ${outputWidth}×${outputHeight} output`;
      x += size.width;
      if (column === columns - 1) y += size.height;
    }
  }
  return undefined;
}
