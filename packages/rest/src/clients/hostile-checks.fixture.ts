/**
 * The assertions the attacks on the hostile application (hostile-app.fixture.ts) share: nothing a
 * user may not see is in an answer, and a refusal is the status and code expected.
 */
import { expect } from 'vitest'
import { leakedCanaries, type Answer } from './hostile-app.fixture.js'

/** What `name` may not see is not in `answer`, anywhere: body and headers. */
export function clean(answer: Answer, name: string): Answer {
  const headers = [...answer.headers].map(([k, v]) => `${k}: ${v}`).join('\n')
  expect(leakedCanaries(`${answer.text}\n${headers}`, name)).toEqual([])
  return answer
}

/** `answer` is a refusal with `status` and `errCode`. */
export const refused = (answer: Answer, status: number, errCode: number): void => {
  expect({ status: answer.status, errCode: answer.errCode }).toEqual({ status, errCode })
}
