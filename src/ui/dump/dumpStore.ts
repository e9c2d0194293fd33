/**
 * The imported dump: its files, the analysis (made in a Web Worker, or here when the browser has
 * none), or the errors. While a dump is open the page shows it instead of the run, and the address
 * bar holds its link when it fits.
 */
import { useStore } from 'zustand';
import { createStore } from 'zustand/vanilla';
import type { DumpAnalysis, DumpIssue } from '../../sim';
import type { LaneModel } from '../timeline/laneModel';
import { joinAnalysis, type RecordChunk } from './dumpChunks';
import { type DumpInput, readInputs } from './dumpInput';

export interface DumpState {
  /** The import panel is shown. */
  readonly importing: boolean;
  readonly busy: boolean;
  /** The files as given: their text, or (too large for a link) the files themselves. */
  readonly sources: readonly DumpInput[];
  readonly analysis: DumpAnalysis | null;
  /** The analysis's lanes as the timeline draws them (built in a task of their own, see open). */
  readonly lanes: readonly LaneModel[];
  readonly errors: readonly DumpIssue[];
  /** How long the last parse and analysis took, in ms (the page's clock, not the simulation's). */
  readonly parseMs: number | null;
  startImport(): void;
  cancel(): void;
  open(sources: readonly DumpInput[]): Promise<void>;
  close(): void;
}

/** Lets the page paint and answer input before the next piece of work. */
const nextTask = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

type Result = { ok: true; analysis: DumpAnalysis } | { ok: false; errors: DumpIssue[] };

let worker: Worker | null = null;
let nextId = 0;

function analyse(sources: readonly DumpInput[]): Promise<Result> {
  if (typeof Worker === 'undefined')
    // no worker (a DOM test environment): parse here, loaded on demand like the worker
    return Promise.all([import('../../sim/dump/parse'), import('../../sim/dump/analyze'), readInputs(sources)]).then(([p, a, texts]) => {
      const r = p.parseDumps(texts);
      return r.ok ? { ok: true, analysis: a.analyzeDump(r.dump) } : { ok: false, errors: r.errors };
    });
  worker ??= new Worker(new URL('./dump.worker.ts', import.meta.url), { type: 'module' });
  const w = worker;
  const id = ++nextId;
  const chunks: RecordChunk[] = [];
  return new Promise((resolve) => {
    const onMessage = (e: MessageEvent<(Result | { chunk: RecordChunk }) & { id: number }>) => {
      if (e.data.id !== id) return;
      const d = e.data;
      // the records first, a few thousand per message (dumpChunks.ts), then the analysis they belong to
      if ('chunk' in d) {
        chunks.push(d.chunk);
        return;
      }
      w.removeEventListener('message', onMessage);
      resolve(d.ok ? { ok: true, analysis: joinAnalysis(d.analysis, chunks) } : d);
    };
    w.addEventListener('message', onMessage);
    w.postMessage({ id, sources });
  });
}

export const dumpStore = createStore<DumpState>()((set, get) => ({
  importing: false,
  busy: false,
  sources: [],
  analysis: null,
  lanes: [],
  errors: [],
  parseMs: null,
  startImport: () => set({ importing: true, errors: [] }),
  cancel: () => set({ importing: false, errors: [], busy: false }),
  async open(sources) {
    set({ busy: true, errors: [] });
    const t0 = performance.now();
    const r = await analyse(sources);
    if (get().busy === false) return;
    if (!r.ok) {
      set({ busy: false, importing: true, errors: r.errors });
      return;
    }
    // the last message joined the records; the lanes' model (100,000 records: ~40 ms) is built in a
    // task after it, and drawing them in another, so that no task of the import passes 50 ms
    const { buildLane } = await import('../timeline/laneModel');
    await nextTask();
    const lanes = r.analysis.lanes.map((l) => buildLane(l.row));
    await nextTask();
    if (get().busy === false) return;
    set({ busy: false, importing: false, sources, analysis: r.analysis, lanes, errors: [], parseMs: performance.now() - t0 });
  },
  close: () => set({ importing: false, busy: false, sources: [], analysis: null, lanes: [], errors: [], parseMs: null }),
}));

export function useDump<T>(selector: (s: DumpState) => T): T {
  return useStore(dumpStore, selector);
}
