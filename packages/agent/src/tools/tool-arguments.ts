import { FileError } from '../fs/file-error.js';
import type { ToolDefinition } from '../types.js';

/** The `path` argument both file tools take, as their JSON schemas declare it. */
export const PATH_ARGUMENT = {
  type: 'string',
  description: 'Path of the file: absolute, or relative to the working directory (the root, when one is set).',
} as const;

/** Argument checks for tool calls: models send anything, so each value is checked, never cast. */
export function requiredString(args: Record<string, unknown>, name: string, tool: string): string {
  const value = args[name];
  if (typeof value !== 'string' || value === '') {
    throw new FileError(
      'E_INVALID_ARGUMENTS',
      `${tool} needs "${name}" as a non-empty string, got ${JSON.stringify(value) ?? 'nothing'}.`,
      { argument: name },
    );
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
    throw new FileError(
      'E_INVALID_ARGUMENTS',
      `${tool} needs "${name}" as a whole number of at least 1, got ${JSON.stringify(value)}.`,
      { argument: name },
    );
  }
  return number;
}

/**
 * Refuses arguments the tool's schema does not declare (it says `additionalProperties: false`): a misspelt
 * `page` for `pages` would otherwise be ignored, and the model would believe it had been applied.
 */
export function refuseUndeclared(args: Record<string, unknown>, definition: ToolDefinition): void {
  const properties = definition.parameters.properties;
  const declared = typeof properties === 'object' && properties !== null ? Object.keys(properties) : [];
  const extra = Object.keys(args).filter((name) => !declared.includes(name));
  if (extra.length === 0) return;
  const list = (names: string[]) => names.map((name) => JSON.stringify(name)).join(', ');
  throw new FileError(
    'E_INVALID_ARGUMENTS',
    `${definition.name} takes only ${list(declared)}; it does not know ${list(extra)}. Call it again without ${extra.length === 1 ? 'it' : 'them'}.`,
    { argument: extra[0] },
  );
}

/** A tool's arguments as a listing shows them: `{path, offset?, limit?}`, the optional ones marked, in schema order. */
export function argumentSignature(definition: ToolDefinition): string {
  const { properties, required } = definition.parameters;
  const names = typeof properties === 'object' && properties !== null ? Object.keys(properties) : [];
  const mandatory = Array.isArray(required) ? required : [];
  return `{${names.map((name) => (mandatory.includes(name) ? name : `${name}?`)).join(', ')}}`;
}
