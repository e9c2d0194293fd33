/**
 * Text with a line-break opportunity after every underscore: Kafka's error codes and state names
 * (OUT_OF_ORDER_SEQUENCE_NUMBER, PREPARING_REBALANCE) have no spaces, and in a narrow card the
 * browser would otherwise cut them mid-word ("OUT_OF_ORDER_SEQU / ENCE_NUMBER"). With a <wbr> after
 * each "_", a line breaks between words, and `overflow-wrap: anywhere` is left for a single word
 * wider than the card.
 */
import { Fragment, type ReactNode } from 'react';

/** The text split after each underscore, with <wbr> between the parts (the text itself when it has none). */
export function wrapAtUnderscores(text: string): ReactNode {
  if (!text.includes('_')) return text;
  const parts = text.split(/(?<=_)/);
  return parts.map((part, i) => (
    // the parts of one string, in order: their place is their identity
    // biome-ignore lint/suspicious/noArrayIndexKey: see above
    <Fragment key={i}>
      {i > 0 && <wbr />}
      {part}
    </Fragment>
  ));
}
