/**
 * An imported dump on the timeline: one lane per partition, drawn as a run's lanes are (cells by
 * offset, COMMIT/ABORT markers, aborted records crossed out, open ones hatched, the ×n bar over an
 * event_id stored more than once, HW and LSO), then the findings. Export as SVG or PNG; the link
 * carries the dump when it fits.
 */
import { useEffect, useMemo, useState } from 'react';
import { type Selection, simStore } from '../../store/simStore';
import { useSim } from '../../store/useSim';
import { downloadBlob, downloadText } from '../export/download';
import { svgToPng } from '../export/timelinePng';
import type { LaneExtent } from '../timeline/offsetScale';
import { PartitionLanes } from '../timeline/PartitionLanes';
import { timelineStrings } from '../timeline/timelineText';
import { DumpFindings } from './DumpFindings';
import { writeDumpAddress } from './dumpAddress';
import { linkableSources } from './dumpInput';
import { encodeDumpLink } from './dumpLink';
import { dumpStore, useDump } from './dumpStore';
import { dumpStrings } from './dumpStrings';
import { timelineSvg } from './dumpSvg';
import '../timeline/timeline.css';

export function DumpView() {
  const language = useSim((s) => s.language);
  const theme = useSim((s) => s.theme);
  const t = dumpStrings(language);
  const analysis = useDump((s) => s.analysis);
  const sources = useDump((s) => s.sources);
  const [selection, setSelection] = useState<Selection | null>(null);
  const [copied, setCopied] = useState<string | null>(null);
  const lanes = useDump((s) => s.lanes);
  const extents = useMemo(() => {
    const m = new Map<string, LaneExtent>();
    for (const l of lanes) m.set(l.key, { start: l.logStartOffset, end: l.logEndOffset + 1 });
    return m;
  }, [lanes]);
  const link = useMemo(() => {
    const texts = linkableSources(sources);
    return texts ? encodeDumpLink(texts) : null;
  }, [sources]);
  // the dump is the page on screen: an entry of its own, named by its link when it fits
  useEffect(() => {
    if (analysis) writeDumpAddress(analysis, link);
  }, [analysis, link]);
  if (!analysis) return null;
  const title = t.title(analysis.lanes.length, analysis.records);
  const svg = () =>
    timelineSvg({
      title,
      subtitle: `EOS Lab · kafka-dump-log.sh · ${sources.map((s) => s.name).join(', ')}`,
      step: 0,
      steps: 0,
      timeMs: 0,
      partitions: analysis.lanes.map((l) => l.row),
      theme: theme === 'dark' || (theme === 'system' && matchMedia('(prefers-color-scheme: dark)').matches) ? 'dark' : 'light',
    });
  return (
    <main className="app-main dump-view" data-testid="dump-view">
      <div className="dump-bar">
        <h2>{title}</h2>
        <button type="button" onClick={() => downloadText(svg(), 'eos-lab-dump.svg', 'image/svg+xml')} data-testid="dump-export-svg">
          {t.exportSvg}
        </button>
        <button type="button" onClick={async () => downloadBlob(await svgToPng(svg()), 'eos-lab-dump.png')}>
          {t.exportPng}
        </button>
        <button
          type="button"
          disabled={!link}
          title={link ? undefined : t.linkTooLong}
          data-testid="dump-copy-link"
          onClick={async () => {
            if (!link) return;
            const url = location.href.split('#')[0] + link;
            history.replaceState(history.state, '', link);
            try {
              await navigator.clipboard.writeText(url);
            } catch {
              // the address bar holds the link
            }
            setCopied(t.linkCopied);
          }}
        >
          {link ? t.copyLink : t.linkTooLong}
        </button>
        <output>{copied}</output>
        <button
          type="button"
          onClick={() => {
            dumpStore.getState().close();
            simStore.getState().select(null);
          }}
          data-testid="dump-close"
        >
          {t.close}
        </button>
      </div>
      <div className="timeline" data-testid="timeline">
        <PartitionLanes
          lanes={lanes}
          extents={extents}
          selection={selection}
          onSelect={setSelection}
          initiallyExpanded
          text={timelineStrings(language)}
        />
      </div>
      <DumpFindings analysis={analysis} t={t} language={language} />
    </main>
  );
}
