// What a 600×400 region of a 24 MP JPEG costs to decode, before (every row down to the region's last decoded
// across the image's whole width, then cut) and after (decode_window: jpeg_crop_scanline and
// jpeg_skip_scanlines reconstruct only the region's iMCU columns and its rows): CPU per job and peak RSS, each
// mode in a fresh process, the modes alternating. Run by hand: `node scripts/run-ts.mjs scripts/measure-jpeg-region.ts`.
import { execFileSync } from 'node:child_process';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import '@glimpse/media'; // the Node runtime entry: registers the WASM loader
import { jpegDecoder } from '../packages/media/src/formats/jpeg/codec.js';
import { decodeToFit } from '../packages/media/src/pipeline/decode-to-fit.js';
import { releaseRasterBuffer } from '../packages/media/src/raster/raster-buffers.js';
import { DEFAULT_MAX_INPUT_PIXELS } from '../packages/media/src/presets/limits.js';
import type { JpegInfo, Region } from '../packages/media/src/types.js';
import { naturalPixels } from '../test/fixtures/pixels.js';

const STORED = { width: 6000, height: 4000 };
const REGIONS: Record<string, Region> = {
  centre: { x: 2700, y: 1800, width: 600, height: 400 },
  'bottom right': { x: 5400, y: 3600, width: 600, height: 400 },
};
const JOBS = 8;
const file = fileURLToPath(new URL('../node_modules/.cache/glimpse/photo-6000x4000.jpg', import.meta.url));
const [role, mode, regionName] = process.argv.slice(2);

async function job(jpeg: Uint8Array, region: Region, window: boolean): Promise<void> {
  const facts = {
    mediaType: 'image/jpeg',
    bytes: jpeg.length,
    ...STORED,
    orientation: 1,
    frames: 1,
    hasAlpha: false,
    bitDepth: 8,
    components: 3,
    progressive: false,
    complete: true,
  } as JpegInfo;
  const decoded = await decodeToFit({
    // Before: the decoder is not told the crop, so it delivers every row to the region's bottom, whole width.
    decode: ({ crop, ...rest }) =>
      jpegDecoder({ ...rest, ...(window && crop && { crop }), facts, maxInputPixels: DEFAULT_MAX_INPUT_PIXELS }),
    bytes: jpeg,
    stored: STORED,
    fitted: { width: region.width, height: region.height },
    crop: region,
    orientation: 1,
  });
  releaseRasterBuffer(decoded.raster.data);
}

if (role === 'child') {
  const jpeg = new Uint8Array(await readFile(file));
  const region = REGIONS[regionName!]!;
  await job(jpeg, region, mode === 'after'); // compiles the module, warms the pool
  const start = process.cpuUsage();
  for (let i = 0; i < JOBS; i++) await job(jpeg, region, mode === 'after');
  const cpu = process.cpuUsage(start);
  const ms = (cpu.user + cpu.system) / 1000 / JOBS;
  console.log(JSON.stringify({ ms, maxRssMB: process.resourceUsage().maxRSS / 1024 }));
} else {
  await mkdir(fileURLToPath(new URL('.', `file://${file}`)), { recursive: true });
  const pixels = naturalPixels(STORED.width, STORED.height, { seed: 3 });
  const raw = { raw: { width: pixels.width, height: pixels.height, channels: pixels.channels } };
  await writeFile(file, await sharp(pixels.data, raw).jpeg({ quality: 90, chromaSubsampling: '4:2:0' }).toBuffer());
  const script = fileURLToPath(import.meta.url);
  for (const name of Object.keys(REGIONS)) {
    const runs: Record<string, { ms: number; maxRssMB: number }[]> = { before: [], after: [] };
    for (let round = 0; round < 3; round++)
      for (const which of ['before', 'after']) {
        const out = execFileSync(process.execPath, ['scripts/run-ts.mjs', script, 'child', which, name], {
          encoding: 'utf8',
        });
        runs[which]!.push(JSON.parse(out.trim().split('\n').at(-1)!));
      }
    for (const which of ['before', 'after']) {
      const ms = runs[which]!.map((r) => r.ms).sort((a, b) => a - b);
      const rss = Math.max(...runs[which]!.map((r) => r.maxRssMB));
      console.log(
        `${name} ${JSON.stringify(REGIONS[name])}, ${which}: CPU ${ms.map((m) => m.toFixed(1)).join(' / ')} ms a job (median ${ms[1]!.toFixed(1)}), peak RSS ${rss.toFixed(0)} MB`,
      );
    }
  }
}
