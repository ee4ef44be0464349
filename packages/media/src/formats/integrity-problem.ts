/**
 * What a cheap structural check found wrong with a file that would otherwise pass through untouched.
 * `fatal`: the pixel data itself is damaged (strict decoders refuse it and lenient ones may show garbage),
 * so the file is refused. Otherwise a decoder reads it and re-encoding yields a valid file.
 */
export interface IntegrityProblem {
  fatal: boolean;
  problem: string;
}

/** What the full read of a PDF found: a fatal problem, or a repairable one with the file re-saved (`repaired`). */
export type PdfReadProblem = { fatal: true; problem: string } | { fatal: false; problem: string; repaired: Uint8Array };

/** What a strict read by `library` (libpng, libjpeg) found, as a problem: its error is fatal, its warning repairable. */
export function strictReadProblem(
  library: string,
  finding: { error: string } | { warning: string } | undefined,
): IntegrityProblem | undefined {
  if (!finding) return undefined;
  return 'error' in finding
    ? { fatal: true, problem: `${library} cannot read it (${finding.error})` }
    : { fatal: false, problem: `${library} reads it only with a warning (${finding.warning})` };
}
