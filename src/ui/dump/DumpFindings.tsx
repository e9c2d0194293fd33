/** The findings of a dump, per partition: the LSO and what pins it, open transactions, gaps, epochs; then duplicates. */
import { type DumpAnalysis, describeIssue } from '../../sim';
import type { Language } from '../../store/simStore';
import type { DumpStrings } from './dumpStrings';

export function DumpFindings({
  analysis,
  t,
  language,
}: {
  readonly analysis: DumpAnalysis;
  readonly t: DumpStrings;
  readonly language: Language;
}) {
  return (
    <section className="dump-findings" aria-label={t.findings} data-testid="dump-findings">
      <h3>{t.findings}</h3>
      {analysis.lanes.map((l) => (
        <div key={l.key} className="dump-lane-findings" data-testid={`findings-${l.key}`}>
          <h4>{l.key}</h4>
          <p data-testid={`lso-${l.key}`} className={l.lsoPin ? 'dump-lso pinned' : 'dump-lso'}>
            {l.lsoPin
              ? t.lsoPinned(l.row.lastStableOffset, l.lsoPin.producerId, l.lsoPin.producerEpoch, l.lsoPin.startOffset)
              : t.lsoFree(l.row.lastStableOffset)}
          </p>
          {!l.highWatermarkKnown && <p className="muted">{t.hwAssumed}</p>}
          {l.openTxns.length > 0 && (
            <table className="dump-table">
              <caption>{t.openTxns}</caption>
              <thead>
                <tr>
                  {['Topic', 'Partition', 'ProducerId', 'ProducerEpoch', 'StartOffset', 'LastTimestamp'].map((h) => (
                    <th key={h} scope="col">
                      {h}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {l.openTxns.map((o) => (
                  <tr key={o.producerId}>
                    <td>{o.topic}</td>
                    <td>{o.partition}</td>
                    <td>{o.producerId}</td>
                    <td>{o.producerEpoch}</td>
                    <td>{o.startOffset}</td>
                    <td>{o.lastTimestamp ?? '-'}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
          {l.openTxns.some((o) => o.mayEndLater) && <p className="muted">{t.mayEndLater}</p>}
          <ul>
            {l.sequenceGaps.map((g) => (
              <li key={`g${g.offset}`}>
                {t.seqGap(g.producerId, g.producerEpoch, g.offset, g.expected, g.found)}
                {g.mayBeCompaction ? t.maybeCompaction : ''}
              </li>
            ))}
            {l.epochChanges.map((e) => (
              <li key={`e${e.offset}`}>{t.epochChange(e.producerId, e.from, e.to, e.offset, e.byMarker)}</li>
            ))}
            {l.missingOffsets > 0 && <li>{t.missing(l.missingOffsets)}</li>}
            {l.orphanMarkers.map((m) => (
              <li key={`o${m.offset}`}>{t.orphan(m.offset, m.producerId)}</li>
            ))}
            {l.unknownMarkers.length > 0 && <li>{t.unknownMarkers(l.unknownMarkers.length)}</li>}
          </ul>
        </div>
      ))}
      <h4>{t.duplicates}</h4>
      {!analysis.data ? (
        <p className="muted">{t.noData}</p>
      ) : analysis.duplicates.length === 0 ? (
        <p>{t.noDuplicates}</p>
      ) : (
        <ul data-testid="dump-duplicates">
          {analysis.duplicates.slice(0, 200).map((d) => (
            <li key={`${d.topic}:${d.by}:${d.id}`}>
              <code>{d.topic}</code> {d.by} <code>{d.id}</code>: {t.copies(d.copies.length, d.visibleCopies)} —{' '}
              {d.copies.map((c) => `${c.partition}@${c.offset}${c.outcome ? ` ${c.outcome}` : ''}`).join(', ')}
            </li>
          ))}
        </ul>
      )}
      {analysis.warnings.length > 0 && (
        <>
          <h4>{t.warnings}</h4>
          <ul>
            {analysis.warnings.map((w) => (
              <li key={`${w.source}:${w.line}`}>{describeIssue(w, language)}</li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}
