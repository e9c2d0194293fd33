/**
 * Interned names (actor ids, states, labels, RPCs, connections): the recorder's columns hold their
 * ids, and the traceHash folds their content hashes, computed once per name.
 */
export class NameTable {
  readonly names: string[] = [];
  readonly hashes: number[] = [];
  private readonly ids = new Map<string, number>();

  constructor(private readonly hashOf: (s: string) => number) {}

  id(name: string): number {
    let id = this.ids.get(name);
    if (id === undefined) {
      id = this.names.length;
      this.names.push(name);
      this.hashes.push(this.hashOf(name));
      this.ids.set(name, id);
    }
    return id;
  }

  name(id: number): string {
    return this.names[id] as string;
  }
}
