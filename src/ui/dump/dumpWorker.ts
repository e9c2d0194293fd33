/// <reference lib="webworker" />
/** Parses and analyses a dump off the main thread: a 100,000-record dump never blocks the page. */
import { analyzeDump } from '../../sim/dump/analyze';
import { type DumpSource, parseDumps } from '../../sim/dump/parse';

self.onmessage = (e: MessageEvent<{ id: number; sources: DumpSource[] }>) => {
  const r = parseDumps(e.data.sources);
  self.postMessage(r.ok ? { id: e.data.id, ok: true, analysis: analyzeDump(r.dump) } : { id: e.data.id, ok: false, errors: r.errors });
};
