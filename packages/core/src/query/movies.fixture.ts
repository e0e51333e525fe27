/**
 * The many-to-many model of 4D's `.query()` page (DataClassClass.md, "Queries in many-to-many
 * relations"): Movie ⇒ roles ⇒ Role → actor → Actor, with its example's answer: the movies with
 * both Hanks and Ryan are "You've Got Mail", "Sleepless in Seattle" and "Joe Versus the Volcano".
 * Actor's `fee` is not exposed (REST may not name it, not even through a placeholder).
 */
import type { DataFile } from '../store/load-data.js'
import type { ModelJson } from '../schema/model-json.js'

export const MOVIES_MODEL: ModelJson = {
  dataClasses: [
    {
      name: 'Movie',
      attributes: [
        { name: 'ID', type: 'long' },
        { name: 'title', type: 'string' },
        { name: 'year', type: 'long' },
        { name: 'roles', kind: 'relatedEntities', path: 'movie' },
      ],
    },
    {
      name: 'Role',
      attributes: [
        { name: 'ID', type: 'long' },
        { name: 'character', type: 'string' },
        { name: 'movie', kind: 'relatedEntity', path: 'Movie' },
        { name: 'actor', kind: 'relatedEntity', path: 'Actor' },
      ],
    },
    {
      name: 'Actor',
      attributes: [
        { name: 'ID', type: 'long' },
        { name: 'lastName', type: 'string' },
        { name: 'firstName', type: 'string' },
        { name: 'fee', type: 'number', scope: 'public', exposed: false },
        { name: 'roles', kind: 'relatedEntities', path: 'actor' },
      ],
    },
  ],
}

const HANKS = 1
const RYAN = 2
const CRYSTAL = 3

export function moviesData(): DataFile {
  let role = 0
  const cast = (movie: number, ...parts: [number, string][]) =>
    parts.map(([actor, character]) => ({ ID: ++role, character, movie, actor }))
  return {
    Movie: [
      { ID: 1, title: "You've Got Mail", year: 1998 },
      { ID: 2, title: 'Sleepless in Seattle', year: 1993 },
      { ID: 3, title: 'Big', year: 1988 },
      { ID: 4, title: 'When Harry Met Sally', year: 1989 },
      { ID: 5, title: 'Joe Versus the Volcano', year: 1990 },
    ],
    Actor: [
      { ID: HANKS, lastName: 'Hanks', firstName: 'Tom', fee: 20 },
      { ID: RYAN, lastName: 'Ryan', firstName: 'Meg', fee: 15 },
      { ID: CRYSTAL, lastName: 'Crystal', firstName: 'Billy', fee: 10 },
    ],
    Role: [
      ...cast(1, [HANKS, 'Joe Fox'], [RYAN, 'Kathleen Kelly']),
      ...cast(2, [HANKS, 'Sam Baldwin'], [RYAN, 'Annie Reed']),
      ...cast(3, [HANKS, 'Josh Baskin']),
      ...cast(4, [CRYSTAL, 'Harry Burns'], [RYAN, 'Sally Albright']),
      ...cast(5, [HANKS, 'Joe Banks'], [RYAN, 'DeDe']),
    ],
  }
}
