/**
 * The embed's "Open in EOS Lab" link: the full app at the run, step, selection, language and
 * skip-idle setting shown.
 * A share link deflates the whole scenario (several milliseconds), so it is not made on each step
 * while the run plays: the href follows the view once the view rests for REST_MS, and is made at once
 * when the reader reaches for the link (pointer over or down, focus, context menu), before the
 * browser follows or copies it.
 */
import { useEffect, useState } from 'react';
import { linkOf } from '../share/hashSync';
import { type EmbedState, embedStore } from './embedStore';

/** How long the view must rest before the link follows it. */
export const REST_MS = 300;

function hrefOf(s: EmbedState): string {
  const link = linkOf(s);
  return link ? `./${link}` : './';
}

const shown = (s: EmbedState) => [s.scenario, s.step, s.selection, s.language, s.skipIdle] as const;

export function OpenInApp({ label }: { readonly label: string }) {
  const [href, setHref] = useState(() => hrefOf(embedStore.getState()));
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const unsubscribe = embedStore.subscribe((s, before) => {
      const [a, b] = [shown(s), shown(before)];
      if (a.every((v, i) => v === b[i])) return;
      clearTimeout(timer);
      timer = setTimeout(() => setHref(hrefOf(embedStore.getState())), REST_MS);
    });
    return () => {
      unsubscribe();
      clearTimeout(timer);
    };
  }, []);
  // the handler runs before the browser follows (or offers to copy) the link: it gets the view as shown
  const reach = (e: { currentTarget: HTMLAnchorElement }) => {
    const now = hrefOf(embedStore.getState());
    e.currentTarget.setAttribute('href', now);
    setHref(now);
  };
  return (
    <a
      href={href}
      target="_blank"
      rel="noopener noreferrer"
      data-testid="embed-open-app"
      onPointerEnter={reach}
      onPointerDown={reach}
      onFocus={reach}
      onContextMenu={reach}
    >
      {label}
    </a>
  );
}
