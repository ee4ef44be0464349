/** Where generated inputs are cached between runs. */
export const INPUT_DIR: string;
export interface InputRecipe {
  kind: 'photo' | 'screenshot';
  width: number;
  height: number;
  format: 'jpeg' | 'webp' | 'webp-lossless' | 'png' | 'gif' | 'heic' | 'heic-phone' | 'avif' | 'tiff-lzw';
  orientation?: number;
  seed?: number;
}
/** Every input: file name → recipe. */
export const INPUTS: Readonly<Record<string, InputRecipe>>;
export function photoPixels(width: number, height: number): Buffer;
export function screenshotPixels(width: number, height: number, seed: number): Buffer;
/** The path of input `name`, generating it first when it is not cached yet. */
export function inputPath(name: string): Promise<string>;
