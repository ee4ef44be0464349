// Media's and the file seam's messages name the library option that lifts a limit (`raise timeoutMs`, `Raise
// maxBytes`): right for a developer calling process(), not for someone at a shell, who can only pass flags. The
// CLI prints the message with each option it names turned into the flag of the command that ran; an option that
// command has no flag for is said to be a library option, so no one looks for a flag that is not there.
// Text the user gave or the error carries as data (a path, a page range) is printed as it is, whatever names it
// holds: `maxBytes.png` is a file name, not an option.

/** Library option → the CLI flag that sets the same limit (where some command has one). */
const FLAGS: Readonly<Record<string, string>> = {
  timeoutMs: '--timeout-ms',
  maxBytes: '--max-bytes',
  maxEdge: '--max-edge',
  maxInputPixels: '--max-input-pixels',
  maxFileBytes: '--max-file-bytes',
  maxResultBytes: '--max-result-bytes',
  maxTokens: '--max-tokens',
  maxTiles: '--max-tiles',
};

/** Options messages name that no command has a flag for. */
const LIBRARY_ONLY = ['maxPages', 'maxMemory', 'maxPdfPages', 'maxPdfBytes', 'maxInputBytes'];

const word = (name: string) => new RegExp(`(?<![A-Za-z0-9-])${name}(?![A-Za-z0-9])`, 'g');

/** The flags a command's usage text lists (`--timeout-ms`, …). */
export function usageFlags(usage: string): Set<string> {
  return new Set(usage.match(/--[a-z][a-z-]*/g) ?? []);
}

/**
 * `message` as the CLI prints it for `glimpse <command>`: each library option it names replaced by the command's
 * flag (a message that already names both, `maxInputPixels (--max-input-pixels)`, says the flag once), or marked
 * as a library option the command has no flag for. The `verbatim` strings (paths, arguments) are left as they are
 * wherever they occur in it.
 */
export function cliErrorMessage(
  message: string,
  command: { name: string; usage: string },
  verbatim: readonly string[] = [],
): string {
  return splitVerbatim(message, verbatim)
    .map((piece) => (piece.verbatim ? piece.text : rewriteOptions(piece.text, command)))
    .join('');
}

/** The strings an error carries as data (its details' strings: `path`, `pages`, …), to print verbatim. */
export function detailStrings(error: unknown): string[] {
  if (typeof error !== 'object' || error === null || !('details' in error)) return [];
  const { details } = error;
  if (typeof details !== 'object' || details === null) return [];
  return Object.values(details).flatMap((value) =>
    typeof value === 'string' ? [value] : Array.isArray(value) ? value.filter((v) => typeof v === 'string') : [],
  );
}

/** `text` cut into the stretches that are one of `verbatim` (the longest first where they overlap) and the rest. */
function splitVerbatim(text: string, verbatim: readonly string[]): { text: string; verbatim: boolean }[] {
  const kept = [...new Set(verbatim)].filter((s) => /[A-Za-z]/.test(s)).sort((a, b) => b.length - a.length);
  const pieces: { text: string; verbatim: boolean }[] = [];
  let rest = text;
  for (;;) {
    let at = -1;
    let found = '';
    for (const s of kept) {
      const index = rest.indexOf(s);
      if (index !== -1 && (at === -1 || index < at)) [at, found] = [index, s];
    }
    if (at === -1) break;
    if (at > 0) pieces.push({ text: rest.slice(0, at), verbatim: false });
    pieces.push({ text: found, verbatim: true });
    rest = rest.slice(at + found.length);
  }
  if (rest !== '') pieces.push({ text: rest, verbatim: false });
  return pieces;
}

function rewriteOptions(message: string, command: { name: string; usage: string }): string {
  const flags = usageFlags(command.usage);
  let text = message;
  for (const [option, flag] of Object.entries(FLAGS)) {
    // Both spellings side by side: one name, the option, then treated as below.
    text = text
      .replaceAll(`${option} (${flag})`, option)
      .replaceAll(`(${flag} / ${option})`, `(${option})`)
      .replaceAll(`(${option} / ${flag})`, `(${option})`);
    text = text.replace(
      word(option),
      flags.has(flag) ? flag : `${option} (a library option: glimpse ${command.name} has no flag for it)`,
    );
  }
  for (const option of LIBRARY_ONLY)
    text = text.replace(word(option), `${option} (a library option: glimpse ${command.name} has no flag for it)`);
  // A setting named with its value, `(preset: 'gemini')`: the command's own flag, else the command that has one.
  text = text.replace(/\(preset: '([a-z0-9-]+)'\)/g, (_, name: string) =>
    flags.has('--preset')
      ? `(--preset ${name})`
      : flags.has('--provider')
        ? `(--provider ${name})`
        : `(glimpse process --preset ${name})`,
  );
  return text;
}
