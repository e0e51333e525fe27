/**
 * @module The paths that are no dataclass's: the catalog, the session's (`$directory`), `$info`,
 * `$upload`, the live feed (`$changes`) and the description itself (`$openapi`).
 */
import type { Paths } from './dataclass-paths.js'
import { errorReplies, json } from './shared-schemas.js'
import { OPEN, ref, type Schema } from './value-schemas.js'

const result = (schema: Schema, description: string): Schema =>
  json(description, {
    type: 'object',
    properties: { result: schema },
    required: ['result'],
    additionalProperties: false,
  })

const header = (name: string, description: string): Schema => ({
  name,
  in: 'header',
  schema: { type: 'string' },
  description,
})

/** The service paths under `base`, the catalog listing `names`. */
export function servicePaths(base: string, names: readonly string[]): Paths {
  const catalog = ['catalog']
  const session = ['session']
  const logout = {
    tags: session,
    summary: 'Closes the session (its locks released, its cookie cleared)',
    responses: {
      200: result({ type: 'boolean' }, 'Whether a user was logged in.'),
      ...errorReplies([]),
    },
  }
  return {
    [`${base}/$catalog`]: {
      get: {
        operationId: 'catalog',
        tags: catalog,
        summary: 'The exposed dataclasses, the datastore functions and the singletons',
        responses: { 200: json('The catalog.', ref('rest.Catalog')), ...errorReplies([]) },
      },
    },
    [`${base}/$catalog/$all`]: {
      get: {
        operationId: 'catalog_all',
        tags: catalog,
        summary: 'The catalog, every dataclass with its attributes',
        responses: { 200: json('The catalog.', ref('rest.Catalog')), ...errorReplies([]) },
      },
    },
    [`${base}/$catalog/{dataClass}`]: {
      get: {
        operationId: 'catalog_dataClass',
        tags: catalog,
        summary: 'One dataclass with its attributes and functions',
        parameters: [
          {
            name: 'dataClass',
            in: 'path',
            required: true,
            schema: names.length > 0 ? { enum: [...names] } : { type: 'string' },
          },
        ],
        responses: {
          200: json('The dataclass.', ref('rest.CatalogDataClass')),
          ...errorReplies([403, 404]),
        },
      },
    },
    [`${base}/$directory/login`]: {
      post: {
        operationId: 'login',
        tags: session,
        summary: 'Logs a user in: the session cookie then names a logged-in session',
        description:
          'The server\'s `authenticate` hook checks the credentials; without one, a session without a user is opened. Wakanda\'s body `["user", "password", seconds]` is taken too.',
        parameters: [
          header('username-4D', "the user's name"),
          header('password-4D', 'the password'),
          header('session-4D-length', 'the inactivity timeout, in minutes (at least 60)'),
        ],
        responses: {
          200: result({ const: true }, 'Logged in.'),
          401: result({ const: false }, 'Refused.'),
          ...errorReplies([400, 402]),
        },
      },
    },
    [`${base}/$directory/logout`]: {
      get: { operationId: 'logout_get', ...logout },
      post: { operationId: 'logout', ...logout },
    },
    [`${base}/$directory/currentUser`]: {
      get: {
        operationId: 'currentUser',
        tags: session,
        summary: "The session's user",
        responses: {
          200: result(
            {
              anyOf: [
                {
                  type: 'object',
                  properties: {
                    userName: { type: 'string' },
                    fullName: { type: 'string' },
                    ID: { type: 'string' },
                  },
                },
                { type: 'null' },
              ],
            },
            'The user, or null.',
          ),
          ...errorReplies([]),
        },
      },
    },
    [`${base}/$directory/currentUserBelongsTo`]: {
      post: {
        operationId: 'currentUserBelongsTo',
        tags: session,
        summary: "Whether the session's user belongs to a group",
        requestBody: {
          required: true,
          content: {
            'application/json': {
              schema: {
                type: 'array',
                prefixItems: [{ type: 'string' }],
                minItems: 1,
                items: false,
              },
            },
          },
        },
        responses: { 200: result({ type: 'boolean' }, 'Whether it does.'), ...errorReplies([400]) },
      },
    },
    [`${base}/$info`]: {
      get: {
        operationId: 'info',
        tags: session,
        summary: "The session's entity sets and the session itself",
        responses: { 200: json('What the cache holds.', OPEN), ...errorReplies([401]) },
      },
    },
    [`${base}/$upload`]: {
      post: {
        operationId: 'upload',
        tags: ['files'],
        summary: 'Keeps a file for a later write, which names it by the ID answered',
        parameters: [
          {
            name: '$rawPict',
            in: 'query',
            schema: { type: 'string' },
            description: '`true` (or a media type): a picture',
          },
          {
            name: '$binary',
            in: 'query',
            schema: { type: 'boolean' },
            description: 'any other file',
          },
          {
            name: '$timeout',
            in: 'query',
            schema: { type: 'integer', minimum: 1, maximum: 3600 },
            description: 'how long it is kept, in seconds (120)',
          },
        ],
        requestBody: { required: true, content: { 'application/octet-stream': { schema: {} } } },
        responses: {
          200: json('Kept.', ref('rest.UploadReference')),
          ...errorReplies([400, 401, 413]),
        },
      },
    },
    [`${base}/$changes`]: {
      get: {
        operationId: 'changes',
        tags: ['changes'],
        summary: "The live feed of changes, as server-sent events (Entistore's, not 4D's)",
        parameters: [
          {
            name: '$dataClasses',
            in: 'query',
            schema: { type: 'string' },
            description: 'the dataclasses followed, comma-separated',
          },
          {
            name: '$since',
            in: 'query',
            schema: { type: 'integer', minimum: 0 },
            description: 'the global stamp to resume after',
          },
        ],
        responses: {
          200: {
            description: 'The events.',
            content: { 'text/event-stream': { schema: { type: 'string' } } },
          },
          ...errorReplies([400, 401, 403, 404]),
        },
      },
    },
    [`${base}/$openapi`]: {
      get: {
        operationId: 'openapi',
        tags: catalog,
        summary: "This description (OpenAPI 3.1): Entistore's, not 4D's",
        responses: { 200: json('The description.', OPEN), ...errorReplies([]) },
      },
    },
  }
}
