// The fuzzer's child process: runs `process` on each input the parent sends and answers with a verdict.
// It runs apart from the parent so a hang can be cut off and a crash cannot take the fuzzer down.
// Messages: { bytes, options, returnData? } → Verdict; { selfTest: 'hang' | 'throw' | 'exit' } exercises the parent's
// detection (test/fuzz/fuzzer.test.ts).
import '@glimpse/heif'; // HEIC decoding, as an application that takes HEIC photos installs it
import { isMediaError, process as processMedia, type ProcessOptions } from '@glimpse/media';
import { resultProblems, type Verdict } from './verdict.js';

/** `returnData` sends the output bytes back (the conformance suites compare its pixels). */
type Request =
  | { bytes: Uint8Array; options: ProcessOptions; returnData?: boolean }
  | { selfTest: 'hang' | 'throw' | 'exit' };

const host = globalThis.process;
let chatter = '';
// Anything a codec prints would reach the host application's terminal: capture it as a finding.
for (const stream of [host.stdout, host.stderr]) {
  stream.write = ((chunk: string | Uint8Array) => {
    chatter += typeof chunk === 'string' ? chunk : new TextDecoder().decode(chunk);
    return true;
  }) as typeof stream.write;
}

async function judge(request: Request): Promise<Verdict> {
  const started = performance.now();
  const milliseconds = () => Math.round(performance.now() - started);
  if ('selfTest' in request) {
    if (request.selfTest === 'exit') host.exit(70);
    if (request.selfTest === 'hang') for (;;);
    throw new TypeError('self-test: an untyped error');
  }
  chatter = '';
  let result: Awaited<ReturnType<typeof processMedia>>;
  try {
    result = await processMedia(request.bytes, request.options);
  } catch (error) {
    if (isMediaError(error) && typeof error.code === 'string' && error.code.startsWith('E_')) {
      return chatter
        ? {
            outcome: 'finding',
            finding: 'chatter',
            detail: `${error.code}; printed: ${chatter.slice(0, 200)}`,
            milliseconds: milliseconds(),
          }
        : { outcome: 'refused', code: error.code, milliseconds: milliseconds() };
    }
    const described =
      error instanceof Error
        ? `${error.name}: ${error.message}\n${error.stack?.split('\n').slice(1, 4).join('\n')}`
        : `non-Error thrown: ${String(error)}`;
    return { outcome: 'finding', finding: 'untyped-error', detail: described, milliseconds: milliseconds() };
  }
  const problem = resultProblems(request.bytes, result, request.options);
  if (problem) return { outcome: 'finding', ...problem, milliseconds: milliseconds() };
  if (chatter)
    return {
      outcome: 'finding',
      finding: 'chatter',
      detail: `printed: ${chatter.slice(0, 200)}`,
      milliseconds: milliseconds(),
    };
  const { mediaType, width, height, steps, data } = result;
  return {
    outcome: 'output',
    mediaType,
    passthrough: !result.reencoded,
    width,
    height,
    steps,
    milliseconds: milliseconds(),
    ...(request.returnData && { data }),
  };
}

host.on('message', (request: Request) => {
  judge(request).then(
    (verdict) => host.send?.(verdict),
    (error: unknown) =>
      host.send?.({
        outcome: 'finding',
        finding: 'untyped-error',
        detail: error instanceof Error ? `${error.name}: ${error.message}` : String(error),
        milliseconds: 0,
      } satisfies Verdict),
  );
});
host.send?.('ready');
