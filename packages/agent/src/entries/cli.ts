import { exitQuietlyOnBrokenPipe } from '../cli/broken-pipe.js';
import { main } from '../cli/main.js';
import { setDefaultFileSystem } from '../fs/default-file-system.js';
import { nodeFileSystem } from '../fs/node-file-system.js';

setDefaultFileSystem(nodeFileSystem);
exitQuietlyOnBrokenPipe();
process.exitCode = await main(process.argv.slice(2));
