/**
 * The share-embed block of the app header: Scenarios (the gallery), Share, Embed, Export / Import.
 * The header renders it, and the message for a link that could not be read (LinkErrorPanel) in a
 * row of its own. The panels are React (src/ui/sharing, gallery, export); the links they write and
 * read, the share state and the words live in src/share, below the UI (ui → share → store → sim).
 */
import { lazy, Suspense } from 'react';
import { shareStore, useShare } from '../../share/shareState';
import { shareText } from '../../share/strings';
import { useSim } from '../../store/useSim';
import { useDump } from '../dump/dumpStore';
import { BreakItButton } from '../search/BreakItButton';
import { useBreakIt, useOpenLinkedSearch } from '../search/breakItStore';
import '../../share/share.css';

// the panels load on first use: they are not needed to show a run
const Gallery = lazy(() => import('../gallery/Gallery').then((m) => ({ default: m.Gallery })));
const ShareDialog = lazy(() => import('./ShareDialog').then((m) => ({ default: m.ShareDialog })));
const EmbedDialog = lazy(() => import('./EmbedDialog').then((m) => ({ default: m.EmbedDialog })));
const ExportDialog = lazy(() => import('../export/ExportDialog').then((m) => ({ default: m.ExportDialog })));
const BreakItPanel = lazy(() => import('../search/BreakItPanel').then((m) => ({ default: m.BreakItPanel })));

export function ShareBar() {
  const panel = useShare((s) => s.panel);
  const breakItOpen = useBreakIt((s) => s.open);
  const hasRun = useSim((s) => s.scenario !== null && s.trace !== null);
  // Share and Embed link the run; the dump view hides it (the dump has its own Copy link)
  const overDump = useDump((s) => s.importing || s.busy || s.analysis !== null);
  // and a link that could not be opened hides it too
  const overLinkError = useShare((s) => s.linkError !== null);
  const t = shareText(useSim((s) => s.language));
  const open = shareStore.getState().open;
  const close = () => open(null);
  useOpenLinkedSearch();
  return (
    <>
      <nav className="eos-sharebar" aria-label={`${t.scenarios}, ${t.share}, ${t.embed}`}>
        <button type="button" onClick={() => open('gallery')} data-testid="open-gallery">
          {t.scenarios}
        </button>
        <button
          type="button"
          onClick={() => open('share')}
          disabled={!hasRun || overDump || overLinkError}
          title={overDump ? t.overDump : overLinkError ? t.overLinkError : undefined}
          data-testid="open-share"
        >
          {t.share}
        </button>
        <button
          type="button"
          onClick={() => open('embed')}
          disabled={!hasRun || overDump || overLinkError}
          title={overDump ? t.overDump : overLinkError ? t.overLinkError : undefined}
          data-testid="open-embed"
        >
          {t.embed}
        </button>
        <button type="button" onClick={() => open('export')} data-testid="open-export">
          {t.exportImport}
        </button>
        <BreakItButton />
      </nav>
      <Suspense fallback={null}>
        {panel === 'gallery' && <Gallery onClose={close} />}
        {panel === 'share' && <ShareDialog onClose={close} />}
        {panel === 'embed' && <EmbedDialog onClose={close} />}
        {panel === 'export' && <ExportDialog onClose={close} />}
        {breakItOpen && <BreakItPanel />}
      </Suspense>
    </>
  );
}
