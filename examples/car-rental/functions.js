// The car-rental project's class functions in JavaScript, by the names its .4dm files declare
// (Project/Sources/Classes). Served with
//   entistore serve --project examples/car-rental --data examples/car-rental/csv --functions examples/car-rental/functions.js
// Exposure comes from the .4dm declarations (`exposed Function`): not repeated here. The class
// files' own 4D code runs for every function not given here (sayHello, stats, Car's book…); a
// function given here wins over the class file's of the same name.
import { currentCall, defineFunctions } from 'entistore'

export default defineFunctions({
  dataStore: {
    appInfo: {
      call() {
        return { name: this.name, dataClasses: this.dataClasses.length }
      },
    },
  },
  dataClasses: {
    Car: {
      dataClass: {
        /** The active cars not rented between `from` and `to` (YYYY-MM-DD). */
        available: {
          params: ['string', 'string'],
          call(from, to) {
            const rentals = this.datastore.dataClass('Rental')
            const busy = rentals.query('startDate <= :1 and endDate >= :2', to, from)
            const cars = busy.toArray().map((r) => r.get('carID'))
            const active = this.query('active = true')
            return cars.length === 0 ? active : active.minus(this.query('ID in :1', cars))
          },
        },
      },
    },
  },
  singletons: {
    Pricing: {
      functions: {
        /** The price of `days` days of car `carID`, at its category's daily rate. */
        quote: {
          params: ['integer', 'integer'],
          call(carID, days) {
            const car = currentCall()?.datastore.dataClass('Car').get(carID)
            const rate = car?.get('model')?.get('category')?.get('dailyRate')
            return typeof rate === 'number' ? rate * days : null
          },
        },
      },
    },
  },
})
