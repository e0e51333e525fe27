// @ts-check
/**
 * The JavaScript half of the web-server test project: the shared singleton `JsHandling`, whose
 * `hello` answers `GET /js/…` (HTTPHandlers.json names it beside the 4D class GeneralHandling).
 * A handler in a functions module is a singleton function like any other; it need not be exposed.
 */
import { OutgoingMessage, singleton } from 'entistore'

export default {
  singletons: {
    JsHandling: singleton(() => ({ calls: 0 }), {
      hello: {
        /** @param {import('entistore').IncomingMessage} request */
        call(request) {
          this.calls++
          return new OutgoingMessage()
            .setBody(
              `hello ${request.urlQuery.name ?? 'nobody'} (${request.verb}, call ${this.calls})`,
            )
            .setHeader('Cache-Control', 'no-store')
        },
      },
    }),
  },
}
