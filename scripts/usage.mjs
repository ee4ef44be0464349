// `--help` for the repository's scripts: their usage is the comment block they open with.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** Prints the leading `//` comment of the script at `scriptUrl` and exits, when `argv` asks for help. */
export function exitWithUsageIfAsked(scriptUrl, argv) {
  if (!argv.includes('--help') && !argv.includes('-h')) return;
  const lines = readFileSync(fileURLToPath(scriptUrl), 'utf8').split('\n');
  const end = lines.findIndex((line) => !line.startsWith('//'));
  process.stdout.write(
    `${lines
      .slice(0, end === -1 ? lines.length : end)
      .map((line) => line.replace(/^\/\/ ?/, ''))
      .join('\n')}\n`,
  );
  process.exit(0);
}
