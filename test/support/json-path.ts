/** The value at a dotted path ("messages.2.content.0.text") of parsed JSON; undefined where the path leads nowhere. */
export function at(value: unknown, path: string): unknown {
  return path
    .split('.')
    .reduce<unknown>(
      (node, key) => (typeof node === 'object' && node !== null ? Reflect.get(node, key) : undefined),
      value,
    );
}
