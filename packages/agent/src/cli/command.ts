import { GlimpseError, isErrorOf } from '../errors.js';

/** One `glimpse` subcommand's module. `run` returns the exit code: 0 ok, 1 failure (JSON error on stderr), 2 usage. */
export interface Command {
  /** Full help text: every flag explained. */
  usage: string;
  run(args: string[]): Promise<number>;
}

/** Thrown by argument parsing; main prints the message and the command's usage, exit 2 (never the JSON error line). */
export class UsageError extends GlimpseError<'E_USAGE'> {
  constructor(message: string) {
    super('UsageError', 'E_USAGE', message, {});
  }
}

export function isUsageError(error: unknown): error is UsageError {
  return isErrorOf<UsageError>(error, 'UsageError', { E_USAGE: true });
}
