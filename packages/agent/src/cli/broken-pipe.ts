/**
 * A reader that stops early (`glimpse process x.jpg -o - | head -c 100`, `… | head -1`) closes the pipe.
 * That is the reader's choice, not a failure: the CLI then exits 0 without a word, instead of an EPIPE
 * stack trace or an E_INTERNAL line.
 */
export function isBrokenPipe(error: unknown): boolean {
  return typeof error === 'object' && error !== null && 'code' in error && error.code === 'EPIPE';
}

/** Exits quietly when stdout or stderr reports a broken pipe after a write has already returned. */
export function exitQuietlyOnBrokenPipe(): void {
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', (error) => {
      if (!isBrokenPipe(error)) throw error;
      process.exit(0);
    });
  }
}
