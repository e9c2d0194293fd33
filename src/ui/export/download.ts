/** Saving a file from the page: a Blob URL and a temporary link, revoked after the click. No network. */
export function downloadBlob(blob: Blob, filename: string): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = filename;
  a.rel = 'noopener';
  a.style.display = 'none';
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

export function downloadText(text: string, filename: string, type: string): void {
  downloadBlob(new Blob([text], { type }), filename);
}

/** A file name from a scenario id or title: lower-case letters, digits and dashes. */
export function fileStem(name: string | undefined, step?: number): string {
  const stem =
    (name ?? 'scenario')
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 60) || 'scenario';
  return step === undefined ? `eos-lab-${stem}` : `eos-lab-${stem}-step-${step}`;
}
