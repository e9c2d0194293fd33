/** The notes panel: the articles' points a run cannot show (versions, no XA, compensation, cost, one broker). */
import type { Language } from '../../store/simStore';
import { EOS_NOTES, NOTES_TEXT } from './eosNotes';

export function EosNotes({ language }: { readonly language: Language }) {
  return (
    <details className="model-notes eos-notes" data-testid="eos-notes" lang={language}>
      <summary>{NOTES_TEXT[language].summary}</summary>
      <dl>
        {EOS_NOTES.map((n) => (
          <div key={n.id} data-note={n.id}>
            <dt>{n.title[language]}</dt>
            <dd>{n.text[language]}</dd>
          </div>
        ))}
      </dl>
    </details>
  );
}
