/**
 * The verdict panel's legend: the article's four layers of exactly once, which verdict rows each
 * shows in, and who knows what (broker, application, external system). Folded by default.
 */
import { LAYER_NAMES } from '../../sim/views';
import type { Language } from '../../store/simStore';
import { EOS_LAYERS, EOS_TRIAD, LEGEND_TEXT } from './eosLayers';

export function EosLayersLegend({ language }: { readonly language: Language }) {
  const t = LEGEND_TEXT[language];
  const ko = language === 'ko';
  return (
    <details className="eos-layers-legend" data-testid="eos-layers-legend" lang={language}>
      <summary>{t.summary}</summary>
      <table className="verdict-table">
        <thead>
          <tr>
            <th scope="col">{t.layer}</th>
            <th scope="col">{t.guarantees}</th>
            <th scope="col">{t.notAutomatic}</th>
            <th scope="col">{t.rows}</th>
          </tr>
        </thead>
        <tbody>
          {EOS_LAYERS.map((l) => (
            <tr key={l.key} data-eos-layer={l.key}>
              <th scope="row">{l.name[language]}</th>
              <td>{l.guarantees[language]}</td>
              <td>{l.notAutomatic[language]}</td>
              <td>{l.rows.map((r) => (ko ? LAYER_NAMES[r][1] : LAYER_NAMES[r][0])).join(', ')}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <h4>{t.triad}</h4>
      <ul data-testid="eos-triad">
        {EOS_TRIAD.map((k) => (
          <li key={k.key} data-knows={k.key}>
            {k.text[language]}
          </li>
        ))}
      </ul>
    </details>
  );
}
