import { version } from '../../package.json';
import { isUsageError } from './command.js';
import { COMMANDS } from './commands.js';
import { isBrokenPipe } from './broken-pipe.js';
import { printFailure } from './failure.js';

/** The command list `glimpse --help` prints (also generated into docs/cli.md). */
export function overview(): string {
  const width = Math.max(...COMMANDS.map((c) => c.name.length));
  return [
    'glimpse — fit images, SVGs and PDFs for LLM providers',
    '',
    'Usage: glimpse <command> [options]',
    '',
    'Commands:',
    ...COMMANDS.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`),
    '',
    'Run `glimpse <command> --help` for the options of one command; `glimpse --version` prints the version.',
  ].join('\n');
}

export async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    (name === undefined ? process.stderr : process.stdout).write(`${overview()}\n`);
    return name === undefined ? 2 : 0;
  }
  if (name === '--version' || name === '-v') {
    process.stdout.write(`${version}\n`);
    return 0;
  }
  const entry = COMMANDS.find((c) => c.name === name);
  if (!entry) {
    process.stderr.write(`glimpse: unknown command ${JSON.stringify(name)}\n\n${overview()}\n`);
    return 2;
  }
  const command = await entry.load();
  if (rest.includes('--help') || rest.includes('-h')) {
    process.stdout.write(`${command.usage}\n`);
    return 0;
  }
  try {
    return await command.run(rest);
  } catch (error) {
    if (isBrokenPipe(error)) return 0;
    if (isUsageError(error)) {
      process.stderr.write(`glimpse ${entry.name}: ${error.message}\n\n${command.usage}\n`);
      return 2;
    }
    return printFailure(error, { name: entry.name, usage: command.usage }, rest);
  }
}
