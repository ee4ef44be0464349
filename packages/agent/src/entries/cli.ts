import { exitQuietlyOnBrokenPipe } from '../cli/broken-pipe.js';
import { main } from '../cli/main.js';

// The commands that use the file tools' default file system set it themselves (cli/local-disk.ts).
exitQuietlyOnBrokenPipe();
process.exitCode = await main(process.argv.slice(2));
