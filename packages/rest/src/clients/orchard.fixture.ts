/**
 * @module For tests: the orchard of Wakanda's dialect tests (wakanda.test.ts, in process) and of
 * the real clients' flows against three workers (entistore's cluster/clients-cluster.test.ts):
 * farms with a picture and trees, trees with a relation and a calculated label, visits with uuid
 * keys. Test-only.
 */
import type { DataFile, ModelJson } from '@entistore/core'

export const ORCHARD_MODEL: ModelJson = {
  __NAME: 'orchard',
  dataClasses: [
    {
      name: 'Farm',
      attributes: [
        { name: 'ID', type: 'long', autosequence: true },
        { name: 'name', type: 'string' },
        { name: 'logo', type: 'image' },
        { name: 'trees', kind: 'relatedEntities', path: 'farm' },
      ],
    },
    {
      name: 'Tree',
      attributes: [
        { name: 'ID', type: 'long', autosequence: true },
        { name: 'species', type: 'string' },
        { name: 'age', type: 'long' },
        { name: 'farmID', type: 'long' },
        { name: 'farm', kind: 'relatedEntity', path: 'Farm', foreignKey: 'farmID' },
        { name: 'label', kind: 'calculated', type: 'string' },
      ],
    },
    {
      name: 'Visit',
      attributes: [
        { name: 'ID', type: 'uuid' },
        { name: 'note', type: 'string' },
      ],
    },
  ],
}

/** A 1×1 PNG: a farm's logo, a picture to clear. */
export const PNG =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=='

/** Two farms (the first with a logo) and three trees, as a new object each call (tests write). */
export const orchardData = (): DataFile => ({
  Farm: [
    { ID: 1, name: 'Acme Farms', logo: { $base64: PNG, type: 'image/png' } },
    { ID: 2, name: 'Zeta Farms' },
  ],
  Tree: [
    { ID: 1, species: 'Oak', age: 120, farmID: 1 },
    { ID: 2, species: 'Elm', age: 8, farmID: 1 },
    { ID: 3, species: 'Ash', age: 60, farmID: 2 },
  ],
})
