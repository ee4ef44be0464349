// Node entry of `@glimpse/agent` (the package's `node` export condition; Deno takes it too): the runtime-
// neutral core, with the local disk as the file tools' default file system. The only thing it adds.
import { setDefaultFileSystem } from '../fs/default-file-system.js';
import { nodeFileSystem } from '../fs/node-file-system.js';

setDefaultFileSystem(nodeFileSystem);

export * from '../index.js';
