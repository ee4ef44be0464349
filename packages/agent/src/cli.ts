import { exitQuietlyOnBrokenPipe } from './cli/broken-pipe.js';
import { main } from './cli/main.js';
import { setDefaultFileSystem } from './fs/default-file-system.js';
import { nodeFileSystem } from './fs/node-file-system.js';

setDefaultFileSystem(nodeFileSystem);
exitQuietlyOnBrokenPipe();

// HEIC/HEIF decoding (@glimpse/heif, LGPL) is optional: the CLI uses it when the package is installed.
await import('@glimpse/heif').catch(() => undefined);
process.exitCode = await main(process.argv.slice(2));
