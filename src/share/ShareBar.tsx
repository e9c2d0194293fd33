/**
 * The share-embed block of the app header: Scenarios (the gallery), Share, Embed, Export / Import.
 * The header renders it, and the message for a link that could not be read (LinkErrorPanel) in a
 * row of its own; everything else of sharing lives in src/share, src/embed, src/ui/gallery and
 * src/ui/export.
 */
import { lazy, Suspense } from 'react';
import { useSim } from '../ui/useSim';
import { shareStore, useShare } from './shareState';
import { shareText } from './strings';
import './share.css';

// the panels load on first use: they are not needed to show a run
const Gallery = lazy(() => import('../ui/gallery/Gallery').then((m) => ({ default: m.Gallery })));
const ShareDialog = lazy(() => import('./ShareDialog').then((m) => ({ default: m.ShareDialog })));
const EmbedDialog = lazy(() => import('../embed/EmbedDialog').then((m) => ({ default: m.EmbedDialog })));
const ExportDialog = lazy(() => import('../ui/export/ExportDialog').then((m) => ({ default: m.ExportDialog })));

export function ShareBar() {
  const panel = useShare((s) => s.panel);
  const hasRun = useSim((s) => s.scenario !== null && s.trace !== null);
  const t = shareText(useSim((s) => s.language));
  const open = shareStore.getState().open;
  const close = () => open(null);
  return (
    <>
      <nav className="eos-sharebar" aria-label={`${t.scenarios}, ${t.share}, ${t.embed}`}>
        <button type="button" onClick={() => open('gallery')} data-testid="open-gallery">
          {t.scenarios}
        </button>
        <button type="button" onClick={() => open('share')} disabled={!hasRun} data-testid="open-share">
          {t.share}
        </button>
        <button type="button" onClick={() => open('embed')} disabled={!hasRun} data-testid="open-embed">
          {t.embed}
        </button>
        <button type="button" onClick={() => open('export')} data-testid="open-export">
          {t.exportImport}
        </button>
      </nav>
      <Suspense fallback={null}>
        {panel === 'gallery' && <Gallery onClose={close} />}
        {panel === 'share' && <ShareDialog onClose={close} />}
        {panel === 'embed' && <EmbedDialog onClose={close} />}
        {panel === 'export' && <ExportDialog onClose={close} />}
      </Suspense>
    </>
  );
}
