// The shared test vectors' manifest (test/vectors/manifest.json): written by Node's suite
// (test/vectors.test.ts with UPDATE_VECTORS=1) and reproduced byte for byte by every runtime suite.
import type { PdfTextOptions, ProcessOptions, ProcessResult } from '@glimpse/media';

/**
 * What Node produced for a vector: the output's hash and facts, the text's hash and size (pdfText; the hash
 * is of the UTF-8 JSON of its pages), or the error code it raised.
 */
export type VectorExpectation =
  | {
      sha256: string;
      mediaType: ProcessResult['mediaType'];
      width: number;
      height: number;
      bytes: number;
      steps: ProcessResult['steps'];
    }
  | { sha256: string; mediaType: 'text/plain'; pageCount: number; characters: number }
  | { error: string }; // a MediaError code

/** The call a vector makes besides `process` (the default): one PDF page rendered, or a PDF's text. */
export type VectorOperation = { renderPdfPage: number } | { pdfText: PdfTextOptions };

export interface Vector {
  name: string;
  /** File name under test/vectors/inputs/. */
  input: string;
  options: ProcessOptions;
  operation?: VectorOperation;
  expect: VectorExpectation;
}

export interface VectorManifest {
  vectors: Vector[];
}

/** The facts a runtime observed for one vector, in the manifest's shape, so results compare as JSON. */
export type VectorObservation = VectorExpectation;
