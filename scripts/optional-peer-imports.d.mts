export function markOptionalPeerImports(text: string, optional: ReadonlySet<string>): string;
export function markOptionalPeerImportsIn(packageDir: string, typesDir: string): number;
