/**
 * The only platform globals the engine uses: ones that Node and every browser both provide. The
 * engine's tsconfig (src/sim/tsconfig.json) has neither DOM nor Node types, so these are declared
 * here, and nothing else is.
 */
declare class TextEncoder {
  encode(input?: string): Uint8Array;
}
declare class TextDecoder {
  constructor(label?: string, options?: { fatal?: boolean; ignoreBOM?: boolean });
  decode(input?: ArrayBufferView | ArrayBuffer, options?: { stream?: boolean }): string;
}
declare function structuredClone<T>(value: T): T;
