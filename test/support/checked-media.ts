// What the tests get when they import '@glimpse/media' (see vitest.config.ts): the Node entry, except that
// `process` hands back nothing a strict reader would refuse. Every output any test produces through the
// package (media, agent, CLI in-process) passes the strict oracle and an independent decoder's header
// read, so a broken writer fails the test that made the file instead of going unnoticed.
import sharp from 'sharp';
import { process as processUnchecked } from '../../packages/media/src/entries/node.js';
import type { ProcessOptions, ProcessResult } from '../../packages/media/src/index.js';
import { assertStrictlyValid } from './strict-oracle.js';

export * from '../../packages/media/src/entries/node.js';

export async function process(bytes: Uint8Array, options?: ProcessOptions): Promise<ProcessResult> {
  const result = await processUnchecked(bytes, options);
  await assertSoundResult(result);
  return result;
}

/** The output passes the strict oracle and is what the result says it is. */
export async function assertSoundResult(result: ProcessResult): Promise<void> {
  assertStrictlyValid(result.data, result.mediaType, `${result.mediaType} output`);
  if (result.bytes !== result.data.byteLength)
    throw new Error(`result.bytes is ${result.bytes} but the output holds ${result.data.byteLength} bytes`);
  if (result.mediaType === 'application/pdf') return;
  const { width, height } = await sharp(result.data).metadata();
  if (width !== result.width || height !== result.height) {
    throw new Error(
      `the result says ${result.width}x${result.height} but sharp reads the output as ${width}x${height}`,
    );
  }
}
