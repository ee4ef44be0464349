import type { Command } from './command.js';
import { UsageError } from './command.js';
import { demoCommand } from './demo.js';
import { printFailure } from './failure.js';
import { inspectCommand } from './inspect.js';
import { mcpCommand } from './mcp.js';
import { prepareCommand } from './prepare.js';
import { processCommand } from './process.js';
import { sessionCommand } from './session.js';

// Every subcommand, in the order `glimpse --help` lists them.
const COMMANDS: Command[] = [inspectCommand, processCommand, prepareCommand, mcpCommand, demoCommand, sessionCommand];

function overview(): string {
  const width = Math.max(...COMMANDS.map((c) => c.name.length));
  return [
    'glimpse — fit images, SVGs and PDFs for LLM providers',
    '',
    'Usage: glimpse <command> [options]',
    '',
    'Commands:',
    ...COMMANDS.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`),
    '',
    'Run `glimpse <command> --help` for the options of one command.',
  ].join('\n');
}

export async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    (name === undefined ? process.stderr : process.stdout).write(overview() + '\n');
    return name === undefined ? 2 : 0;
  }
  const command = COMMANDS.find((c) => c.name === name);
  if (!command) {
    process.stderr.write(`glimpse: unknown command ${JSON.stringify(name)}\n\n${overview()}\n`);
    return 2;
  }
  if (rest.includes('--help') || rest.includes('-h')) {
    process.stdout.write(command.usage + '\n');
    return 0;
  }
  try {
    return await command.run(rest);
  } catch (error) {
    if (error instanceof UsageError) {
      process.stderr.write(`glimpse ${command.name}: ${error.message}\n\n${command.usage}\n`);
      return 2;
    }
    return printFailure(error);
  }
}
