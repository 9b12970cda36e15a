// A full garbage collection of this thread's heap, on purpose. A dropped region's routing memory (a shared
// WebAssembly.Memory, hundreds of MB outside the heap) is freed only once every thread's last object referencing it
// is collected, and the few small objects that do are found only by a major collection, which a quiet heap may not
// run for hours (measured: three replacements of a 98 MB region left RSS 300 MB up). Node exposes the collector only
// behind --expose-gc; the flag can be set at run time, and a new context then has `gc` (it collects the whole isolate).
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

let collect: (() => void) | undefined;

/** Collects this thread's heap now (tens of ms on a small heap): only after dropping something large and rare. */
export function collectGarbage(): void {
  if (!collect) {
    const exposed = (globalThis as { gc?: () => void }).gc;
    if (exposed) collect = exposed;
    else {
      setFlagsFromString('--expose-gc');
      collect = runInNewContext('gc') as () => void;
    }
  }
  collect();
}
