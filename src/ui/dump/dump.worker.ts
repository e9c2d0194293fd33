/// <reference lib="webworker" />
/**
 * Parses and analyses a dump off the main thread: a 100,000-record dump never blocks the page. The
 * answer goes back in pieces (dumpChunks.ts) so that receiving it does not block the page either.
 */
import { analyzeDump } from '../../sim/dump/analyze';
import { parseDumps } from '../../sim/dump/parse';
import { splitAnalysis } from './dumpChunks';
import { type DumpInput, readInputs } from './dumpInput';

self.onmessage = async (e: MessageEvent<{ id: number; sources: DumpInput[] }>) => {
  const id = e.data.id;
  // a large file arrives unread: its text is read here, off the page's thread
  const r = parseDumps(await readInputs(e.data.sources));
  if (!r.ok) {
    self.postMessage({ id, ok: false, errors: r.errors });
    return;
  }
  const { shell, chunks } = splitAnalysis(analyzeDump(r.dump));
  for (const chunk of chunks) self.postMessage({ id, chunk });
  self.postMessage({ id, ok: true, analysis: shell });
};
