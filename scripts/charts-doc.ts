/** Rewrites the charts section of docs/architecture.md from the machines: npx tsx scripts/charts-doc.ts */
import { readFileSync, writeFileSync } from 'node:fs';
import { withCharts } from '../src/sim/charts/docs';

const path = new URL('../docs/architecture.md', import.meta.url);
writeFileSync(path, withCharts(readFileSync(path, 'utf8')));
