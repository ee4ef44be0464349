import { UsageError } from './command.js';

export interface ParsedArgs {
  positionals: string[];
  flags: Map<string, string | true>;
  /** Every value of each `lists` flag, in order (a flag that may be given more than once). */
  lists: Map<string, string[]>;
}

/**
 * Parses `--flag value`, `--flag=value` and `-o value` style arguments against the command's known
 * flags. `booleans` take no value; `lists` may be given more than once. Unknown flags are usage errors,
 * never silently ignored.
 */
export function parseArgs(
  args: string[],
  spec: { values?: string[]; booleans?: string[]; lists?: string[]; aliases?: Record<string, string> },
): ParsedArgs {
  const values = new Set(spec.values ?? []);
  const booleans = new Set(spec.booleans ?? []);
  const listed = new Set(spec.lists ?? []);
  const positionals: string[] = [];
  const flags = new Map<string, string | true>();
  const lists = new Map<string, string[]>();
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--') {
      positionals.push(...args.slice(i + 1));
      break;
    }
    if (!arg.startsWith('-') || arg === '-') {
      positionals.push(arg);
      continue;
    }
    let [name, inline] = arg.includes('=')
      ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)]
      : [arg, undefined];
    name = spec.aliases?.[name] ?? name;
    if (booleans.has(name)) {
      if (inline !== undefined) throw new UsageError(`${name} takes no value`);
      flags.set(name, true);
    } else if (values.has(name) || listed.has(name)) {
      const value = inline ?? args[++i];
      if (value === undefined) throw new UsageError(`${name} needs a value`);
      if (listed.has(name)) lists.set(name, [...(lists.get(name) ?? []), value]);
      else flags.set(name, value);
    } else {
      throw new UsageError(`unknown option ${name}`);
    }
  }
  return { positionals, flags, lists };
}

/** A flag's value as a positive integer, or undefined when absent. */
export function positiveInteger(flags: Map<string, string | true>, name: string): number | undefined {
  const raw = flags.get(name);
  if (raw === undefined) return undefined;
  if (raw === true || !/^\d+$/.test(raw) || Number(raw) <= 0 || !Number.isSafeInteger(Number(raw))) {
    throw new UsageError(`${name} expects a positive integer, got ${raw === true ? 'nothing' : JSON.stringify(raw)}`);
  }
  return Number(raw);
}

/** A flag's string value, or undefined when absent. */
export function stringFlag(flags: Map<string, string | true>, name: string): string | undefined {
  const raw = flags.get(name);
  return raw === true ? undefined : raw;
}
