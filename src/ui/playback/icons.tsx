/** Transport icons as inline SVG (no icon font or emoji glyph needed; they follow the text colour). */
const PATHS = {
  start: 'M3 3h2v10H3zM14 3v10L6 8z',
  previousNotable: 'M8 3v10L1 8zM15 3v10L8 8z',
  back: 'M12 3v10L4 8z',
  play: 'M4 3v10l9-5z',
  pause: 'M4 3h3v10H4zM9 3h3v10H9z',
  forward: 'M4 3v10l8-5zM12 3h2v10h-2z',
  nextNotable: 'M1 3v10l7-5zM8 3v10l7-5z',
  end: 'M2 3v10l8-5zM11 3h2v10h-2z',
} as const;

export type IconName = keyof typeof PATHS;

/** `inline`: sized to the text around it (1em) and set on its line, rather than a button's block. */
export function Icon({ name, inline = false }: { readonly name: IconName; readonly inline?: boolean }) {
  return (
    <svg
      className={inline ? 'icon icon-inline' : 'icon'}
      viewBox="0 0 16 16"
      width={inline ? '1em' : '14'}
      height={inline ? '1em' : '14'}
      aria-hidden="true"
      focusable="false"
    >
      <path d={PATHS[name]} fill="currentColor" />
    </svg>
  );
}
