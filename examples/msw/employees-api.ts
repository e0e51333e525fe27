/**
 * A front end's calls to a 4D server's REST interface, as an app writes them: nothing here knows
 * of Entistore or MSW. The test beside it answers them with `entistore/msw`, no server running.
 */
export interface Employee {
  readonly ID: number
  readonly firstName: string
  readonly lastName: string
  readonly salary: number
}

type Page = { __COUNT: number; __ENTITIES: Employee[] }

/** The 4D REST interface's error body: any reply holding `__ERROR` is an error, whatever its status. */
async function read<T>(reply: Response): Promise<T> {
  const body = (await reply.json()) as T & { __ERROR?: { message: string }[] }
  if (body.__ERROR) throw new Error(`${reply.status}: ${body.__ERROR[0]!.message}`)
  return body
}

export class EmployeesApi {
  constructor(private readonly baseUrl: string) {}

  #fetch(path: string, init?: RequestInit): Promise<Response> {
    return fetch(`${this.baseUrl}${path}`, {
      ...init,
      headers: { 'content-type': 'application/json', ...init?.headers },
    })
  }

  async logIn(user: string, password: string): Promise<void> {
    await read(
      await this.#fetch('/rest/$directory/login', {
        method: 'POST',
        body: '{}',
        headers: { 'username-4D': user, 'password-4D': password },
      }),
    )
  }

  /** The `n` best paid employees. */
  async topEarners(n: number): Promise<Employee[]> {
    const page = await read<Page>(
      await this.#fetch(`/rest/Employee?$orderby="salary desc"&$top=${n}`),
    )
    return page.__ENTITIES
  }

  /** How many employees earn at least `salary`. */
  async countEarning(salary: number): Promise<number> {
    const filter = encodeURIComponent(`"salary>=${salary}"`)
    return (await read<Page>(await this.#fetch(`/rest/Employee?$filter=${filter}&$top=0`))).__COUNT
  }

  /** Hires someone: the entity as the server saved it (its key, its stamp). */
  async hire(person: Omit<Employee, 'ID'>): Promise<Employee & { __KEY: string }> {
    return read(
      await this.#fetch('/rest/Employee?$method=update', {
        method: 'POST',
        body: JSON.stringify(person),
      }),
    )
  }
}
