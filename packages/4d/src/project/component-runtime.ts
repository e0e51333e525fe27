/**
 * @module The running context of a component's code. In 4D a component's code sees its own
 * classes (`cs` is the component's), its own project methods and its own process and interprocess
 * variables, and shares with the host what belongs to the application: `ds` (the host's
 * datastore), `Storage`, the session, the web server, the request's time budget. Its functions
 * enter a running context of their own from their caller's, made once for each caller's context.
 */
import { Runtime } from '../runtime/context/runtime.js'
import type { ClassStore } from '../runtime/context/class-store.js'
import type { MethodRegistry } from '../runtime/context/methods.js'

/** How a component's function finds its running context from its caller's. */
export function componentEntry(
  classes: ClassStore,
  methods: MethodRegistry,
): (rt: Runtime) => Runtime {
  // The component's interprocess variables: one set for all its runs on this datastore.
  const interprocess = new Map<string, unknown>()
  const made = new WeakMap<Runtime, Runtime>()
  return (rt) => {
    if (rt.cs === classes) return rt
    let own = made.get(rt)
    if (own === undefined) {
      own = new Runtime({
        budget: rt.budget,
        clock: rt.clock,
        classes,
        builtinClasses: rt.fourD,
        methods,
        ds: rt.ds,
        session: rt.session,
        webServer: rt.webServer,
        interprocess,
        files: rt.files,
        log: rt.log,
        images: rt.images,
        http: rt.http,
        smtp: rt.smtp,
        exec: rt.exec,
        workers: rt.workers,
        storage: rt.storage,
        compileFormula: rt.compileFormula,
      })
      // One call chain for the process, whichever code runs.
      own.calls = rt.calls
      made.set(rt, own)
    }
    return own
  }
}
