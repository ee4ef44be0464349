// The runtime-neutral core. Runtime entries (entries/*.ts) register a WASM loader and re-export this.
export { detect } from './detect.js';
export { probe } from './probe.js';
export { process } from './process.js';
export {
  DEFAULT_BODY_IDLE_MS,
  DEFAULT_BODY_TIMEOUT_MS,
  DEFAULT_MAX_INPUT_BYTES,
  processRequest,
} from './process-request.js';
export type { ProcessRequestOptions, RequestWithBody } from './process-request.js';
export { planTiles, tiles } from './tiles.js';
export type { TilePlan } from './pipeline/tile-plan.js';
export type { Tile, TilesOptions, TilesResult } from './tiles.js';
export { checkIntegrity, verifyIntegrity } from './integrity.js';
export type { IntegrityProblem } from './integrity.js';
export { pdfText, renderPdfPage } from './pdf-pages.js';
export type { PdfPageText, PdfText, PdfTextOptions, RenderPdfPageOptions } from './pdf-pages.js';
export { MediaError, isMediaError, isRetryableMediaError, MEDIA_ERROR_CODES } from './errors.js';
export type { MediaErrorCode } from './errors.js';
export { PRESETS, PRESET_NAMES, isPresetName } from './presets/presets.js';
export type { Preset, PresetName } from './presets/presets.js';
export { ROUTES, ROUTE_NAMES, isRouteName } from './presets/routes.js';
export type { Route, RouteLimits, RouteName } from './presets/routes.js';
export { fitsWorkingSize, fitWorkingSize, patchCount } from './presets/working-size.js';
export type { PatchBudget, WorkingSize } from './presets/working-size.js';
export { setWasmLoader } from './runtime/wasm.js';
export { configureMemoryGovernor, memoryGovernor, MemoryGovernor } from './runtime/memory-governor.js';
export type { Admission, GovernorState, JobMemory, MemoryGovernorOptions } from './runtime/memory-governor.js';
// For a decoder package (@glimpse/heif): its module, registered with and obtained through the runtime entry's loader.
export { registerWasmModule, wasmModule } from './runtime/wasm.js';
export { registerDecoder } from './formats/registered-decoders.js';
export type { DecodeRequest, DecodedImage, ImageDecoder } from './formats/registered-decoders.js';
export { heifPartsPresent, readHeifLayout } from './formats/heif/layout.js';
export { assertHeifDecodeBudget } from './formats/heif/decode-budget.js';
export type { HeifCrop, HeifGrid, HeifItem, HeifLayout } from './formats/heif/layout.js';
// For a decoder package's own WASM module (@glimpse/heif): the same host stand-ins glimpse's kernels get.
export { wasiStandIns } from './runtime/wasi-stand-ins.js';
export { NEW_MEMORY_BYTES, withPooledMemory } from './runtime/memory-pool.js';
export type { WasmLoader, WasmModuleName, WasmSource } from './runtime/wasm.js';
export type * from './types.js';
