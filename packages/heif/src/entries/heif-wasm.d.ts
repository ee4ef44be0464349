// How each entry's bundler loads heif.wasm: esbuild's `file` loader (browser, Deno) gives its URL
// relative to the bundle; the `copy` loader (Workers) keeps the import, which workerd compiles to a
// WebAssembly.Module. Each entry checks that it got what its runtime gives.
declare module '*/heif.wasm' {
  const wasm: unknown;
  export default wasm;
}
