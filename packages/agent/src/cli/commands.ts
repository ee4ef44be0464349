import type { Command } from './command.js';

/** A subcommand as `glimpse --help` lists it; its module (and what that imports) loads only when it runs. */
export interface CommandEntry {
  name: string;
  /** One line for the command list. */
  summary: string;
  load(): Promise<Command>;
}

// Every subcommand, in the order `glimpse --help` lists them. Adding one is a module plus one line here;
// the dynamic imports keep each command's dependencies (the MCP SDK, zod) out of the others' start-up.
export const COMMANDS: readonly CommandEntry[] = [
  {
    name: 'inspect',
    summary: 'print header facts of an image, SVG or PDF as JSON',
    load: async () => (await import('./inspect.js')).inspectCommand,
  },
  {
    name: 'process',
    summary: 'fit an image, SVG or PDF to a provider’s limits',
    load: async () => (await import('./process.js')).processCommand,
  },
  {
    name: 'text',
    summary: 'print the text layer of a PDF, page by page',
    load: async () => (await import('./text.js')).textCommand,
  },
  {
    name: 'prepare',
    summary: 'print the provider-native request for tool results that carry FILEs',
    load: async () => (await import('./prepare.js')).prepareCommand,
  },
  {
    name: 'mcp',
    summary: 'serve view_file and read to MCP clients over stdio',
    load: async () => (await import('./mcp.js')).mcpCommand,
  },
  {
    name: 'demo',
    summary: 'run the keyless replay agent on the bundled samples and write a session log',
    load: async () => (await import('./demo.js')).demoCommand,
  },
  {
    name: 'session',
    summary:
      'validate and summarise a session (JSONL, pglite:, postgres://), list a store, import a log (exit 1 naming the line on corruption)',
    load: async () => (await import('./session.js')).sessionCommand,
  },
];
