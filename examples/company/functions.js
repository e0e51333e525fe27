// @ts-check
/**
 * The company demo's class functions (4D's ORDA classes), one of each kind, served with the demo by
 * `npm start`:
 *
 *   entistore serve -m examples/company/model.json -d examples/company/data.json -f examples/company/functions.js
 *
 * Plain JavaScript (JSDoc for the types), so that every Node the CLI runs on imports it. Only the
 * functions marked `exposed` answer over REST; `onHTTPGet` ones answer GET as well as POST.
 *
 *   GET  /rest/$catalog/appInfo                          the datastore: counts by dataclass
 *   POST /rest/Employee/highEarners  [140000]            a dataclass: the employees earning that much or more
 *   POST /rest/Employee(3)/raise     [5]                 an entity: 5 % more, saved, the entity returned
 *   GET  /rest/Employee/payroll?$filter="employer.ID=1"  an entity selection: count, total and average salary
 *   GET  /rest/$singleton/Stats/status                   a singleton: the function calls served since start
 *
 * `Stats.count`, not exposed, is called by the others: code may call any function, REST only the
 * exposed ones. Employee's `validateSave` event refuses a negative salary, whoever saves it.
 */
import { currentCall, defineFunctions, singleton } from 'entistore'

/** Counts the call running now in the Stats singleton (through its private function). */
function counted() {
  currentCall()?.datastore.singleton('Stats').call('count')
}

export default defineFunctions({
  dataStore: {
    /** `{ name, dataClasses: { Company: 24, … } }` */
    appInfo: {
      exposed: true,
      onHTTPGet: true,
      call() {
        counted()
        return {
          name: this.name,
          dataClasses: Object.fromEntries(this.dataClasses.map((dc) => [dc.name, dc.getCount()])),
        }
      },
    },
  },
  dataClasses: {
    Employee: {
      dataClass: {
        /** The employees earning `min` or more, the best paid first. */
        highEarners: {
          exposed: true,
          params: ['number'],
          /** @param {number} min */
          call(min) {
            counted()
            return this.query('salary >= :1 order by salary desc, ID', min)
          },
        },
      },
      // An ORDA entity event (4D 21): every save of an Employee, from REST or from code, is
      // checked here first; returning an error object refuses it (400, this errCode, DBEV).
      events: {
        /** @this {import('entistore').EntityDraft} */
        validateSave() {
          const salary = /** @type {number | null} */ (this.get('salary'))
          if (salary !== null && salary < 0)
            return { errCode: 2, message: `A salary is never negative (${salary})` }
        },
      },
      entity: {
        /** Raises the salary by `percent` (from -50 to 100), saves, returns the entity. */
        raise: {
          exposed: true,
          params: ['number'],
          /** @param {number} percent */
          call(percent) {
            counted()
            if (percent < -50 || percent > 100)
              // 4D's way of failing with a code of one's own: a 422 with this errCode.
              throw {
                errCode: 1,
                message: 'percent must be from -50 to 100',
                componentSignature: 'demo',
              }
            const salary = /** @type {number | null} */ (this.get('salary')) ?? 0
            return this.edit({ salary: Math.round(salary * (1 + percent / 100)) }).saveOrFail()
          },
        },
      },
      entitySelection: {
        /** `{ count, total, average }` of the salaries of the selection (all, or $filter's). */
        payroll: {
          exposed: true,
          onHTTPGet: true,
          call() {
            counted()
            const average = this.average('salary')
            return {
              count: this.length,
              total: this.sum('salary'),
              average: average === null ? null : Math.round(average * 100) / 100,
            }
          },
        },
      },
    },
  },
  singletons: {
    /** Made on first use, kept as long as the server serves this data. */
    Stats: singleton(() => ({ calls: 0 }), {
      /** `{ calls }`: the function calls served since start, this one included. */
      status: {
        exposed: true,
        onHTTPGet: true,
        call() {
          counted()
          return { calls: this.calls }
        },
      },
      /** Private: not in the catalog, refused over REST; the other functions call it. */
      count: {
        call() {
          this.calls++
        },
      },
    }),
  },
})
