/** An attribute's value from an element's attribute text (either quote style), or '' when it is absent. */
export function attribute(attributes: string, name: string): string {
  const match = new RegExp(`(?:^|\\s)${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)')`).exec(attributes);
  return match?.[1] ?? match?.[2] ?? '';
}
