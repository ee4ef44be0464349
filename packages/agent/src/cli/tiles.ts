import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import {
  isPresetName,
  MediaError,
  planTiles,
  PRESET_NAMES,
  probe,
  ROUTES,
  tiles,
  type PresetName,
} from '@glimpse/media';
import { estimateImageTokens } from '../compaction/estimate-tokens.js';
import { isProviderName, PROVIDER_NAMES, type ProviderName } from '../route/capabilities.js';
import { fitOptions, type FitOptions } from '../route/fit-options.js';
import { resolveRoute, type ModelRoute } from '../route/resolve-route.js';
import { parseArgs, positiveInteger, stringFlag } from './args.js';
import { UsageError, type Command } from './command.js';
import { loadOptionalDecoders } from './load-optional-decoders.js';
import { FILE_USAGE, MAX_FILE_BYTES_USAGE, readInputFile } from './read-input.js';
import { writeOutput } from './write-output.js';

const usage = `Usage: glimpse tiles FILE -o DIR [--preset NAME] [--model M] [--provider NAME] [--max-tiles N]
                     [--max-tokens N] [--overlap N] [--overview] [--max-input-pixels N] [--max-file-bytes N]

Cuts a raster image (a tall page capture, a 5K screen) into tiles a model reads at full resolution: each
tile at most the size the model works at (its working size: Claude's 1,568 patches of 28 px, OpenAI's
768 px short side, …), overlapping its neighbours a little, as few as that allows, in reading order.
${FILE_USAGE}

Options:
  -o, --output DIR   write the tiles into DIR (made if missing): tile-001.png, tile-002.png, … (the
                     extension follows the tiles' format: tile-001.jpg from a JPEG, HEIC or AVIF)
  --preset NAME      limits preset: ${PRESET_NAMES.join(', ')} (default: the model's, else portable)
  --model M          the model the tiles are for: its working size (claude-sonnet-5-5: 2576 px and 4,784
                     patches) and its token cost; its route comes from --provider, else the preset's,
                     else the model's name
  --provider NAME    the route, to price and size for: ${PROVIDER_NAMES.join(', ')}
  --max-tiles N      make at most N tiles, in reading order; the rest are listed in omitted
  --max-tokens N     make only the tiles whose estimated tokens fit in N (with --model or a route), in
                     reading order; when not even the first fits, none: exit 1 with E_TOO_LARGE
  --overlap N        pixels each tile shares with its neighbours (default 64)
  --overview         also write overview.png (overview.jpg as the tiles), the whole image at 512 px
  --max-input-pixels N  refuse an image whose header declares more pixels (default 100000000)
${MAX_FILE_BYTES_USAGE}
  -h, --help         show this help

Prints one JSON object: tiles [{output, width, height, region {x, y, width, height}, tokens}], columns,
rows, omitted [regions left out], overview {output, width, height} (with --overview), original {mediaType,
width, height}, tokens (the sum, when a route is known), preset, model.
Exit codes: 0 ok; 1 the file cannot be tiled (one JSON line on stderr); 2 usage.`;

const EXTENSIONS = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/webp': 'webp',
  'image/gif': 'gif',
  'image/heic': 'heic',
  'image/heif': 'heif',
  'application/pdf': 'pdf', // never a tile; the type allows it
} as const;

/** The route --model is priced and sized on: --provider, else the preset's own route, else one its name names. */
function routeFor(provider: string | undefined, preset: PresetName | undefined, model: string | undefined) {
  if (provider !== undefined && !isProviderName(provider))
    throw new UsageError(`--provider must be one of ${PROVIDER_NAMES.join(', ')}, got ${JSON.stringify(provider)}`);
  const named: ProviderName | undefined =
    provider ??
    (preset === undefined ? undefined : PROVIDER_NAMES.find((name) => ROUTES[name].preset === preset)) ??
    (model === undefined ? undefined : guessProvider(model));
  if (named === undefined) {
    if (model !== undefined)
      throw new UsageError(`--model ${model}: say which route it is on with --provider (${PROVIDER_NAMES.join(', ')})`);
    return undefined;
  }
  return resolveRoute({ provider: named, ...(model !== undefined && { model }) });
}

function guessProvider(model: string): ProviderName | undefined {
  const id = model.toLowerCase();
  if (id.includes('claude')) return 'anthropic';
  if (/gpt|(^|[/.])o\d/.test(id)) return 'openai-responses';
  if (id.includes('gemini')) return 'gemini';
  return undefined;
}

/**
 * How many tiles, in reading order, have estimated tokens adding up to at most `budget`. When not even the first
 * fits, nothing is made: a tile over the budget the user set is refused (E_TOO_LARGE, exit 1), with the smallest
 * tile's cost, since writing it anyway would spend more than was allowed.
 */
function tilesWithin(budget: number, sizes: readonly { width: number; height: number }[], route: ModelRoute): number {
  const costs = sizes.map((size) => estimateImageTokens(size, { provider: route.provider, route }));
  let spent = 0;
  let count = 0;
  for (const cost of costs) {
    spent += cost;
    if (spent > budget) break;
    count++;
  }
  if (count === 0) {
    const first = costs[0] ?? 0;
    const smallest = Math.min(...costs);
    throw new MediaError(
      'E_TOO_LARGE',
      `No tile fits --max-tokens ${budget}: the first tile is about ${first} tokens${smallest < first ? ` and the smallest ${smallest}` : ''} on ${route.model ?? route.provider}. Raise --max-tokens to at least ${first}, or cut out the part you need first (glimpse process FILE --region X,Y,W,H -o part.png) and tile or send that.`,
      { maxTokens: budget, tokens: first, smallestTokens: smallest },
    );
  }
  return count;
}

export const tilesCommand: Command = {
  usage,
  async run(args) {
    await loadOptionalDecoders();
    const { positionals, flags } = parseArgs(args, {
      values: [
        '--output',
        '--preset',
        '--model',
        '--provider',
        '--max-tiles',
        '--max-tokens',
        '--overlap',
        '--max-input-pixels',
        '--max-file-bytes',
      ],
      booleans: ['--overview'],
      aliases: { '-o': '--output' },
    });
    if (positionals.length !== 1) throw new UsageError('expected exactly one FILE');
    const output = stringFlag(flags, '--output');
    if (output === undefined || output === '-') throw new UsageError('-o DIR is needed: the folder the tiles go to');
    const presetFlag = stringFlag(flags, '--preset');
    if (presetFlag !== undefined && !isPresetName(presetFlag))
      throw new UsageError(`--preset must be one of ${PRESET_NAMES.join(', ')}, got ${JSON.stringify(presetFlag)}`);
    const model = stringFlag(flags, '--model');
    const route = routeFor(stringFlag(flags, '--provider'), presetFlag, model);
    const overlapFlag = flags.get('--overlap');
    const overlap = overlapFlag === '0' ? 0 : positiveInteger(flags, '--overlap');
    const maxTokens = positiveInteger(flags, '--max-tokens');
    if (maxTokens !== undefined && route === undefined)
      throw new UsageError('--max-tokens needs a route to price tiles: give --model, --provider or a provider preset');
    // The model's working size refines its route's preset; a preset named alone is taken as it is.
    const fit: FitOptions =
      route !== undefined && (presetFlag === undefined || presetFlag === route.preset)
        ? fitOptions(route.capabilities)
        : { preset: presetFlag ?? 'portable' };
    const input = await readInputFile(positionals[0]!, flags);
    const maxInputPixels = positiveInteger(flags, '--max-input-pixels');
    const options = {
      ...fit,
      ...(overlap !== undefined && { overlap }),
      ...(maxInputPixels !== undefined && { maxInputPixels }),
    };
    let maxTiles = positiveInteger(flags, '--max-tiles');
    if (maxTokens !== undefined && route !== undefined) {
      const info = await probe(input);
      const upright =
        info.orientation >= 5
          ? { width: info.height ?? 0, height: info.width ?? 0 }
          : { width: info.width ?? 0, height: info.height ?? 0 };
      const byTokens = tilesWithin(maxTokens, planTiles(upright, options).regions, route);
      maxTiles = Math.min(maxTiles ?? byTokens, byTokens);
    }
    const result = await tiles(input, {
      ...options,
      ...(maxTiles !== undefined && { maxTiles }),
      ...(flags.has('--overview') && { overview: true }),
    });
    await mkdir(output, { recursive: true });
    const cost = (size: { width: number; height: number }) =>
      route === undefined ? null : estimateImageTokens(size, { provider: route.provider, route });
    const listed = [];
    for (const [index, tile] of result.tiles.entries()) {
      const file = join(output, `tile-${String(index + 1).padStart(3, '0')}.${EXTENSIONS[tile.mediaType]}`);
      await writeOutput(file, tile.data);
      listed.push({ output: file, width: tile.width, height: tile.height, region: tile.region, tokens: cost(tile) });
    }
    let overview: { output: string; width: number; height: number } | undefined;
    if (result.overview !== undefined) {
      const file = join(output, `overview.${EXTENSIONS[result.overview.mediaType]}`);
      await writeOutput(file, result.overview.data);
      overview = { output: file, width: result.overview.width, height: result.overview.height };
    }
    const tokens = route === undefined ? null : listed.reduce((sum, tile) => sum + (tile.tokens ?? 0), 0);
    process.stdout.write(
      `${JSON.stringify({
        tiles: listed,
        columns: result.columns,
        rows: result.rows,
        omitted: result.omitted,
        ...(overview !== undefined && { overview }),
        original: result.original,
        tokens,
        preset: fit.preset,
        model: route?.model ?? null,
      })}\n`,
    );
    return 0;
  },
};
