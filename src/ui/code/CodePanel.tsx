/**
 * The Java a reader would write for the open scenario, client by client (javaCode): the articles'
 * snippets beside the preset that runs them. Rendered as text in <pre>, never as HTML.
 */
import { useMemo } from 'react';
import './code.css';
import type { Scenario } from '../../sim';
import type { Language } from '../../store/simStore';
import { javaCode } from './javaCode';

const TEXT = {
  en: { summary: 'The code: what you would write for these clients (Java)', client: 'client' },
  ko: { summary: '코드: 이 클라이언트들을 위해 작성할 Java 코드', client: '클라이언트' },
} as const;

export function CodePanel({ scenario, language }: { readonly scenario: Scenario; readonly language: Language }) {
  const code = useMemo(() => javaCode(scenario, language), [scenario, language]);
  const t = TEXT[language];
  return (
    <details className="model-notes code-panel" data-testid="code-panel" lang={language}>
      <summary>{t.summary}</summary>
      {code.map((c) => (
        <section key={c.client} data-client={c.client} data-kind={c.kind}>
          <h4>
            <code>{c.client}</code> ({c.kind})
          </h4>
          <pre lang="en">
            <code>{c.code}</code>
          </pre>
        </section>
      ))}
    </details>
  );
}
