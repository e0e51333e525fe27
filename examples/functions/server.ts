/**
 * Class functions in TypeScript, typed by the model: `defineFunctions<Model>` gives each function's
 * `this` the company demo's types (examples/typed-api/model-types.ts, written by `entistore
 * types`), so that `this.get('salary')` is a `number | null` and a misspelled attribute does not
 * compile. Served with `serve()` on the demo's model and data:
 *
 *   npx tsx --conditions=source examples/functions/server.ts     # http://127.0.0.1:8080/rest
 */
import { fileURLToPath } from 'node:url'
import {
  defineFunctions,
  loadDatastoreFiles,
  OutgoingMessage,
  serve,
  singleton,
  type RunningServer,
} from 'entistore'
import type { Model } from '../typed-api/model-types.ts'

/** Quotes a CSV field when it needs it. */
const csvField = (value: unknown): string => {
  const text = value === null || value === undefined ? '' : String(value)
  return /[",\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text
}

export const functions = defineFunctions<Model>({
  // cs.DataStore: `this` is the datastore, its dataclasses typed (`this.Company`).
  dataStore: {
    /** GET /rest/$catalog/headcount */
    headcount: {
      exposed: true,
      onHTTPGet: true,
      call() {
        return { companies: this.Company.length, employees: this.Employee.length }
      },
    },
  },
  dataClasses: {
    Company: {
      // cs.Company: `this` is the dataclass.
      dataClass: {
        /** GET /rest/Company/inCountry?$params='["France"]': a selection, read with $top, $attributes… */
        inCountry: {
          exposed: true,
          onHTTPGet: true,
          params: ['string'],
          call(country: string) {
            return this.query('country = :1 order by name', country)
          },
        },
      },
      // cs.CompanyEntity: `this` is the entity.
      entity: {
        /** POST /rest/Company(1)/hire ["Grace", "Hopper", 5000]: a new employee of this company. */
        hire: {
          exposed: true,
          params: ['string', 'string', 'number'],
          call(firstName: string, lastName: string, salary: number) {
            if (salary <= 0)
              // 4D's way of failing with a code of one's own: a 422 with this errCode.
              throw {
                errCode: 2,
                message: 'the salary must be positive',
                componentSignature: 'demo',
              }
            return this.dataClass.datastore
              .dataClass('Employee')
              .create({ firstName, lastName, salary, employer: this.key })
          },
        },
      },
    },
    Employee: {
      // cs.EmployeeSelection: `this` is the entity selection (every employee, or $filter's).
      entitySelection: {
        /** GET /rest/Employee/csv?$filter="employer.ID=1": a file to download, not JSON. */
        csv: {
          exposed: true,
          onHTTPGet: true,
          call() {
            const rows = this.toArray().map((e) =>
              [e.get('ID'), e.get('lastName'), e.get('firstName'), e.get('salary')]
                .map(csvField)
                .join(','),
            )
            return new OutgoingMessage()
              .setBody(['ID,lastName,firstName,salary', ...rows].join('\n') + '\n')
              .setHeader('Content-Type', 'text/csv; charset=utf-8')
              .setHeader('Content-Disposition', 'attachment; filename="employees.csv"')
          },
        },
      },
    },
  },
  // A shared singleton: its state, made on first use, is `this` (typed from `singleton`'s first argument).
  singletons: {
    Visits: singleton(() => ({ count: 0 }), {
      /** GET /rest/$singleton/Visits/hit */
      hit: {
        exposed: true,
        onHTTPGet: true,
        call() {
          return { count: ++this.count }
        },
      },
    }),
  },
})

/** Starts the server (port 0: a free one). */
export async function start(port = 8080): Promise<RunningServer> {
  const here = (name: string): string =>
    fileURLToPath(new URL(`../company/${name}`, import.meta.url))
  const ds = await loadDatastoreFiles({
    model: here('model.json'),
    data: here('data.json'),
    functions,
  })
  return serve(ds, { port })
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const server = await start(Number(process.env.PORT ?? 8080))
  console.log(`Entistore with class functions at ${server.url}/rest/$catalog`)
}
