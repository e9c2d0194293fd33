/**
 * A chart as a Mermaid `stateDiagram-v2` block (for a docs site, `--chart`, docs/architecture.md):
 * compound states nest, parallel regions are separated by `--`, edges carry "event [guard]".
 */
import type { Chart, ChartEdge, ChartNode } from './chart';

/** Mermaid ids cannot hold dots or dashes: "live.READY" → "live_READY". */
export const mermaidId = (path: string) => path.replace(/[^A-Za-z0-9_]/g, '_');

function label(e: ChartEdge): string {
  const event = e.event ?? 'always';
  return e.guard ? `${event} [${e.guard}]` : event;
}

export function toMermaid(chart: Chart, options: { current?: string } = {}): string {
  const lines = ['stateDiagram-v2'];
  const write = (n: ChartNode, indent: string) => {
    const id = mermaidId(n.path);
    if (n.children.length === 0) {
      if (n.key !== id) lines.push(`${indent}state "${n.key}" as ${id}`);
      return;
    }
    lines.push(`${indent}state "${n.key}" as ${id} {`);
    if (n.initial) lines.push(`${indent}  [*] --> ${mermaidId(n.initial)}`);
    n.children.forEach((c, i) => {
      if (n.type === 'parallel' && i > 0) lines.push(`${indent}  --`);
      write(c, `${indent}  `);
    });
    lines.push(`${indent}}`);
  };
  for (const c of chart.root.children) write(c, '  ');
  if (chart.initial) lines.push(`  [*] --> ${mermaidId(chart.initial)}`);
  for (const e of chart.edges) {
    // a transition on the root (e.g. `crash`) is taken from every state: Mermaid has no "any
    // state" source, so it is drawn from each top-level state other than its target
    const sources = e.source === '' ? chart.root.children.map((c) => c.path).filter((p) => p !== e.target) : [e.source];
    for (const source of sources) lines.push(`  ${mermaidId(source)} --> ${mermaidId(e.target)} : ${label(e)}`);
  }
  if (options.current) {
    lines.push('  classDef current font-weight:bold,stroke-width:3px');
    for (const leaf of options.current.split('|')) lines.push(`  class ${mermaidId(leaf)} current`);
  }
  return lines.join('\n');
}
