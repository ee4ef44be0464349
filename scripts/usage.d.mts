/** Prints the leading `//` comment of the script at `scriptUrl` and exits, when `argv` asks for help. */
export function exitWithUsageIfAsked(scriptUrl: string, argv: readonly string[]): void;
