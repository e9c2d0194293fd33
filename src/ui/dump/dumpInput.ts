/**
 * What the page hands the dump worker: a file's text, or — for a file too large for a link — the
 * File itself. A File crosses to the worker as a reference; reading and copying 16 MB of text on the
 * page's thread would block it for a tenth of a second (bench: the dump import's longest task).
 */
import type { DumpSource } from '../../sim';
import { MAX_LINKABLE_TEXT } from './dumpLink';

export interface DumpFile {
  readonly name: string;
  readonly file: Blob;
}

export type DumpInput = DumpSource | DumpFile;

export const isDumpFile = (x: DumpInput): x is DumpFile => 'file' in x;

/** The sources a link can carry: every input's text, or null when one of them is a file kept unread. */
export function linkableSources(inputs: readonly DumpInput[]): DumpSource[] | null {
  return inputs.every((x) => !isDumpFile(x)) ? (inputs as DumpSource[]) : null;
}

/** A file small enough to share as a link is read here (its text makes the link); a larger one is read by the worker. */
export async function fileInput(f: File): Promise<DumpInput> {
  return f.size <= MAX_LINKABLE_TEXT ? { name: f.name, text: await f.text() } : { name: f.name, file: f };
}

/** Every input as text (in the worker, or on the page when there is no worker). */
export function readInputs(inputs: readonly DumpInput[]): Promise<DumpSource[]> {
  return Promise.all(inputs.map(async (x) => (isDumpFile(x) ? { name: x.name, text: await x.file.text() } : x)));
}
