// Vitest setup: the local disk as the file tools' default file system, as every Node entry of
// @glimpse/agent sets it, for tests that import the tools' modules directly.
import { setDefaultFileSystem } from '../../packages/agent/src/fs/default-file-system.js';
import { nodeFileSystem } from '../../packages/agent/src/fs/node-file-system.js';

setDefaultFileSystem(nodeFileSystem);
