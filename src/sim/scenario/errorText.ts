/**
 * A scenario error's or a link error's message in the reader's language. A module of its own, so that
 * the page's first stage (src/shell/) and the embed read it without the validator.
 */

/**
 * The message in the reader's language (English when no Korean is written), as plain text. A Korean
 * message that quotes Kafka's own text ends with it; pages that can mark it up use `errorParts`.
 */
export function errorText(
  e: { readonly message: string; readonly ko?: string | undefined; readonly quote?: string | undefined },
  language: 'en' | 'ko',
): string {
  const p = errorParts(e, language);
  return p.quote ? `${p.text} ${p.quote}` : p.text;
}

/** The sentence in the reader's language, and Kafka's own English text to show after it (in code, untranslated). */
export function errorParts(
  e: { readonly message: string; readonly ko?: string | undefined; readonly quote?: string | undefined },
  language: 'en' | 'ko',
): { readonly text: string; readonly quote?: string } {
  if (language === 'ko' && e.ko) return e.quote ? { text: e.ko, quote: e.quote } : { text: e.ko };
  return { text: e.message };
}
