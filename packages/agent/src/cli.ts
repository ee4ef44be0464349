import { exitQuietlyOnBrokenPipe } from './cli/broken-pipe.js';
import { main } from './cli/main.js';

exitQuietlyOnBrokenPipe();
process.exitCode = await main(process.argv.slice(2));
