#!/usr/bin/env node
// The CLI is built from TypeScript by `npm install` (root `prepare`); see README.
// Node's compile cache (Node 22.1+; NODE_DISABLE_COMPILE_CACHE=1 turns it off, NODE_COMPILE_CACHE=DIR moves it)
// keeps V8's code for the CLI and the media core in the OS temp folder, so later runs skip compiling them
// (docs/performance.md, "The `glimpse` CLI"). The CLI is imported after it is on, so its modules are cached too.
import module from 'node:module';

module.enableCompileCache?.();
await import('../dist/cli.js');
