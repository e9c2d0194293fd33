/**
 * The dump in the address bar, as the comparison's is (ComparePage's writeAddress): a history entry of
 * its own when it opens over the run, so Back returns to the run it was imported over (urlViews.ts
 * closes the dump on that entry), and its link (`#dump=1.…`) in the address when it fits. A dump too
 * large for a link has its entry at the run's address: Back still closes it, and Copy link says why
 * there is no link.
 */
import { linkOf } from '../../share/hashSync';
import { simStore } from '../../store/simStore';
import { DUMP_PREFIX } from './dumpLink';

/** The analysis whose entry was last written: React may run an effect twice, which must push once. */
let addressed: object | null = null;

export function writeDumpAddress(analysis: object, link: string | null, win: Window = window): void {
  // an entry of the dump's already (this dump's, or one imported over another dump): replaced
  const own = addressed === analysis || win.location.hash.startsWith(DUMP_PREFIX);
  addressed = analysis;
  const url = link ?? linkOf(simStore.getState()) ?? win.location.href;
  try {
    if (own) win.history.replaceState(win.history.state, '', url);
    else win.history.pushState(null, '', url);
  } catch {
    // a sandboxed host may forbid it: Copy link still works
  }
}
