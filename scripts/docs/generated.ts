// Every generated block in docs/ and the source it comes from. `npm run docs` rewrites them;
// test/docs.test.ts fails when a page no longer matches its source. The bench block is the exception:
// it is a measurement, written by `npm run bench -- --docs`, and the test checks only its shape.
import {
  type MediaType,
  MEDIA_ERROR_CODES,
  PRESET_NAMES,
  PRESETS,
  ROUTE_NAMES,
  ROUTES,
  type RouteLimits,
} from '@glimpse/media';
import { DEFAULT_CAPABILITY_RULES, type ModelCapabilities } from '../../packages/agent/src/route/capabilities.js';
import { PROVIDER_NAMES } from '../../packages/agent/src/route/capabilities.js';
import { WIRE_FACTS } from '../../packages/agent/src/route/wire-facts.js';
import { READ_TOOL_DEFINITION } from '../../packages/agent/src/tools/read.js';
import { VIEW_FILE_TOOL_DEFINITION } from '../../packages/agent/src/tools/view-file-arguments.js';
import type { ToolDefinition } from '../../packages/agent/src/types.js';
import { describeCredentials } from '../../packages/agent/src/clients/credentials.js';
import { SDK_PACKAGES } from '../../packages/agent/src/clients/load-sdk.js';
import { MODEL_CLIENT_ERROR_CODES } from '../../packages/agent/src/clients/model-client-error.js';
import { COMMANDS } from '../../packages/agent/src/cli/commands.js';
import { overview } from '../../packages/agent/src/cli/main.js';
import { FILE_ERROR_CODES } from '../../packages/agent/src/fs/file-error.js';
import { SESSION_ERROR_CODES } from '../../packages/agent/src/session/session-error.js';
import { FORMATS, formatOf, listName } from '../../packages/media/src/formats/registry.js';
import type { Format } from '../../packages/media/src/formats/format.js';
import { sizeReport } from '../size-report.js';
import { nodeVersionsLine, testToolsList, testToolsTable } from './setup.js';

export interface GeneratedBlock {
  /** Page, relative to the repository root. */
  page: string;
  name: string;
  generate(): Promise<string>;
  /**
   * `exact`: the page must hold exactly the generated text. `figures`: same text with every number
   * within 3 % (sizes move by bytes with every source change; the block is refreshed with `npm run docs`).
   */
  match: 'exact' | 'figures';
}

const count = (n: number) => n.toLocaleString('en-US');
const code = (text: string) => `\`${text.replaceAll('|', '\\|')}\``;
const table = (header: string[], rows: string[][]) =>
  [
    `| ${header.join(' | ')} |`,
    `|${header.map(() => ' --- ').join('|')}|`,
    ...rows.map((row) => `| ${row.join(' | ')} |`),
  ].join('\n');

function presetsTable(): string {
  const type = (mediaType: MediaType) => formatOf(mediaType).label;
  return table(
    ['preset', 'max edge (px)', 'max bytes', 'takes as-is', 'PDFs'],
    PRESET_NAMES.map((name) => {
      const preset = PRESETS[name];
      const pdfs =
        preset.maxPdfPages === 0
          ? 'none (`E_UNSUPPORTED`)'
          : `≤ ${count(preset.maxPdfBytes)} bytes, ${count(preset.maxPdfPages)} pages`;
      return [
        code(name) + (name === 'portable' ? ' (default)' : ''),
        count(preset.maxEdge),
        count(preset.maxBytes),
        preset.accepts.map(type).join(', '),
        pdfs,
      ];
    }),
  );
}

/** Which presets take a format as it is, in words: every preset, every one but some, a list, or none. */
function takersCell(format: Format): string {
  const takers = format.takenAsIsBy;
  if (takers.length === 0) return 'none';
  if (takers.length === PRESET_NAMES.length) return 'every preset';
  const others = PRESET_NAMES.filter((name) => !takers.includes(name));
  if (others.length < takers.length) return `every preset but ${others.map(code).join(', ')}`;
  return takers.map(code).join(', ');
}

/** One row per format record of the registry; formats whose facts read the same (HEIC, HEIF) share a row. */
function formatsTable(): string {
  const cells = (format: Format) => [
    format.docs.decoder,
    format.docs.licence,
    takersCell(format),
    format.docs.output,
    format.docs.notes ?? '',
  ];
  const rows: { names: string[]; types: string[]; extensions: string[]; facts: string[] }[] = [];
  for (const format of FORMATS) {
    const facts = cells(format);
    const last = rows.at(-1);
    if (last && last.facts.join('|') === facts.join('|')) {
      last.names.push(listName(format));
      last.types.push(format.mediaType);
      last.extensions.push(...format.extensions);
    } else
      rows.push({ names: [listName(format)], types: [format.mediaType], extensions: [...format.extensions], facts });
  }
  return table(
    [
      'format',
      'type',
      'extensions',
      'decoder (WASM unless noted)',
      'licence of what ships',
      'taken as it is by',
      'out',
      'notes',
    ],
    rows.map((row) => [
      row.names.join(', '),
      row.types.map(code).join(', '),
      row.extensions.map((extension) => `.${extension}`).join(' '),
      ...row.facts,
    ]),
  );
}

const errorsTable = (codes: Readonly<Record<string, string>>) =>
  table(
    ['code', 'when'],
    Object.entries(codes).map(([name, when]) => [code(name), when]),
  );

const yesNo = (value: boolean | undefined) => (value === undefined ? '—' : value ? 'yes' : 'no');
const capabilityCells = (c: Partial<ModelCapabilities>) => [
  yesNo(c.imageInput),
  yesNo(c.pdfInput),
  yesNo(c.mediaInToolResults),
  c.preset ?? '—',
];
const CAPABILITY_HEADER = ['images', 'PDFs', 'media inside tool results', 'preset'];

function capabilityRulesTable(): string {
  return table(
    ['#', 'lower-cased model id matches', 'routes', ...CAPABILITY_HEADER],
    DEFAULT_CAPABILITY_RULES.map((rule, i) => [
      String(i + 1),
      code(rule.match.source),
      rule.providers?.join(', ') ?? 'all',
      ...capabilityCells(rule.capabilities),
    ]),
  );
}

function limitsCell(limits: RouteLimits): string {
  const parts = [
    limits.requestBytes === undefined ? [] : [`${limits.requestBytes / 1_000_000} MB per request`],
    limits.imagesPerMessage === undefined ? [] : [`${limits.imagesPerMessage} images per message`],
    limits.documentsPerMessage === undefined ? [] : [`${limits.documentsPerMessage} documents per message`],
    limits.imagesPerRequest === undefined ? [] : [`${limits.imagesPerRequest} images per request`],
    limits.manyImages === undefined
      ? []
      : [`≤ ${limits.manyImages.maxEdge} px once over ${limits.manyImages.above} images`],
  ].flat();
  return parts.length > 0 ? parts.join('; ') : '—';
}

const routesTable = () =>
  table(
    [
      'route',
      'preset',
      'image types',
      'PDFs',
      'media inside tool results',
      'limits',
      'file references',
      'unknown model reads',
    ],
    ROUTE_NAMES.map((name) => {
      const route = ROUTES[name];
      const wire = WIRE_FACTS[name];
      const inside =
        typeof wire.mediaInToolResults === 'boolean'
          ? yesNo(wire.mediaInToolResults)
          : `models matching ${code(wire.mediaInToolResults.source)}`;
      const unknown = wire.unknownModel.imageInput
        ? wire.unknownModel.pdfInput
          ? 'images, PDFs'
          : 'images'
        : 'text only';
      return [
        code(name),
        route.preset,
        route.imageTypes.map((type) => type.replace('image/', '')).join(', '),
        yesNo(route.pdfInput),
        inside,
        limitsCell(route.limits),
        wire.fileReferences.length === 0
          ? 'none'
          : wire.fileReferences.map((kind) => (kind === 'image' ? 'images' : 'PDFs')).join(', '),
        unknown,
      ];
    }),
  );

/** One row per argument of each file tool, from its JSON schema: what the model is told it may pass. */
function toolArgumentsTable(definitions: readonly ToolDefinition[]): string {
  const field = (schema: unknown, key: string): unknown =>
    typeof schema === 'object' && schema !== null ? Reflect.get(schema, key) : undefined;
  const rows = definitions.flatMap(({ name, parameters }) => {
    const properties = field(parameters, 'properties');
    const required = field(parameters, 'required');
    const entries = typeof properties === 'object' && properties !== null ? Object.entries(properties) : [];
    return entries.map(([argument, schema]) => {
      const values = field(schema, 'enum');
      const minimum = field(schema, 'minimum');
      const type = Array.isArray(values)
        ? values.map((value) => code(JSON.stringify(value))).join(', ')
        : String(field(schema, 'type'));
      return [
        code(name),
        code(argument),
        typeof minimum === 'number' ? `${type} ≥ ${minimum}` : type,
        Array.isArray(required) && required.includes(argument) ? 'yes' : 'no',
        String(field(schema, 'description') ?? ''),
      ];
    });
  });
  return table(['tool', 'argument', 'type', 'required', 'what the model is told'], rows);
}

/** Each route's live client: the SDK it loads on first use, and where its credentials come from. */
function clientSdksTable(): string {
  return table(
    ['route', 'SDK (optional peer)', 'credentials'],
    PROVIDER_NAMES.map((provider) => [code(provider), code(SDK_PACKAGES[provider]), describeCredentials(provider)]),
  );
}

async function cliUsage(): Promise<string> {
  const sections = ['```text', '$ glimpse --help', overview(), '```'];
  for (const entry of COMMANDS) {
    const command = await entry.load();
    sections.push(
      '',
      `### \`glimpse ${entry.name}\``,
      '',
      `${entry.summary.charAt(0).toUpperCase() + entry.summary.slice(1)}.`,
      '',
      '```text',
      command.usage,
      '```',
    );
  }
  return sections.join('\n');
}

export const GENERATED_BLOCKS: readonly GeneratedBlock[] = [
  { page: 'docs/formats-and-errors.md', name: 'presets', generate: async () => presetsTable(), match: 'exact' },
  { page: 'docs/formats-and-errors.md', name: 'formats', generate: async () => formatsTable(), match: 'exact' },
  {
    page: 'docs/formats-and-errors.md',
    name: 'media-errors',
    generate: async () => errorsTable(MEDIA_ERROR_CODES),
    match: 'exact',
  },
  {
    page: 'docs/file-tools.md',
    name: 'file-errors',
    generate: async () => errorsTable(FILE_ERROR_CODES),
    match: 'exact',
  },
  {
    page: 'docs/sessions.md',
    name: 'session-errors',
    generate: async () => errorsTable(SESSION_ERROR_CODES),
    match: 'exact',
  },
  {
    page: 'docs/file-tools.md',
    name: 'file-tool-arguments',
    generate: async () => toolArgumentsTable([READ_TOOL_DEFINITION, VIEW_FILE_TOOL_DEFINITION]),
    match: 'exact',
  },
  { page: 'docs/agent-adapters.md', name: 'client-sdks', generate: async () => clientSdksTable(), match: 'exact' },
  {
    page: 'docs/agent-adapters.md',
    name: 'client-errors',
    generate: async () => errorsTable(MODEL_CLIENT_ERROR_CODES),
    match: 'exact',
  },
  { page: 'docs/providers.md', name: 'routes', generate: async () => routesTable(), match: 'exact' },
  { page: 'docs/providers.md', name: 'capability-rules', generate: async () => capabilityRulesTable(), match: 'exact' },
  { page: 'docs/cli.md', name: 'cli-usage', generate: cliUsage, match: 'exact' },
  {
    page: 'docs/runtimes.md',
    name: 'size',
    generate: async () => ['```text', await sizeReport(), '```'].join('\n'),
    match: 'figures',
  },
  { page: 'README.md', name: 'node-versions', generate: async () => nodeVersionsLine(), match: 'exact' },
  { page: 'README.md', name: 'test-tools', generate: async () => testToolsList(), match: 'exact' },
  { page: 'docs/testing.md', name: 'test-tools', generate: async () => testToolsTable(), match: 'exact' },
  { page: 'docs/packages.md', name: 'node-versions', generate: async () => nodeVersionsLine(), match: 'exact' },
];

/** Whether `actual` is `expected` with every number within 3 % (for `figures` blocks). */
export function sameFigures(actual: string, expected: string): boolean {
  const numbers = (text: string) => [...text.matchAll(/\d+(?:\.\d+)?/g)].map((m) => Number(m[0]));
  const shape = (text: string) => text.replace(/\d+(?:\.\d+)?/g, '#').replace(/ +/g, ' ');
  if (shape(actual) !== shape(expected)) return false;
  const a = numbers(actual);
  const e = numbers(expected);
  return a.every((value, i) => Math.abs(value - (e[i] ?? NaN)) <= Math.max(0.03 * Math.abs(e[i] ?? 0), 0.15));
}
