// One way for every test to say "this fails with that typed error": the error is caught, checked to be an
// instance of the class the caller names and to carry the code, and returned for further assertions.
// Never passes when nothing was thrown.
import { expect } from 'vitest';

type Coded = Error & { code: string };
type ErrorClass<E extends Coded> = abstract new (...args: never[]) => E;

/** Awaits `work` (a promise, or a function that returns one or throws) and returns what it threw. */
export async function caught(work: Promise<unknown> | (() => unknown)): Promise<unknown> {
  try {
    await (typeof work === 'function' ? work() : work);
  } catch (error) {
    return error;
  }
  throw new Error('expected the call to fail, but it succeeded');
}

/** The error `work` fails with, after checking it is a `type` with `code`. */
export async function failsWith<E extends Coded>(
  work: Promise<unknown> | (() => unknown),
  type: ErrorClass<E>,
  code?: E['code'],
): Promise<E> {
  const error = await caught(work);
  if (!(error instanceof type)) throw new Error(`expected a ${type.name}, got ${String(error)}`);
  if (code !== undefined) expect(error.code).toBe(code);
  return error;
}

/** The synchronous form of `failsWith`, for code that throws before it returns. */
export function throwsWith<E extends Coded>(run: () => unknown, type: ErrorClass<E>, code?: E['code']): E {
  let error: unknown;
  try {
    run();
  } catch (thrown) {
    error = thrown;
  }
  if (error === undefined) throw new Error('expected the call to throw, but it returned');
  if (!(error instanceof type)) throw new Error(`expected a ${type.name}, got ${String(error)}`);
  if (code !== undefined) expect(error.code).toBe(code);
  return error;
}
