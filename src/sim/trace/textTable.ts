/** Rows of text as aligned columns (two spaces apart, no trailing spaces), as Kafka's CLI tools print tables. */
export function textTable(rows: readonly (readonly string[])[]): string {
  const widths = (rows[0] ?? []).map((_, i) => Math.max(...rows.map((r) => (r[i] ?? '').length)));
  return rows
    .map((r) =>
      r
        .map((c, i) => c.padEnd((widths[i] ?? 0) + 2))
        .join('')
        .trimEnd(),
    )
    .join('\n');
}
