// `@glimpse/agent/fs`: the file-system seam the file tools read through — its interface, the in-memory and Deno
// implementations (Node's is `@glimpse/agent/node`), the default — and the path helpers the tools use.
export type { FileStat, FileSystem, PathOps, ReadBytesOptions } from '../fs/file-system.js';
export { defaultFileSystem, setDefaultFileSystem } from '../fs/default-file-system.js';
export { MemoryFileSystem } from '../fs/memory-file-system.js';
export type { ByteSource, MemoryFileSystemOptions } from '../fs/memory-file-system.js';
export { denoFileSystem } from '../fs/deno-file-system.js';
export { posixPaths } from '../fs/posix-paths.js';
export { resolveFilePath } from '../tools/resolve-file-path.js';
export type { ResolvedFilePath } from '../tools/resolve-file-path.js';
export { foldUnicodeSpaces } from '../tools/unicode-spaces.js';
export { stageFile } from '../tools/stage-file.js';
