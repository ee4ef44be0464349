/**
 * What a cheap structural check found wrong with a file that would otherwise pass through untouched.
 * `fatal`: the pixel data itself is damaged (strict decoders refuse it and lenient ones may show garbage),
 * so the file is refused. Otherwise a decoder reads it and re-encoding yields a valid file.
 */
export interface IntegrityProblem {
  fatal: boolean;
  problem: string;
}
