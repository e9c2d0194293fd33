/**
 * The views the page shows over the run, as the address describes them: a comparison (`#ab=1.…`), a
 * dump (`#dump=1.…`), or neither. Opened from the URL at load, and again on every Back, Forward or
 * pasted link — so Back out of a comparison closes it instead of leaving it over the scenario the
 * previous entry names (hashSync.ts opens that scenario). A view whose address is another one's is
 * closed; one already showing what the address says is left as it is.
 */
import { AB_PREFIX, decodeAbLink } from '../sim';
import { compareStore } from './compare/compareStore';
import { DUMP_PREFIX, decodeDumpLink } from './dump/dumpLink';
import { dumpStore } from './dump/dumpStore';

/** Fragment prefixes these views open over the run (hashSync's `opensElsewhere`). */
export const VIEW_PREFIXES: readonly string[] = [DUMP_PREFIX, AB_PREFIX];

/** The address each view was last opened from: one navigation fires `popstate` and `hashchange`, and opens it once. */
let comparedFrom: string | null = null;
let dumpFrom: string | null = null;

/**
 * One view at a time: what the page opens itself (a scenario picked in the gallery, the comparison,
 * the dump's form) closes the other views first, so the header, the body and the address describe
 * the same thing. `keep`: the view about to open, left as it is.
 */
export function closeViewsExcept(keep: 'compare' | 'dump' | null): void {
  if (keep !== 'compare' && compareStore.getState().open) {
    comparedFrom = null;
    compareStore.getState().close();
  }
  const dump = dumpStore.getState();
  if (keep !== 'dump' && (dump.importing || dump.busy || dump.analysis !== null)) {
    dumpFrom = null;
    dump.close();
  }
}

/** Opens or closes the comparison and the dump so the page shows what `hash` describes. */
export function showViewsOf(hash: string): void {
  const ab = decodeAbLink(hash);
  const compare = compareStore.getState();
  if (ab && !(compare.open && comparedFrom === hash)) {
    comparedFrom = hash;
    if (ab.ok) compare.openPair(ab.a, ab.changes ? { changes: ab.changes } : { scenario: ab.b }, ab.t);
    else compareStore.setState({ open: true, error: { en: ab.reason, ko: ab.ko } });
  } else if (!ab && compare.open) {
    comparedFrom = null;
    compare.close();
  }
  const sources = decodeDumpLink(hash);
  const dump = dumpStore.getState();
  const dumpShown = dump.importing || dump.busy || dump.analysis !== null;
  if (sources && !(dumpShown && dumpFrom === hash)) {
    dumpFrom = hash;
    void dump.open(sources);
  } else if (!sources && dumpShown) {
    dumpFrom = null;
    dump.close();
  }
}

/**
 * Keeps the views in step with the address on Back, Forward and pasted links (`hashchange`, and
 * `popstate`, which an entry the page pushed itself fires without it). Returns a stop function.
 */
export function followViewsInHistory(win: Window = window): () => void {
  const onNavigate = () => showViewsOf(win.location.hash);
  win.addEventListener('hashchange', onNavigate);
  win.addEventListener('popstate', onNavigate);
  return () => {
    win.removeEventListener('hashchange', onNavigate);
    win.removeEventListener('popstate', onNavigate);
  };
}
