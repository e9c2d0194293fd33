/** The two verdicts layer by layer: one row per (layer, subject), A and B side by side, every difference highlighted. */
import type { Comparison } from '../../sim';
import { findingSentence, LAYER_NAMES, statusNameOf, type TraceSummary } from '../../sim/views';
import type { Language } from '../../store/simStore';
import type { CompareStrings } from './compareStrings';

export function CompareVerdict({
  comparison,
  a,
  b,
  language,
  t,
}: {
  readonly comparison: Comparison;
  readonly a: TraceSummary;
  readonly b: TraceSummary;
  readonly language: Language;
  readonly t: CompareStrings;
}) {
  const pick = (pair: readonly [string, string] | undefined, fallback: string) =>
    pair ? (language === 'ko' ? pair[1] : pair[0]) : fallback;
  const cell = (s: TraceSummary, layer: string, subject: string | null) => {
    const f = s.verdict.layers.find((x) => x.layer === layer && x.subject === subject);
    if (!f) return <td className="missing">{t.missing}</td>;
    return (
      <td data-status={f.status} className={`status-${f.status}`}>
        <strong className="status-cell">{pick(statusNameOf(f.layer, f.status), f.status)}</strong>{' '}
        <span className="sentence">{findingSentence(f, s.verdict, language)}</span>
      </td>
    );
  };
  const n = comparison.layers.filter((l) => l.differs).length;
  return (
    <section className="compare-verdict" data-testid="compare-verdict">
      <h3>{t.verdictTitle}</h3>
      <p className={n ? 'compare-count differs' : 'compare-count'}>{n ? t.differences(n) : t.noDifference}</p>
      <table className="verdict-table">
        <thead>
          <tr>
            <th scope="col">{t.layer}</th>
            <th scope="col">A</th>
            <th scope="col">B</th>
          </tr>
        </thead>
        <tbody>
          {comparison.layers.map((l) => (
            <tr
              key={`${l.layer}:${l.subject ?? ''}`}
              data-layer={l.layer}
              data-subject={l.subject ?? ''}
              data-differs={l.differs ? 'true' : 'false'}
              className={l.differs ? 'differs' : undefined}
            >
              <th scope="row">
                {pick(LAYER_NAMES[l.layer as keyof typeof LAYER_NAMES], l.layer)}
                {l.subject && <span className="subject">{l.subject}</span>}
              </th>
              {cell(a, l.layer, l.subject)}
              {cell(b, l.layer, l.subject)}
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
