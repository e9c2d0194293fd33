/** The problems found in a link, each at its path in the document, in the reader's language (as text, never HTML). */
import type { ScenarioError } from '../sim';
import { ErrorMessage } from './ErrorMessage';

export function PathErrors({ details, language }: { readonly details: readonly ScenarioError[]; readonly language: 'en' | 'ko' }) {
  return (
    <ul className="eos-path-errors">
      {details.map((d) => (
        <li key={`${d.path}:${d.message}`}>
          <code>{d.path}</code>: <ErrorMessage error={d} language={language} />
        </li>
      ))}
    </ul>
  );
}
