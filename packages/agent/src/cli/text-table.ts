/** Rows as aligned columns; numbers (and cells starting with a digit) are right-aligned. Indent prefixes every line. */
export function textTable(rows: readonly (readonly string[])[], indent = ''): string {
  const widths: number[] = [];
  for (const row of rows) row.forEach((cell, i) => (widths[i] = Math.max(widths[i] ?? 0, [...cell].length)));
  return rows
    .map(
      (row) =>
        indent +
        row
          .map((cell, i) => {
            const pad = ' '.repeat(widths[i]! - [...cell].length);
            return /^[\d,.]+( |$)/.test(cell) && i > 0 ? pad + cell : cell + pad;
          })
          .join('  ')
          .trimEnd(),
    )
    .join('\n');
}

/** 12345 → "12,345". */
export function formatCount(value: number): string {
  return value.toLocaleString('en-US');
}
