// `@glimpse/agent` under the `node` export condition (dist/index.node.js; Deno takes it too): the runtime-
// neutral core, with the local disk as the file tools' default file system. The only thing it adds.
import { setDefaultFileSystem } from '../fs/default-file-system.js';
import { nodeFileSystem } from '../fs/node-file-system.js';

setDefaultFileSystem(nodeFileSystem);

export * from '../index.js';
