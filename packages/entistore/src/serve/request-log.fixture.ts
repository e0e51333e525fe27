/** A request log's entry for tests: a GET of an employee by ada, with `more` changed. */
import type { RequestLogEntry } from './request-log.js'

export const logEntry = (more: Partial<RequestLogEntry> = {}): RequestLogEntry => ({
  at: Date.UTC(2026, 10, 23, 10),
  method: 'GET',
  target: '/rest/Employee(1)',
  status: 200,
  ms: 0.4123,
  bytes: 312,
  user: 'ada',
  complete: true,
  ...more,
})
