/** The few LokiJS 1.5 calls the peer benchmark makes (the package ships no types). */
declare module 'lokijs' {
  interface CollectionOptions {
    unique?: string[]
    indices?: string[]
    adaptiveBinaryIndices?: boolean
    disableMeta?: boolean
    clone?: boolean
  }

  class Resultset<T> {
    find(query: object): Resultset<T>
    simplesort(property: string, options?: { desc?: boolean }): Resultset<T>
    limit(n: number): Resultset<T>
    data(): T[]
  }

  class Collection<T extends object> {
    insert(docs: T[]): T[]
    by(field: string, value: unknown): T | undefined
    update(doc: T): T
    avg(field: string): number
    mapReduce<M, R>(map: (doc: T) => M, reduce: (values: M[]) => R): R
    find(query?: object): T[]
    chain(): Resultset<T>
    ensureAllIndexes(force?: boolean): void
    count(): number
  }

  class Loki {
    constructor(filename: string, options?: object)
    addCollection<T extends object>(name: string, options?: CollectionOptions): Collection<T>
  }

  export = Loki
}
