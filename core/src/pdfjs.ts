/**
 * pdf.js for Node 20 is its legacy build, which bundles core-js polyfills.
 * Some of them do not only add what Node lacks (Promise.withResolvers,
 * Uint8Array.prototype.toHex, …): they *replace* built-ins Node already has
 * — JSON.stringify and JSON.parse (for JSON.rawJSON and parse-with-source,
 * which Node 20 does not have) and Array.prototype.push — with JavaScript
 * versions many times slower. Imported at the top of a module, that made
 * every JSON answer, log line, query result and Redis message of the whole
 * process pay for them.
 *
 * loadPdfJs() imports pdf.js on first use only and then puts back every
 * built-in it replaced, keeping only what it added. pdf.js uses none of the
 * replaced behaviour (raw JSON, source text in revivers).
 */
type PdfJs = typeof import('pdfjs-dist/legacy/build/pdf.mjs');

const TypedArray = Object.getPrototypeOf(Uint8Array) as object;
/** The built-ins whose own properties are kept as Node made them. */
const GUARDED: object[] = [
  JSON, Math, Reflect, Object, Object.prototype, Function.prototype, Array, Array.prototype, String, String.prototype,
  Number, Number.prototype, Boolean.prototype, Symbol, Symbol.prototype, Promise, Promise.prototype, Map, Map.prototype,
  Set, Set.prototype, WeakMap.prototype, WeakSet.prototype, RegExp, RegExp.prototype, Date, Date.prototype, Error,
  Error.prototype, ArrayBuffer, ArrayBuffer.prototype, DataView.prototype, TypedArray, (TypedArray as { prototype: object }).prototype,
  Uint8Array, Uint8Array.prototype, Buffer, Buffer.prototype,
];

type Snapshot = Map<object, Map<PropertyKey, PropertyDescriptor>>;

function snapshot(): Snapshot {
  const all: Snapshot = new Map();
  for (const o of GUARDED) {
    const own = new Map<PropertyKey, PropertyDescriptor>();
    for (const key of Reflect.ownKeys(o)) own.set(key, Object.getOwnPropertyDescriptor(o, key)!);
    all.set(o, own);
  }
  return all;
}

const sameDescriptor = (a: PropertyDescriptor, b: PropertyDescriptor | undefined) =>
  !!b && Object.is(a.value, b.value) && a.get === b.get && a.set === b.set;

/** Puts back each built-in that was replaced since the snapshot; returns their names. */
export function restoreBuiltins(before: Snapshot): string[] {
  const restored: string[] = [];
  for (const [o, own] of before) {
    for (const [key, descriptor] of own) {
      if (sameDescriptor(descriptor, Object.getOwnPropertyDescriptor(o, key))) continue;
      Object.defineProperty(o, key, descriptor);
      restored.push(String(key));
    }
  }
  return restored;
}

let loading: Promise<PdfJs> | null = null;

/** pdf.js's legacy build, imported once, leaving Node's built-ins as they were. */
export function loadPdfJs(): Promise<PdfJs> {
  loading ??= (async () => {
    const before = snapshot();
    try {
      const pdfjs = await import('pdfjs-dist/legacy/build/pdf.mjs');
      // pdf.js in Node runs its "worker" in this thread and would import it (and its polyfills) at the
      // first document; importing it here, where the built-ins are put back afterwards, avoids that.
      const workerModule = 'pdfjs-dist/legacy/build/pdf.worker.mjs'; // (pdf.js ships no types for it)
      (globalThis as { pdfjsWorker?: unknown }).pdfjsWorker ??= (await import(workerModule)) as unknown;
      return pdfjs;
    } finally {
      restoreBuiltins(before);
    }
  })();
  return loading;
}
