// Media's and the file seam's messages name the library option that lifts a limit (`raise timeoutMs`, `Raise
// maxBytes`): right for a developer calling process(), not for someone at a shell, who can only pass flags. The
// CLI prints the message with each option it names turned into the flag of the command that ran; an option that
// command has no flag for is said to be a library option, so no one looks for a flag that is not there.

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
 * as a library option the command has no flag for.
 */
export function cliErrorMessage(message: string, command: { name: string; usage: string }): string {
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
  return text;
}
