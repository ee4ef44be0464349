import { readFile } from 'node:fs/promises';

/** A file of samples/ (the README's photo, screenshot, report, diagram, animation), as bytes. */
export async function readSample(name: string): Promise<Uint8Array> {
  return new Uint8Array(await readFile(new URL(`../../samples/${name}`, import.meta.url)));
}
