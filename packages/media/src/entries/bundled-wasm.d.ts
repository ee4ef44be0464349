// Virtual modules that scripts/build-runtimes.mjs generates from WASM_FILES (runtime/wasm-files.ts), so the
// runtime entries never list codecs by hand: a new codec needs an entry in that table and nothing here.
// Keys are WasmModuleName values; the entries check each lookup.

/** Each codec's .wasm URL, `new URL('../wasm/…', import.meta.url)` from the bundle (browser and Deno). */
declare module 'glimpse:wasm-urls' {
  export const WASM_URLS: Readonly<Record<string, string>>;
}

/** `import m from '../wasm/….wasm'` kept as an import, which workerd (or wrangler) compiles at upload. */
declare module 'glimpse:wasm-modules' {
  export const WASM_MODULES: Readonly<Record<string, WebAssembly.Module>>;
}
