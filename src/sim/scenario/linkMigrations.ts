/**
 * Bringing links made by older versions of EOS Lab up to the current link format.
 *
 * Every version of the link format is `s=<version>.<payload>`, where the payload is the JSON of
 * that version's document, deflate-raw compressed (with that version's preset dictionary, if it
 * had one) and base64url encoded. A migration takes the
 * decoded JSON of version `from` and returns the JSON of version `from + 1`; decodeLink chains them
 * until it reaches LINK_VERSION, then validates the result as if it had been made today. A
 * migration may throw (with a sentence a person can read) when it meets data it cannot convert;
 * decodeLink turns that into an `invalid` error, never an exception.
 *
 * Link format 1 is the first one shipped, so the registry is empty. When format 2 arrives: bump
 * LINK_VERSION in link.ts and add `{ from: 1, to: 2, … }` here. tests/link.test.ts proves the
 * mechanism with a synthetic "format 0" that exists only in that test.
 */

export interface LinkMigration {
  /** The link format this migration reads. */
  readonly from: number;
  /** The link format it produces: always from + 1. */
  readonly to: number;
  /** What changed between the two formats, for the changelog and for error messages. */
  readonly summary: string;
  /** The deflate dictionary format `from` was written with, if any. */
  readonly dictionary?: string;
  readonly migrate: (data: unknown) => unknown;
}

/** Shipped migrations, oldest first. Empty: link format 1 is the first. */
export const LINK_MIGRATIONS: readonly LinkMigration[] = [];

export class LinkMigrationError extends Error {}

export type MigrationOutcome = { ok: true; data: unknown } | { ok: false; message: string };

/** Applies the chain of migrations from `from` up to `target`; reports a gap or a failing step. */
export function migrateLinkData(data: unknown, from: number, target: number, migrations: readonly LinkMigration[]): MigrationOutcome {
  let current = data;
  for (let version = from; version < target; version++) {
    const step = migrations.find((m) => m.from === version && m.to === version + 1);
    if (!step) return { ok: false, message: `no migration from link format ${version} to ${version + 1}` };
    try {
      current = step.migrate(current);
    } catch (e) {
      const reason = e instanceof LinkMigrationError ? e.message : 'its data does not have the shape that format had';
      return { ok: false, message: `converting it from link format ${version} to ${version + 1} failed: ${reason}` };
    }
  }
  return { ok: true, data: current };
}

/** The oldest link format this build can read with these migrations. */
export function oldestReadableVersion(target: number, migrations: readonly LinkMigration[]): number {
  let version = target;
  while (migrations.some((m) => m.from === version - 1 && m.to === version)) version--;
  return version;
}
