#!/usr/bin/env node
// The CLI is built from TypeScript by `npm install` (root `prepare`); see README.
// Node's compile cache (Node 22.1+; NODE_DISABLE_COMPILE_CACHE=1 turns it off, NODE_COMPILE_CACHE=DIR moves it)
// keeps V8's code for the CLI and the media core in the OS temp folder, so later runs skip compiling them
// (docs/performance.md, "The `glimpse` CLI"). The CLI is imported after it is on, so its modules are cached too.
import { mkdirSync, statSync } from 'node:fs';
import module from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * The cache's folder in the OS temp folder, made here, or undefined when it cannot be. Node's own "mkdir -p" (in
 * enableCompileCache and in fs.mkdirSync's recursive mode) loops forever at full CPU on some paths that cannot be
 * made, such as one under /proc: so only the last folder is made, and a temp folder that is not there means no cache.
 */
function compileCacheDir() {
  const dir = join(tmpdir(), 'node-compile-cache');
  try {
    mkdirSync(dir);
  } catch {
    // there already, or it cannot be made: the check below tells which
  }
  try {
    return statSync(dir).isDirectory() ? dir : undefined;
  } catch {
    return undefined;
  }
}

// With NODE_COMPILE_CACHE set, Node turned the cache on itself, before this script; NODE_DISABLE_COMPILE_CACHE wins.
if (module.enableCompileCache && !process.env.NODE_DISABLE_COMPILE_CACHE && !process.env.NODE_COMPILE_CACHE) {
  const dir = compileCacheDir();
  if (dir !== undefined) module.enableCompileCache(dir);
}
await import('../dist/cli.js');
