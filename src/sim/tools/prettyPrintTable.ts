/**
 * ToolsUtils.prettyPrintTable, the table printer of `kafka-transactions.sh`: each column padded to its
 * widest cell (header included), every cell followed by a tab.
 */
export function prettyPrintTable(headers: readonly string[], rows: readonly (readonly string[])[]): string {
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((row) => (row[i] ?? '').length)));
  const line = (cells: readonly string[]) => cells.map((c, i) => `${c.padEnd(widths[i] ?? 0)}\t`).join('');
  return [line(headers), ...rows.map(line)].join('\n');
}
