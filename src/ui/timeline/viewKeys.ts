/**
 * The keys both timeline views share, whatever they show: Enter or space selects the focused mark,
 * Escape clears the selection, + and −
 * zoom by one step, 0 fits the whole run to the width. Moving between marks is each view's own.
 */

/** One press of + or − (and of the toolbar's buttons) zooms by this factor. */
export const ZOOM_STEP = 1.6;

export type ViewKeyAction =
  | { readonly kind: 'select' }
  | { readonly kind: 'deselect' }
  | { readonly kind: 'zoom'; readonly factor: number }
  | { readonly kind: 'fit' };

export function viewKeyAction(key: string): ViewKeyAction | null {
  switch (key) {
    case 'Enter':
    case ' ':
      return { kind: 'select' };
    case 'Escape':
      return { kind: 'deselect' };
    case '+':
    case '=':
      return { kind: 'zoom', factor: ZOOM_STEP };
    case '-':
    case '_':
      return { kind: 'zoom', factor: 1 / ZOOM_STEP };
    case '0':
      return { kind: 'fit' };
    default:
      return null;
  }
}
