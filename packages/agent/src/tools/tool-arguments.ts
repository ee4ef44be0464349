import { FileError } from '../fs/file-error.js';

/** Argument checks for tool calls: models send anything, so each value is checked, never cast. */
export function requiredString(args: Record<string, unknown>, name: string, tool: string): string {
  const value = args[name];
  if (typeof value !== 'string' || value === '') {
    throw new FileError('E_INVALID_ARGUMENTS', `${tool} needs "${name}" as a non-empty string, got ${JSON.stringify(value) ?? 'nothing'}.`, { argument: name });
  }
  return value;
}

export function optionalString(args: Record<string, unknown>, name: string, tool: string): string | undefined {
  return args[name] === undefined || args[name] === null ? undefined : requiredString(args, name, tool);
}

/** Accepts integers and integer strings ("20"): several models send numbers as strings. */
export function optionalPositiveInteger(args: Record<string, unknown>, name: string, tool: string): number | undefined {
  const value = args[name];
  if (value === undefined || value === null) return undefined;
  const number = typeof value === 'string' && /^\d+$/.test(value.trim()) ? Number(value) : value;
  if (typeof number !== 'number' || !Number.isSafeInteger(number) || number < 1) {
    throw new FileError('E_INVALID_ARGUMENTS', `${tool} needs "${name}" as a whole number of at least 1, got ${JSON.stringify(value)}.`, { argument: name });
  }
  return number;
}
