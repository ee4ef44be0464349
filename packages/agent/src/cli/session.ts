import { stat } from 'node:fs/promises';
import { probe } from '@glimpse/media';
import { FileError } from '../fs/file-error.js';
import { base64ToBytes } from '../base64.js';
import { isProviderName, PROVIDER_NAMES } from '../route/capabilities.js';
import { base64Size } from '../compaction/base64-size.js';
import { estimateMessageTokens } from '../compaction/estimate-tokens.js';
import type { Message, Part } from '../types.js';
import { openSessionStore } from '../session/open-session-store.js';
import { parseSessionLocation, parseStoreLocation } from '../session/session-location.js';
import type { SessionStore, StoredSession } from '../session/session-store.js';
import { sha256OfBase64 } from '../session/content-address.js';
import { copySession } from '../session/copy-session.js';
import { createMemoryMediaReferences } from '../references/media-references.js';
import { latestMediaFacts } from '../session/media-facts.js';
import { formatBytes } from '../tools/format-bytes.js';
import { parseArgs, stringFlag } from './args.js';
import { deleteUploads } from './delete-uploads.js';
import { UsageError, type Command } from './command.js';
import { loadOptionalDecoders } from './load-optional-decoders.js';
import { estimateTargets } from './estimate-targets.js';
import { requestMeter } from './request-meter.js';
import { resolveInputPath } from './read-input.js';
import { formatCount, textTable } from './text-table.js';

const usage = `Usage: glimpse session LOCATION [--provider PROVIDER]
       glimpse session LOCATION --delete-uploads
       glimpse session list STORE
       glimpse session import FILE --to LOCATION

Validates a glimpse session and summarises it: entries by role, error results, images and documents
(how many and their bytes in all, and the distinct ones by content hash: "(N unique)", "… unique"), and the
token estimate of the whole log per provider, from each image's pixel size (images logged without a size
are probed), beside the bytes of the whole log sent as one request on that route against its cap
(anthropic 32 MB, gemini 20 MB, openai 50 MB): a session dies of either. A medium the log's media lines
say is uploaded to that route's provider counts at its file reference's size ("N by reference"). LOCATION is a JSONL file path,
pglite:DIR#ID or postgres://USER:PASS@HOST:PORT/DB#ID (docs/sessions.md: which store for which deployment).
A FILE name typed with plain spaces also finds a log whose name has Unicode spaces.

  list STORE         the sessions a store holds (id, created, entries): a directory of JSONL logs,
                     pglite:DIR or postgres://USER:PASS@HOST:PORT/DB
  import FILE --to LOCATION
                     copies a JSONL log into a store as session ID (its times and header kept); refuses
                     an ID the store already holds, but finishes an import of the same log killed mid-way;
                     a torn last line is left out, and said so on stderr (exit 0)

Options:
  --provider PROVIDER  estimate for this route only: ${PROVIDER_NAMES.join(', ')}
                       (default: one representative model per rule family, plus the fixed 4,800 chars)
  --delete-uploads     delete every upload the log's media lines name from its provider's file store
                       (Anthropic, OpenAI, Gemini) through their SDKs, with the environment's keys
                       ANTHROPIC_API_KEY, OPENAI_API_KEY, GEMINI_API_KEY (or GOOGLE_API_KEY) and base URLs
                       ANTHROPIC_BASE_URL, OPENAI_BASE_URL, GOOGLE_GEMINI_BASE_URL; print one JSON line
                       {"deleted","gone","skipped","failed"} (each [{provider,id}]; gone: the store no
                       longer had it), and append to the log a media line per deleted or gone reference
                       saying it expired, so a resumed run uploads afresh with no refused request; a
                       failed delete writes nothing. Exit 0: none failed; 1: a delete failed (run it
                       again) or the log is bad; 2: usage
  -h, --help           show this help

A torn last line (a writer killed mid-append) is reported and dropped; exit 0.
Any other bad line: exit 1 with one JSON line on stderr naming it:
  {"error":{"code":"E_SESSION_CORRUPT","message":"line 7: …"}}`;

/** Images logged without a pixel size get it from their header, so estimates see pixels, not a guess. */
async function withPixelSizes(messages: readonly Message[]): Promise<Message[]> {
  const sized = async (part: Part): Promise<Part> => {
    if (part.type !== 'image' || (part.width !== undefined && part.height !== undefined)) return part;
    const bytes = base64ToBytes(part.data);
    const facts = bytes ? await probe(bytes).catch(() => undefined) : undefined;
    return facts?.width !== undefined && facts.height !== undefined
      ? { ...part, width: facts.width, height: facts.height }
      : part;
  };
  return Promise.all(
    messages.map(async (message) =>
      message.role === 'assistant' ? message : { ...message, parts: await Promise.all(message.parts.map(sized)) },
    ),
  );
}

export async function summariseSession(
  path: string,
  session: StoredSession,
  provider: string | undefined,
): Promise<string> {
  const { header, messages } = session;
  const roles = { user: 0, assistant: 0, toolResult: 0 };
  let errors = 0;
  let toolCalls = 0;
  // unique: bytes of each distinct medium by its content hash (a screenshot sent again is stored once in a
  // content-addressed log, but each copy is sent again in every request).
  const media = {
    image: { count: 0, bytes: 0, unique: new Map<string, number>() },
    document: { count: 0, bytes: 0, unique: new Map<string, number>() },
  };
  for (const message of messages) {
    roles[message.role]++;
    if (message.role === 'assistant') {
      toolCalls += message.toolCalls.length;
      continue;
    }
    if (message.role === 'toolResult' && message.isError) errors++;
    for (const part of message.parts) {
      if (part.type === 'text') continue;
      const tally = media[part.type];
      tally.count++;
      const size = base64Size(part.data);
      tally.bytes += size;
      tally.unique.set(sha256OfBase64(part.data), size);
    }
  }
  const sized = await withPixelSizes(messages);
  // The log's uploads, newest per medium and provider: the meter counts those media at their reference's size.
  const references = createMemoryMediaReferences(
    (session.media ?? []).flatMap(({ sha256, reference }) => (reference ? [{ sha256, reference }] : [])),
  );
  const targets = estimateTargets(provider !== undefined && isProviderName(provider) ? provider : undefined);
  const estimates = targets.map((target) => [
    target.label,
    formatCount(sized.reduce((sum, message) => sum + estimateMessageTokens(message, target.options), 0)),
    requestMeter(messages, target.options, references),
  ]);
  const tallied = (tally: { count: number; bytes: number; unique: Map<string, number> }, noun: string) => {
    const kinds = tally.unique.size < tally.count ? ` (${tally.unique.size} unique)` : '';
    const uniqueBytes = [...tally.unique.values()].reduce((sum, bytes) => sum + bytes, 0);
    return `${tally.count} ${noun}${kinds}, ${formatBytes(tally.bytes)} in all, ${formatBytes(uniqueBytes)} unique`;
  };
  return [
    `${path}: glimpse-session v${header.version}, created ${header.created}, app ${JSON.stringify(header.app)}`,
    `entries: ${messages.length} (user ${roles.user}, assistant ${roles.assistant} with ${toolCalls} tool calls, tool results ${roles.toolResult} of which ${errors} errors)`,
    `media: ${tallied(media.image, 'images')}; ${tallied(media.document, 'documents')}${session.storedBytes === undefined ? '' : `; log file ${formatBytes(session.storedBytes)}`}`,
    mediaLinesSummary(session),
    session.tornTail
      ? `torn tail: line ${session.tornTail.line}, ${formatCount(session.tornTail.bytes)} bytes never committed (a writer stopped mid-append); dropped, and cut by the next writer that opens the log`
      : 'torn tail: none',
    'token estimate and request bytes of the whole log:',
    textTable([['provider / model', 'tokens', 'bytes per request'], ...estimates], '  '),
  ].join('\n');
}

/** What the log's media lines say: how many media a provider refused (and what was done), how many have a file reference. */
function mediaLinesSummary(session: StoredSession): string {
  const lines = session.media ?? [];
  if (lines.length === 0) return 'media lines: none';
  const facts = [...latestMediaFacts(lines).values()];
  const refused = facts.filter((fact) => fact.refused);
  const placeholders = refused.filter((fact) => fact.refused?.action === 'placeholder').length;
  const references = facts.filter((fact) => fact.reference).length;
  return `media lines: ${lines.length} about ${facts.length} media: ${refused.length} refused (${placeholders} sent as placeholders, ${refused.length - placeholders} refitted), ${references} with a provider file reference`;
}

export const sessionCommand: Command = {
  usage,
  async run(args) {
    await loadOptionalDecoders();
    if (args[0] === 'import') return importSession(args.slice(1));
    if (args[0] === 'list') return listSessions(args.slice(1));
    const { positionals, flags } = parseArgs(args, { values: ['--provider'], booleans: ['--delete-uploads'] });
    if (positionals.length !== 1) throw new UsageError('expected exactly one LOCATION');
    const provider = stringFlag(flags, '--provider');
    if (provider !== undefined && !isProviderName(provider))
      throw new UsageError(`--provider must be one of ${PROVIDER_NAMES.join(', ')}, got ${JSON.stringify(provider)}`);
    const location = parseSessionLocation(positionals[0]!);
    const path =
      location.kind === 'jsonl' ? await resolveInputPath(location.path) : `${location.location}#${location.id}`;
    if (location.kind === 'jsonl') await refuseDirectory(path);
    const session = await withStore(location.kind === 'jsonl' ? { kind: 'jsonl', path } : location, (store, id) =>
      store.readSession(id),
    );
    if (session.tornTail)
      process.stderr.write(
        `glimpse session: warning: torn last line ${session.tornTail.line} dropped (${session.tornTail.bytes} bytes)\n`,
      );
    if (flags.has('--delete-uploads'))
      // Opened for appending after the read: the deletes are written to the log (the read said it is sound).
      return withStore(location.kind === 'jsonl' ? { kind: 'jsonl', path } : location, async (store, id) => {
        const open = await store.openSession(id);
        try {
          return await deleteUploads(open);
        } finally {
          await open.close();
        }
      });
    process.stdout.write(`${await summariseSession(path, session, provider)}\n`);
    return 0;
  },
};

/**
 * A directory given as LOCATION is most likely a store of JSONL logs: said with its path and the command that
 * lists it (the store alone would only say "a directory, not a file", without the path).
 */
async function refuseDirectory(path: string): Promise<void> {
  const info = await stat(path).catch(() => undefined);
  if (!info?.isDirectory()) return;
  const shell = /^[\w@%+=:,./-]+$/.test(path) ? path : `'${path.replaceAll("'", "'\\''")}'`;
  throw new FileError(
    'E_NOT_A_FILE',
    `${path} is a directory, not a session log. To see the sessions it holds (one JSONL log per session): glimpse session list ${shell}`,
    { path },
  );
}

/** Runs `work` on the store a location names, closing the store however it ends. */
async function withStore<T>(
  location: ReturnType<typeof parseSessionLocation>,
  work: (store: SessionStore, id: string) => Promise<T>,
): Promise<T> {
  const { store, id } = await openSessionStore(location);
  try {
    return await work(store, id);
  } finally {
    await store.close();
  }
}

async function importSession(args: string[]): Promise<number> {
  const { positionals, flags } = parseArgs(args, { values: ['--to'] });
  if (positionals.length !== 1) throw new UsageError('import: expected exactly one FILE');
  const to = stringFlag(flags, '--to');
  if (to === undefined) throw new UsageError('import: --to LOCATION is required');
  const path = await resolveInputPath(positionals[0]!);
  const source = await withStore({ kind: 'jsonl', path }, (store, id) => store.readSession(id));
  const target = parseSessionLocation(to);
  const copied = await withStore(target, (store, id) => {
    // Said once the target is open, before copying: a killed writer's last line is not part of the log, so the
    // import leaves it out (a target that cannot be opened fails first, and then nothing "is imported").
    if (source.tornTail)
      process.stderr.write(
        `glimpse session import: warning: ${path} ends in a torn line ${source.tornTail.line} (${formatCount(source.tornTail.bytes)} bytes, no newline: a writer stopped mid-append, so it was never committed); that 1 line is left out, only the ${formatCount(source.messages.length)} committed entries are imported\n`,
      );
    return copySession(source, store, id);
  });
  const shown = target.kind === 'jsonl' ? target.path : `${target.location}#${target.id}`;
  process.stdout.write(`imported ${copied} entries from ${path} into ${shown}\n`);
  return 0;
}

async function listSessions(args: string[]): Promise<number> {
  const { positionals } = parseArgs(args, {});
  if (positionals.length !== 1) throw new UsageError('list: expected exactly one STORE');
  const location = parseStoreLocation(positionals[0]!);
  const sessions = await withStore(location, (store) => store.listSessions());
  process.stdout.write(
    `${textTable([['id', 'created', 'entries'], ...sessions.map((s) => [s.id, s.created, formatCount(s.entries)])], '')}\n`,
  );
  return 0;
}
