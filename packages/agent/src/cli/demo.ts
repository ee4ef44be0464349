import { existsSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isProviderName, PROVIDER_NAMES, type ProviderName } from '../route/capabilities.js';
import { resolveRoute } from '../route/resolve-route.js';
import { base64Size } from '../compaction/base64-size.js';
import { estimateMessageTokens } from '../compaction/estimate-tokens.js';
import type { ModelClient } from '../loop/model-client.js';
import type { ReplayScript } from '../loop/replay-script.js';
import type { Message, Part, ToolResultMessage } from '../types.js';
import { ReplayModel } from '../loop/replay-model.js';
import { parseReplayScript } from '../loop/replay-script.js';
import { runAgent, type AgentStep } from '../loop/run-agent.js';
import { FileError, isFileError } from '../fs/file-error.js';
import { fileErrorFromOsError } from '../fs/os-error.js';
import { openSessionStore } from '../session/open-session-store.js';
import { parseSessionLocation } from '../session/session-location.js';
import { createFileTools } from '../tools/file-tools.js';
import { formatBytes } from '../tools/format-bytes.js';
import demoScript from '../../demo/script.json';
import { parseArgs, stringFlag } from './args.js';
import { UsageError, type Command } from './command.js';
import { loadOptionalDecoders } from './load-optional-decoders.js';
import './local-disk.js';
import { DEMO_MODELS, ESTIMATE_TARGETS } from './estimate-targets.js';
import { requestJson } from '../providers/request-json.js';
import { formatCount, textTable } from './text-table.js';

const usage = `Usage: glimpse demo [--provider PROVIDER] [--model MODEL] [--live] [--session LOCATION]

Runs the keyless replay agent: it calls view_file on the bundled samples (a screenshot, a phone photo
with EXIF rotation, a PDF and an SVG) in one turn, each file goes through the media pipeline for the
provider's limits, and every message is appended to a JSONL session log. Prints, per file, what the
model receives (type, pixels, bytes) and what that result costs in tokens on each provider.
With --live, a real model on the provider's API decides what to open; its answer streams to stderr.

Options:
  --provider PROVIDER  the route the requests are serialized for (default anthropic):
                       ${PROVIDER_NAMES.join(', ')}
  --model MODEL        the model id (default: ${DEMO_MODELS.anthropic} on anthropic, each route its own)
  --live               call the real API; the key comes from the environment (ANTHROPIC_API_KEY,
                       OPENAI_API_KEY, GEMINI_API_KEY or GOOGLE_API_KEY, AWS credentials and
                       AWS_REGION, nothing for Ollama at OLLAMA_HOST); a missing one is named
  --session LOCATION   the session to write, resumed when it exists: a JSONL file path,
                       pglite:DIR#ID or postgres://USER:PASS@HOST:PORT/DB#ID
                       (default: a new glimpse-demo-*.jsonl in the temp directory)
  -h, --help           show this help

Inspect the session afterwards with: glimpse session LOCATION`;

/** The checkout's root: the nearest directory above this module (or the working directory) with samples/. */
function findSamplesRoot(): string | undefined {
  for (const start of [dirname(fileURLToPath(import.meta.url)), process.cwd()]) {
    for (let dir = start; ; dir = dirname(dir)) {
      if (existsSync(join(dir, 'samples'))) return dir;
      if (dirname(dir) === dir) break;
    }
  }
  return undefined;
}

function describePart(part: Part): string[] {
  switch (part.type) {
    case 'text': {
      const line = part.text.split('\n')[0]!;
      return ['text', '', `${formatCount(part.text.length)} chars`, line.length > 72 ? `${line.slice(0, 71)}…` : line];
    }
    case 'image':
      return [
        part.mediaType,
        part.width !== undefined ? `${part.width}×${part.height}` : '?',
        formatBytes(base64Size(part.data)),
        '',
      ];
    case 'document':
      return [
        part.mediaType,
        part.pages !== undefined ? `${part.pages} page${part.pages === 1 ? '' : 's'}` : '',
        formatBytes(base64Size(part.data)),
        part.filename ?? '',
      ];
    default: {
      const exhaustive: never = part;
      return exhaustive;
    }
  }
}

/** One file's table: what the model receives, then its token cost per provider. */
function resultTable(path: string, result: ToolResultMessage): string {
  const received = textTable(
    [
      ['part', 'type', 'size', 'bytes', 'note'],
      ...result.parts.map((part, i) => [String(i + 1), ...describePart(part)]),
    ],
    '  ',
  );
  const estimates = textTable(
    [
      ['provider / model', 'tokens'],
      ...ESTIMATE_TARGETS.map((target) => [target.label, formatCount(estimateMessageTokens(result, target.options))]),
    ],
    '  ',
  );
  return [
    `${path}${result.isError ? '  (error result)' : ''}`,
    '  what the model receives',
    received,
    '  token estimate of this result',
    estimates,
  ].join('\n');
}

function defaultSessionPath(): string {
  return join(tmpdir(), `glimpse-demo-${new Date().toISOString().replace(/[:.]/g, '-')}.jsonl`);
}

export interface DemoInput {
  provider: ProviderName;
  /** Where the session goes: a JSONL path, \`pglite:DIR#ID\` or \`postgres://…#ID\` (parseSessionLocation). */
  sessionPath: string;
  script: ReplayScript;
  /** The directory the script's paths are relative to; default: the checkout holding samples/. */
  root?: string;
  /** The model id; default: the route's demo model. */
  modelId?: string;
  /** A real model instead of the script's replay: it gets the script's prompt and the samples' paths. */
  live?: ModelClient;
}

/** The live model's prompt: the script's, plus where the samples are (the replay script knows them already). */
function livePrompt(script: ReplayScript): string {
  const paths = script.turns.flatMap((turn) =>
    turn.toolCalls.flatMap((call) => (typeof call.arguments.path === 'string' ? [call.arguments.path] : [])),
  );
  return `${script.prompt ?? 'Please look at the sample files.'} They are ${paths.join(', ')}; open them with view_file.`;
}

/**
 * A FileError about the default session log, in the OS temp folder (unwritable, read-only, missing), with the way
 * around it: the user did not choose that path, so the message says where it came from and how to choose another.
 */
function withSessionHint(thrown: unknown, sessionPath: string): unknown {
  // The session store throws Node's own error (EACCES, EROFS) for the log it cannot open.
  const osPath = typeof thrown === 'object' && thrown !== null && 'path' in thrown ? thrown.path : undefined;
  const error = isFileError(thrown)
    ? thrown
    : osPath === sessionPath
      ? fileErrorFromOsError(thrown, sessionPath)
      : undefined;
  if (error === undefined || error.details['path'] !== sessionPath) return thrown;
  return new FileError(
    error.code,
    `${error.message.replace(/\.$/, '')}. The demo writes its session log to the OS temp folder (${dirname(sessionPath)}, from TMPDIR) unless told otherwise: give --session PATH to write it elsewhere (glimpse demo --session ./demo.jsonl).`,
    error.details,
    { cause: error.cause ?? error },
  );
}

/** The log is created in an existing folder only: a typo in --session must not become a tree of new folders. */
function requireSessionFolder(sessionPath: string): void {
  const folder = dirname(sessionPath);
  if (existsSync(folder) && statSync(folder).isDirectory()) return;
  throw new FileError(
    'E_FILE_NOT_FOUND',
    `Cannot write the session log ${sessionPath}: its folder ${folder} does not exist (or is not a folder). Create it first (mkdir -p "${folder}") or give --session a path in an existing folder.`,
    { path: sessionPath },
  );
}

/** Runs the replay agent (or the live model) and returns the report the command prints. */
export async function runDemo({
  provider,
  sessionPath,
  script,
  root = findSamplesRoot() ?? process.cwd(),
  modelId = DEMO_MODELS[provider],
  live,
}: DemoInput): Promise<string> {
  const model = live ?? new ReplayModel(script);
  const { capabilities } = resolveRoute({
    provider,
    model: modelId,
    overrides: { imageInput: model.inputModalities.includes('image'), pdfInput: model.inputModalities.includes('pdf') },
  });
  const tools = createFileTools({ root, capabilities }).offered();
  const location = parseSessionLocation(sessionPath);
  if (location.kind === 'jsonl') requireSessionFolder(sessionPath);
  const { store, id } = await openSessionStore(location);
  // A server's password stays out of the report.
  const shown = location.kind === 'jsonl' ? sessionPath : `${location.location}#${encodeURIComponent(id)}`;
  const steps: AgentStep[] = [];
  let run: Awaited<ReturnType<typeof runAgent>>;
  try {
    const session = await store.openSession(id, { app: { name: 'glimpse demo', provider, model: modelId } });
    run = await runAgent({
      model,
      provider,
      modelId,
      tools,
      history: session.resumed?.messages ?? [],
      prompt: live === undefined ? (script.prompt ?? 'Please look at the sample files.') : livePrompt(script),
      session,
      onStep: (step) => steps.push(step),
    }).finally(() => session.close());
  } finally {
    await store.close();
  }

  const who = live === undefined ? `replay agent as ${modelId}` : `live model ${modelId}`;
  const out: string[] = [
    `glimpse demo: ${who} on ${provider}; the files are fitted to the ${capabilities.preset} preset`,
    '',
  ];
  for (const step of steps) {
    for (const result of step.results) {
      const call = step.assistant.toolCalls.find((candidate) => candidate.id === result.toolCallId);
      out.push(resultTable(String(call?.arguments.path ?? result.toolName), result), '');
    }
  }
  const last = steps.at(-1)?.request;
  if (last) {
    const warnings = last.serialized.warnings.map((warning) => `  warning: ${warning.message}`);
    out.push(
      `last ${provider} request: ${last.messages.length} messages, ${formatBytes(requestJson(last.serialized.body).length)} of JSON${warnings.length ? '' : ', no warnings'}`,
      ...warnings,
    );
  }
  const final = run.messages.at(-1);
  if (final?.role === 'assistant' && final.text) out.push(`assistant: ${final.text}`);
  const total = (messages: Message[]) =>
    messages.reduce((sum, message) => sum + estimateMessageTokens(message, { provider, model: modelId }), 0);
  out.push(
    `session: ${shown} (${run.messages.length} messages, ~${formatCount(total(run.messages))} tokens on ${provider}); inspect it with: glimpse session ${shown}`,
  );
  return out.join('\n');
}

export const demoCommand: Command = {
  usage,
  async run(args) {
    await loadOptionalDecoders();
    const { positionals, flags } = parseArgs(args, {
      values: ['--provider', '--model', '--session'],
      booleans: ['--live'],
    });
    if (positionals.length > 0) throw new UsageError(`unexpected argument ${JSON.stringify(positionals[0])}`);
    const provider = stringFlag(flags, '--provider') ?? 'anthropic';
    if (!isProviderName(provider))
      throw new UsageError(`--provider must be one of ${PROVIDER_NAMES.join(', ')}, got ${JSON.stringify(provider)}`);
    const named = stringFlag(flags, '--session');
    const sessionPath =
      named === undefined
        ? defaultSessionPath()
        : parseSessionLocation(named).kind === 'jsonl'
          ? resolve(named)
          : named;
    const modelId = stringFlag(flags, '--model') ?? DEMO_MODELS[provider];
    // The live clients (and the provider SDKs behind them) load only for --live.
    const live = flags.has('--live')
      ? await (await import('./demo-live.js')).liveDemoModel({
          provider,
          model: modelId,
          env: process.env,
          onText: (delta) => process.stderr.write(delta),
        })
      : undefined;
    const report = await runDemo({
      provider,
      sessionPath,
      script: parseReplayScript(demoScript),
      modelId,
      ...(live !== undefined && { live }),
    }).catch((error: unknown) => {
      throw named === undefined ? withSessionHint(error, sessionPath) : error;
    });
    if (live !== undefined) process.stderr.write('\n'); // ends the streamed answer
    process.stdout.write(`${report}\n`);
    return 0;
  },
};
