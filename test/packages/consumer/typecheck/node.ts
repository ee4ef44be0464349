import { readFile } from 'node:fs/promises';
import { process } from '@glimpse/media';
import { createFileTools, serialize } from '@glimpse/agent';
import { SessionWriter, loadSession, nodeFileSystem } from '@glimpse/agent/node';
import { createGlimpseMcpServer, createViewWorkerPool } from '@glimpse/agent/mcp';

const bytes = new Uint8Array(await readFile('photo.jpg'));
const fitted = await process(bytes, { provider: 'bedrock' });
const files = createFileTools({ route: () => ({ provider: 'anthropic', model: 'claude-sonnet-4-5' }), fileSystem: nodeFileSystem });
const log = await SessionWriter.open('s.jsonl', { app: { name: 'x' } });
await log.close();
const session = await loadSession('s.jsonl');
const server = createGlimpseMcpServer({ root: '.', viewFileRunner: createViewWorkerPool({ timeoutMs: 5000 }).view });
console.log(fitted.width, files.offered().length, session.entries.length, typeof server, typeof serialize);
