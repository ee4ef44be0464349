// Imported for its effect by each command whose file tools (view_file, read, staging) read the local disk
// through the tools' default file system. The CLI's entry cannot set it for them: the entry and each command
// are separate bundles (scripts/build-agent.mjs), and a command's copy of the module is not the entry's.
import { setDefaultFileSystem } from '../fs/default-file-system.js';
import { nodeFileSystem } from '../fs/node-file-system.js';

setDefaultFileSystem(nodeFileSystem);
