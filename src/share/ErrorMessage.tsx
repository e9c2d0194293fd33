/**
 * One error's message in the reader's language. In Korean, a message that quotes Kafka's own text
 * (a ConfigException, as Kafka's log prints it) is a Korean sentence followed by that text in code,
 * in English and marked not to be translated: it is what a person will search for in a log.
 */
import { errorParts } from '../sim/views';

export function ErrorMessage({
  error,
  language,
}: {
  readonly error: { readonly message: string; readonly ko?: string | undefined; readonly quote?: string | undefined };
  readonly language: 'en' | 'ko';
}) {
  const p = errorParts(error, language);
  // a message with no Korean (a simulator's English-only sentence) stays marked as English on a Korean page
  if (language === 'ko' && !error.ko) return <span lang="en">{p.text}</span>;
  if (!p.quote) return <>{p.text}</>;
  return (
    <>
      {p.text}{' '}
      <code className="eos-kafka-quote" lang="en" translate="no" data-testid="kafka-quote">
        {p.quote}
      </code>
    </>
  );
}
