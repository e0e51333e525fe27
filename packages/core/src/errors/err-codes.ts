/**
 * @module The one table of every error Entistore reports: its 4D `errCode`, `componentSignature`,
 * a category the transport maps to a status, and the message.
 *
 * Codes come from the real server where it is known (4D docs examples, the Wakanda `dbmg` REST
 * codes 1800–1820 and entity-model codes 1500–1611). Where the real server's code is not public,
 * the error gets a code in Entistore's own 9000 range with `componentSignature: 'enti'`, so a client
 * can tell a documented 4D code from our choice. `docs/errors.md` lists the table.
 *
 * Messages keep 4D's wording where it is known (clients match on them), including its quirks.
 * An unknown name's message may end with the known names close to it (`known`: the names the
 * caller may see), after 4D's wording: ` (did you mean "lastName"?)`.
 */
import { didYouMean } from './closest-name.js'

/** What kind of failure an error is. The REST adapter maps it to an HTTP status; the core never does. */
export type ErrorCategory =
  | 'badRequest' // the request or the value is malformed
  | 'notFound' // a named thing does not exist (dataclass, attribute, entity, entity set)
  | 'conflict' // the data changed under the caller (stamps, uniqueness, locks)
  | 'forbidden' // the session may not do this
  | 'notImplemented' // a documented feature this version does not provide yet
  | 'methodNotAllowed' // the resource exists but not for this request method
  | 'limit' // a configured limit was reached
  | 'bodyTooLarge' // the request body is larger than the transport accepts
  | 'headersTooLarge' // the request line and headers are larger than the transport accepts
  | 'unsupportedMediaType' // the request body is not of a type the interface reads
  | 'quota' // a configured quota is reached (too many entity sets): try again later
  | 'unauthorized' // the session has no logged-in user, or the user may not do this
  | 'sessionLimit' // no more sessions can be opened (the real server's licence limit)
  | 'unavailable' // the server will not answer this request now: try again
  | 'tooManyRequests' // this client asked too often (failed logins): wait `details.retryAfter` s
  | 'requestTimeout' // the client took too long to send its request
  | 'timeout' // the server's own work (an async class function) took longer than its time limit
  | 'failed' // the application's own code (a class function) threw: its message is for the client
  | 'internal' // a bug: never raised for user input

interface ErrorSpec<A extends unknown[]> {
  readonly errCode: number
  readonly componentSignature: 'dbmg' | 'enti'
  readonly category: ErrorCategory
  readonly message: (...args: A) => string
}

const spec = <A extends unknown[]>(
  errCode: number,
  componentSignature: 'dbmg' | 'enti',
  category: ErrorCategory,
  message: (...args: A) => string,
): ErrorSpec<A> => ({ errCode, componentSignature, category, message })

/**
 * A name or value from the request, quoted. Cut at 100 characters: a message must stay readable
 * (and small) when a client sends a 100 KB attribute name or key.
 */
const q = (s: unknown): string => {
  const text = String(s)
  return `"${text.length > 100 ? `${text.slice(0, 100)}…` : text}"`
}

/** Why an Entity is not written in place, and where to write instead (9161, 9162). */
const THROUGH_A_DRAFT =
  'an entity is a saved version that every reader shares; change it through a draft'

export const ERRORS = {
  // ---- 4D entity-model codes (1500–1611) ----
  /** Wording from the real server (Qodly docs), capital "The" included. */
  AttributeNotFound: spec(
    1500,
    'dbmg',
    'notFound',
    (attribute: string, dataClass: string, known: Iterable<string> = []) =>
      `The ${q(attribute)} attribute cannot be found in The ${q(dataClass)} dataclass${didYouMean(attribute, known)}`,
  ),
  EntityNotFound: spec(
    1542,
    'dbmg',
    'notFound',
    (key: unknown, dataClass: string) =>
      `Cannot find entity with ${q(key)} key in the ${q(dataClass)} dataclass`,
  ),
  InvalidKey: spec(
    1541,
    'dbmg',
    'badRequest',
    (key: unknown, dataClass: string, why: string) =>
      `The key ${q(key)} is not valid for the ${q(dataClass)} dataclass: ${why}`,
  ),
  /** A value that cannot be coerced to its attribute's type (4D: ENTITY_RECORD_FAILS_VALIDATION). */
  InvalidAttributeValue: spec(
    1570,
    'dbmg',
    'badRequest',
    (value: string, attribute: string, type: string, dataClass: string, why: string) =>
      `The value ${value} is not valid for the ${q(attribute)} attribute (${type}) of the ${q(dataClass)} dataclass: ${why}`,
  ),
  UniqueViolation: spec(
    9040,
    'enti',
    'conflict',
    (value: string, attribute: string, dataClass: string) =>
      `The value ${value} of the ${q(attribute)} attribute is already used in the ${q(dataClass)} dataclass (the attribute is unique)`,
  ),
  DuplicateKey: spec(
    1545,
    'dbmg',
    'conflict',
    (key: unknown, dataClass: string) =>
      `The key ${q(key)} is not unique in the ${q(dataClass)} dataclass`,
  ),

  /**
   * A creation that gives a value to a generated primary key (autosequence, uuid) of a dataclass
   * with a `restrict` event, made by a session acting: whether it was taken would tell whether an
   * entity the session cannot see holds it. Entistore's code.
   */
  GeneratedKeyGiven: spec(
    9139,
    'enti',
    'badRequest',
    (attribute: string, dataClass: string) =>
      `The key ${q(attribute)} of a new entity of the ${q(dataClass)} dataclass is generated: leave it out (its entities are restricted, and a chosen key would tell whether a hidden one holds it)`,
  ),
  /** A write names an attribute the dataclass does not have: the client's mistake, so 400, not 404. */
  UnknownAttribute: spec(
    1500,
    'dbmg',
    'badRequest',
    (attribute: string, dataClass: string, known: Iterable<string> = []) =>
      `The ${q(attribute)} attribute cannot be found in The ${q(dataClass)} dataclass${didYouMean(attribute, known)}`,
  ),
  /** 4D's ENTITY_ATTRIBUTE_IS_READ_ONLY: calculated, alias and relatedEntities attributes, a changed primary key. */
  AttributeReadOnly: spec(
    1516,
    'dbmg',
    'badRequest',
    (attribute: string, dataClass: string, why: string) =>
      `The ${q(attribute)} attribute of the ${q(dataClass)} dataclass cannot be written: ${why}`,
  ),
  /** Wording of the real server's stamp error (4D docs, `$method=update`), record number included. */
  StampChanged: spec(
    1263,
    'dbmg',
    'conflict',
    (record: number, table: string) =>
      `Given stamp does not match current one for record# ${record} of table ${table}`,
  ),
  /** Follows 1263 in the real server's stack for a stale stamp. */
  RecordCannotBeSaved: spec(
    1046,
    'dbmg',
    'conflict',
    (record: number, table: string, database: string) =>
      `Cannot save record ${record} in table ${table} of database ${database}`,
  ),
  /** The last entry of the real server's stack when an existing entity is not saved. */
  EntityCannotBeSaved: spec(
    1517,
    'dbmg',
    'badRequest',
    (key: string, dataClass: string) =>
      `The entity# ${key} in the ${q(dataClass)} dataclass cannot be saved`,
  ),
  /** The last entry of the real server's stack when a new entity is not saved. */
  NewEntityCannotBeSaved: spec(
    1534,
    'dbmg',
    'badRequest',
    (dataClass: string) => `The new entity of the ${q(dataClass)} dataclass cannot be saved`,
  ),
  /** The last entry of the stack when an entity is not deleted. */
  EntityCannotBeDeleted: spec(
    1518,
    'dbmg',
    'badRequest',
    (key: string, dataClass: string) =>
      `The entity# ${key} in the ${q(dataClass)} dataclass cannot be deleted`,
  ),

  // ---- 4D REST-layer codes (1800–1820, componentSignature dbmg) ----
  /** Wording from the real server (Qodly docs); the 4D code is Wakanda's `entity_not_found` family. */
  DataClassNotFound: spec(
    1800,
    'dbmg',
    'notFound',
    (dataClass: string, known: Iterable<string> = []) =>
      `The ${q(dataClass)} dataclass cannot be found${didYouMean(dataClass, known)}`,
  ),
  EntitySetNotFound: spec(
    1802,
    'dbmg',
    'notFound',
    (id: string) => `The ${q(id)} entity set cannot be found`,
  ),
  /** Wakanda's `unsupported_format`: a `$format` the server does not write. */
  UnsupportedFormat: spec(
    1801,
    'dbmg',
    'badRequest',
    (format: string, known: string) => `The format ${q(format)} is not supported (${known})`,
  ),
  /** Two entity sets of different dataclasses combined (Wakanda's `dataset_not_matching_entitymodel`). */
  EntitySetOfOtherDataClass: spec(
    1803,
    'dbmg',
    'badRequest',
    (id: string, dataClass: string, expected: string) =>
      `The ${q(id)} entity set belongs to the ${q(dataClass)} dataclass, not to ${q(expected)}`,
  ),
  /**
   * An entity or selection of another dataclass given to `contains`, `add` or `selected` of a
   * selection (4D's wording, errCode 1587).
   */
  IncompatibleDataClass: spec(
    1587,
    'dbmg',
    'badRequest',
    (dataClass: string, expected: string) =>
      `The entity selection comes from an incompatible dataclass (${q(dataClass)}, not ${q(expected)})`,
  ),
  /** `add` on a selection that is not alterable (only `newSelection()` and `copy()` make one; 4D's 1637). */
  SelectionNotAlterable: spec(
    1637,
    'dbmg',
    'badRequest',
    (dataClass: string) =>
      `This entity selection cannot be altered (a selection of ${q(dataClass)}: make an alterable one with copy() or newSelection())`,
  ),
  /** A formula given to `query()` whose settings say `allowFormulas: false` (4D's 1278 and wording). */
  FormulaNotAllowed: spec(
    1278,
    'dbmg',
    'badRequest',
    (member: string) => `Formula not allowed in this member method (${member})`,
  ),
  /** `query()` given neither a query text nor a formula (4D's 1626 and wording). */
  QueryCriteriaExpected: spec(
    1626,
    'dbmg',
    'badRequest',
    (given: string) => `Expecting a text or formula, not ${given}`,
  ),
  UrlMalformed: spec(
    1806,
    'dbmg',
    'badRequest',
    (url: string, why: string) => `The URL ${q(url)} is malformed: ${why}`,
  ),
  /** A `$` parameter whose value has the wrong shape ($top=-1, $skip=abc, $params=not-json). */
  InvalidParameter: spec(
    1806,
    'dbmg',
    'badRequest',
    (name: string, value: string, expected: string) =>
      `Invalid value ${q(value)} for ${name}: expected ${expected}`,
  ),
  UnclosedSingleQuote: spec(
    1808,
    'dbmg',
    'badRequest',
    (where: string) => `Expecting a closing single quote in ${where}`,
  ),
  UnclosedDoubleQuote: spec(
    1809,
    'dbmg',
    'badRequest',
    (where: string) => `Expecting a closing double quote in ${where}`,
  ),
  WrongOrderBy: spec(
    1810,
    'dbmg',
    'badRequest',
    (orderBy: string, why: string) => `Wrong list of attributes to order by ${q(orderBy)}: ${why}`,
  ),
  UnknownQueryKeyword: spec(
    1811,
    'dbmg',
    'badRequest',
    (keyword: string) => `Unknown REST query keyword ${q(keyword)}`,
  ),
  UnknownRestMethod: spec(
    1812,
    'dbmg',
    'badRequest',
    (method: string) => `Unknown REST method ${q(method)}`,
  ),
  /** Follows 1500 when `$attributes` names an attribute that does not exist (Qodly's real output). */
  CannotBuildAttributeList: spec(
    1804,
    'dbmg',
    'notFound',
    (name: string, dataClass: string) =>
      `Cannot completely build a list of attributes with ${q(name)} for the ${q(dataClass)} dataclass`,
  ),
  /** Follows 1500 when `$expand` names an attribute that does not exist (Wakanda's 1805). */
  CannotBuildExpandList: spec(
    1805,
    'dbmg',
    'notFound',
    (name: string, dataClass: string) =>
      `Cannot build the list of attributes to expand with ${q(name)} for the ${q(dataClass)} dataclass`,
  ),
  MethodNotApplicable: spec(
    1813,
    'dbmg',
    'badRequest',
    (method: string, where: string) => `The REST method ${q(method)} cannot be applied to ${where}`,
  ),

  /** `$compute` names no attribute (Wakanda's `empty_attribute_list`), nor does `$distinct`. */
  EmptyAttributeList: spec(
    1816,
    'dbmg',
    'badRequest',
    (what: string) => `The list of attributes is empty: ${what}`,
  ),
  /** `$compute=` something else than `$all`, `count`, `sum`, `average`, `min` or `max` (Wakanda's `compute_action_does_not_exist`). */
  ComputeKeywordUnknown: spec(
    1817,
    'dbmg',
    'badRequest',
    (keyword: string) =>
      `The compute action ${q(keyword)} does not exist: use $all, count, sum, average, min or max`,
  ),
  /**
   * An aggregate or distinct values asked of a path they cannot be computed on: `sum`/`average`
   * of a non-numeric attribute, a relation, a picture, an object attribute without a property,
   * several attributes at once. Entistore's code (9050): the real server's is not public.
   */
  AggregateNotApplicable: spec(
    9050,
    'enti',
    'badRequest',
    (operation: string, path: string, dataClass: string, why: string) =>
      `Cannot compute ${operation} of ${q(path)} in the ${q(dataClass)} dataclass: ${why}`,
  ),

  /** Wakanda's `wrong_logic_operator`. */
  WrongLogicOperator: spec(
    1818,
    'dbmg',
    'badRequest',
    (operator: string) =>
      `Wrong logic operator ${q(operator)}: expected AND, OR, EXCEPT or INTERSECT`,
  ),
  /** Wakanda's `missing_other_collection_ref`. */
  MissingOtherCollection: spec(
    1819,
    'dbmg',
    'badRequest',
    () => `$logicOperator needs $otherCollection, the id of the other entity set`,
  ),
  /** Wakanda's `wrong_other_collection_ref`. */
  WrongOtherCollection: spec(
    1820,
    'dbmg',
    'notFound',
    (id: string) => `The other entity set ${q(id)} cannot be found`,
  ),

  // ---- Entistore's own codes: the real server's code is not public ----
  FilterSyntax: spec(
    9001,
    'enti',
    'badRequest',
    (detail: string) => `Filter syntax error: ${detail}`,
  ),
  PlaceholderOutOfRange: spec(
    9002,
    'enti',
    'badRequest',
    (placeholder: string, count: number) =>
      `The placeholder ${placeholder} has no value: ${count} value(s) were given`,
  ),
  InvalidComparison: spec(
    9003,
    'enti',
    'badRequest',
    (detail: string) => `Invalid comparison: ${detail}`,
  ),
  NotImplemented: spec(
    9010,
    'enti',
    'notImplemented',
    (feature: string) => `${feature} is not supported by this version of Entistore`,
  ),
  LimitExceeded: spec(
    9011,
    'enti',
    'limit',
    (what: string, limit: number) => `${what} exceeds the limit of ${limit}`,
  ),
  InvalidModel: spec(
    9020,
    'enti',
    'badRequest',
    (where: string, why: string) => `Invalid model: ${where}: ${why}`,
  ),
  /**
   * An entity event (`validateSave`, `saving`, `validateDrop`, `dropping`) refused the write by
   * returning an error object: reported with the event's own `errCode` (9138 when it gives none)
   * and componentSignature `DBEV`, as 4D reports it, and its message. (9138)
   */
  EventRefused: spec(9138, 'enti', 'badRequest', (message: string) => message),
  /** A roles file (4D's `roles.json`) that does not follow 4D's format. (9137) */
  InvalidRoles: spec(
    9137,
    'enti',
    'badRequest',
    (where: string, why: string) => `Invalid roles file: ${where}: ${why}`,
  ),
  /**
   * An Entity member that needs a saved entity called on a new one (4D's `clone()`: "cannot be
   * called on a newly created entity"). Entistore's code: 4D's is not public.
   */
  EntityNeverSaved: spec(
    9160,
    'enti',
    'badRequest',
    (member: string, dataClass: string) =>
      `${member}() needs an entity that was saved: this new entity of the ${q(dataClass)} dataclass never was`,
  ),
  /**
   * An attribute property set where it cannot be (`entity.price = 10`, in an entity function
   * `this.price = …`): an Entity is a saved version every reader shares, written through a draft;
   * a selection's and a dataclass's attribute properties only read. Entistore's code: in 4D an
   * entity is written in place. 422, as a class function's own failure. (9161)
   */
  PropertyReadOnly: spec(9161, 'enti', 'failed', (dataClass: string, name: string, on: string) =>
    on === 'Entity'
      ? `${q(`${dataClass}.${name}`)} cannot be set on an entity: ${THROUGH_A_DRAFT}: entity.edit({ ${name}: … }).save()`
      : on === 'Selection'
        ? `${q(`${dataClass}.${name}`)} cannot be set on an entity selection: its projection only reads (write each entity through a draft: entity.edit({ ${name}: … }).save())`
        : `${q(`${dataClass}.${name}`)} cannot be set: a dataclass's attribute properties only read`,
  ),
  /**
   * A draft's member called on an Entity (`entity.save()`, `entity.set(…)`): JavaScript would
   * answer "save is not a function"; this says where the member is, as 9161 does for a property
   * set. Entistore's code: in 4D an entity is saved in place. 422, as 9161. (9162)
   */
  DraftOnlyMember: spec(
    9162,
    'enti',
    'failed',
    (dataClass: string, member: string, call: string) =>
      `${member}() is a draft's, not an entity's (${q(dataClass)} dataclass): ${THROUGH_A_DRAFT}: ${call}`,
  ),
  /**
   * A read that sends json-server's parameters (`_sort`, `_page`, `views_gte`…), which 4D ignores:
   * the read would answer every entity, unsorted. The message gives the 4D parameter of each
   * (rest/url/json-server-habits.ts). Entistore's code: 4D answers the read. (9023)
   */
  JsonServerParameters: spec(
    9023,
    'enti',
    'badRequest',
    (each: string, all: string) =>
      `json-server's parameters, which 4D ignores: ${each}${all === '' ? '' : `. Did you mean ${all}`}`,
  ),
  InvalidData: spec(
    9021,
    'enti',
    'badRequest',
    (where: string, why: string) => `Invalid data: ${where}: ${why}`,
  ),
  /**
   * Data given without a model whose model cannot be inferred so that it serves the data as given
   * (schema/infer-model.ts): not an object of collections, a collection without rows, two types in
   * one attribute, a name that cannot be a dataclass's or an attribute's. (9022)
   */
  CannotInferModel: spec(
    9022,
    'enti',
    'badRequest',
    (where: string, why: string) => `Cannot infer a model from the data: ${where}: ${why}`,
  ),
  MethodNotAllowed: spec(
    9032,
    'enti',
    'methodNotAllowed',
    (method: string, allowed: string) =>
      `The ${method} method is not used by the REST interface (${allowed})`,
  ),
  UnknownResource: spec(
    9031,
    'enti',
    'notFound',
    (path: string) => `Nothing is served at ${q(path)}`,
  ),
  BadRequestBody: spec(
    9030,
    'enti',
    'badRequest',
    (why: string) => `The request body is not valid: ${why}`,
  ),
  /** A request body past the configured limit: refused before it is read whole. */
  BodyTooLarge: spec(
    9033,
    'enti',
    'bodyTooLarge',
    (limit: number) => `The request body exceeds the limit of ${limit} bytes`,
  ),
  /** A request head past the server's limit (node:http's maxHeaderSize). */
  HeadersTooLarge: spec(
    9034,
    'enti',
    'headersTooLarge',
    (limit: number) => `The request line and headers exceed the limit of ${limit} bytes`,
  ),
  /**
   * The transport is already reading as many bytes of request bodies as it holds at once, over all
   * connections (`maxBodyBytesInFlight`): this body is refused before it is read (503, with
   * `Retry-After`), so that clients that start large uploads and stop cannot fill the memory.
   */
  BodiesInFlightFull: spec(
    9037,
    'enti',
    'unavailable',
    (limit: number) =>
      `Service unavailable: the server is reading as many request bodies as it holds at once (${limit} bytes); send this one again later`,
  ),
  /**
   * A request body that stopped arriving: less than `minBytes` of it in `seconds` (the transport's
   * `bodyTimeoutMs`). The connection is closed and what had arrived is dropped (408).
   */
  BodyTimeout: spec(
    9038,
    'enti',
    'requestTimeout',
    (seconds: number, minBytes: number) =>
      `The request body stopped arriving: less than ${minBytes} bytes of it in ${seconds} s; send it again`,
  ),
  /**
   * A request not received whole in node:http's time for it: `headersTimeout` for its head (60 s),
   * `requestTimeout` for the whole (300 s). The connection is closed (408).
   */
  RequestTimeout: spec(
    9039,
    'enti',
    'requestTimeout',
    () =>
      `The request was not received whole in the time the server allows for one (its headersTimeout or requestTimeout); send it again`,
  ),
  /** A request the HTTP parser refused (node:http's clientError): not HTTP at all, or broken framing. */
  MalformedRequest: spec(
    9035,
    'enti',
    'badRequest',
    (code: string) => `The request is not valid HTTP (${code})`,
  ),
  /** An atomic batch (`$atomic`, a transaction) in which one action failed: nothing was applied. */
  BatchCancelled: spec(
    9041,
    'enti',
    'badRequest',
    (item: number, count: number) =>
      `The transaction was cancelled and nothing was saved: action ${item} of ${count} failed`,
  ),
  /** A request body that is not JSON, under a type that does not claim JSON either (a form). */
  UnsupportedMediaType: spec(
    9036,
    'enti',
    'unsupportedMediaType',
    (type: string) =>
      `The request body of type ${q(type)} is not JSON, the only body this server reads`,
  ),
  /** Keeping one more entity set would pass the configured quota (sets or members) in refuse mode. */
  EntitySetQuota: spec(
    9060,
    'enti',
    'quota',
    (what: string) => `The entity set cannot be kept: ${what}`,
  ),
  /**
   * A session at its own `quotas.nbEntitySets` (4D 21 R4's per-session quota, set by a function)
   * asked for one more set: 429 until it releases one. Its own code, apart from 9060 (the server's
   * configured bounds), so that a client can tell "release one of yours" from "the server is full".
   */
  EntitySetSessionQuota: spec(
    9061,
    'enti',
    'quota',
    (limit: number) =>
      `The entity set cannot be kept: the session keeps ${limit} entity sets already, its quotas.nbEntitySets; release one ($entityset/$release) and try again`,
  ),
  /**
   * A live feed past its bounds (`changeHistory.maxSubscriptions…`): the session, its user or the
   * server follows as many feeds as allowed. 429 until one closes. (9063)
   */
  FeedSubscriptionLimit: spec(
    9063,
    'enti',
    'quota',
    (whose: string, limit: number, option: string) =>
      `The live feed cannot be opened: ${whose} follows ${limit} feeds already (${option}); close one and try again`,
  ),
  /**
   * An entity set that code made for another view (a function's reply kept as a set: its members
   * may tell what that code read): only its maker's view (the same user and privileges) reads it.
   * (9064)
   */
  EntitySetOfAnotherView: spec(
    9064,
    'enti',
    'forbidden',
    (id: string) =>
      `The entity set ${id} was made by code running for another user or other privileges: only they may read it`,
  ),
  /**
   * A web server quota (4D 21 R5's `QuotaManager.json`, `WebServer.quotas`) is reached: the
   * request is refused before any processing, 429 with `Retry-After` (the seconds left in the
   * quota's window; empty for the concurrent ones: sessions, guest sessions). 4D documents no body
   * for this 429: Entistore's code (9065).
   */
  WebServerQuota: spec(
    9065,
    'enti',
    'tooManyRequests',
    (name: string, limit: number, wait: string) =>
      `The web server's quota ${name} (${limit}) is reached: ${wait}`,
  ),
  /** A session quota set to a value 4D refuses: not a whole number above 0 (undefined resets it). */
  InvalidQuota: spec(
    9062,
    'enti',
    'badRequest',
    (name: string, value: unknown) =>
      `The session's quotas.${name} cannot be ${q(value)}: give a whole number above 0, or undefined for the default`,
  ),
  /**
   * A write, lock or unlock of an entity that another session or process holds a pessimistic lock
   * on. The real server reports it as status 3 "Already locked" in `__STATUS`, with no public
   * errCode: Entistore's code (9070).
   */
  EntityLocked: spec(
    9070,
    'enti',
    'conflict',
    (key: unknown, dataClass: string, holder: string) =>
      `The entity with ${q(key)} key in the ${q(dataClass)} dataclass is locked by ${holder}`,
  ),
  /**
   * `validateTransaction()` of a transaction open across awaits, when another call committed a
   * write meanwhile that one of its writes no longer applies over (the entity saved or deleted
   * since, its key or a unique value taken, a related entity deleted, the datastore restored).
   * 4D's validation fails (OK = 0) and cancels the transaction: so does this one, and nothing is
   * saved. Entistore's code (9071).
   */
  TransactionConflict: spec(
    9071,
    'enti',
    'conflict',
    (what: string, why: string) =>
      `The transaction cannot be validated: ${what} changed under it (${why}); nothing was saved and the transaction was cancelled`,
  ),
  /**
   * A write while another call holds the datastore with `flushAndLock()` (4D freezes the other
   * processes' writes until `unlock()`; a synchronous save cannot wait here, so it is refused and
   * may be tried again). Entistore's code (9072).
   */
  DatastoreLocked: spec(
    9072,
    'enti',
    'unavailable',
    () =>
      'The datastore is locked by flushAndLock() in another call: writes are refused until it calls unlock(); try again',
  ),
  /**
   * A write or a transaction call in code whose request ended while its transaction was open: the
   * transaction was cancelled then (4D cancels a process's open transaction when it ends), and its
   * code, still running, must not write outside it. Entistore's code (9073).
   */
  TransactionAbandoned: spec(
    9073,
    'enti',
    'conflict',
    () =>
      'The transaction was cancelled when the request that started it ended; nothing it wrote was saved',
  ),
  /**
   * One more established session would pass `maxSessions` in refuse mode. The real server answers
   * 402 "Maximum number of sessions has been reached" (no public errCode): Entistore's code (9080).
   */
  SessionLimit: spec(
    9080,
    'enti',
    'sessionLimit',
    (max: number) => `Maximum number of sessions has been reached (${max})`,
  ),
  /**
   * A login refused unchecked: too many failed logins of this user name or from this address
   * (the REST handler's `loginThrottle`). Its `details.retryAfter` gives the `Retry-After` (429).
   */
  LoginThrottled: spec(
    9081,
    'enti',
    'tooManyRequests',
    (seconds: number) => `Too many failed logins: try again in ${seconds} s`,
  ),
  /**
   * A login past its user's `maxSessionsPerUser` in refuse mode: the user must log out of another
   * session first. 402 as SessionLimit (a 4D client knows it); its own code so that a client can
   * tell "this user has enough sessions" from "the server is full".
   */
  UserSessionLimit: spec(
    9082,
    'enti',
    'sessionLimit',
    (max: number) => `Maximum number of sessions per user has been reached (${max})`,
  ),
  /**
   * A query (its filter, ordering or aggregate) worked past the time budget of the request it runs
   * for (`ds.withBudget`, the REST handler's `queryBudgetMs`) and was stopped. Reads only: nothing
   * is left half-done. A client's request to narrow, hence 'limit' (400), not a server fault.
   */
  QueryBudgetExceeded: spec(
    9090,
    'enti',
    'limit',
    (ms: number) =>
      `The query took more than ${ms} ms and was stopped: narrow the $filter or add an index`,
  ),
  /**
   * A reply would be larger than the REST handler's `maxReplyBytes`: measured before its status is
   * sent (a reply that writes relations out, multiplied level by level, is measured whole; a page
   * of rows is estimated from its first 64K characters), so the client gets this 400 rather than
   * a reply cut short. The size is a number of bytes, or "about N" for an estimate.
   */
  ReplyTooLarge: spec(
    9091,
    'enti',
    'limit',
    (size: string, limit: number) =>
      `The reply would be ${size} bytes, more than the limit of ${limit} (maxReplyBytes): ask for fewer entities ($top) or write fewer relations out ($attributes, $expand)`,
  ),
  /**
   * A reply would write related entities that write relations out again past the REST handler's
   * `maxRepeatedBytes` (the same company with its page of staff under each of its 4,000
   * employees): measured before its status is sent.
   */
  ReplyRepeatsTooLarge: spec(
    9093,
    'enti',
    'limit',
    (size: number, limit: number) =>
      `The reply would write the same related entities again for at least ${size} bytes, more than the limit of ${limit} (maxRepeatedBytes): ask for fewer entities ($top) or write fewer relations out ($attributes, $expand)`,
  ),
  /**
   * Measuring a reply that writes relations out took longer than the request's time budget
   * (`queryBudgetMs`): it would take longer still to write.
   */
  ReplyTooSlow: spec(
    9092,
    'enti',
    'limit',
    (ms: number) =>
      `The reply took more than ${ms} ms to prepare and was stopped: write fewer relations out ($attributes, $expand) or ask for fewer entities ($top)`,
  ),
  /** 4D's NO_PERM_TO_READ (1557), raised for a request of a session that must log in first. */
  NoPermissionToRead: spec(
    1557,
    'dbmg',
    'unauthorized',
    (what: string) => `No permission to read for ${what}`,
  ),
  /** 4D's NO_PERM_TO_UPDATE (1558), wording of the real server's old `$method` page. */
  NoPermissionToUpdate: spec(
    1558,
    'dbmg',
    'unauthorized',
    (what: string) => `No permission to update for ${what}`,
  ),
  // ---- Permissions: the embedder's `authorize` said no (403; the two above are 401, "log in first") ----
  /** 4D's NO_PERM_TO_READ (1557) for a session `authorize` refuses: "No permission to read for the Pricing dataclass". */
  ReadRefused: spec(
    1557,
    'dbmg',
    'forbidden',
    (dataClass: string) => `No permission to read for the ${dataClass} dataclass`,
  ),
  /** 4D's NO_PERM_TO_UPDATE (1558): "No permission to update for dataClass Employee". */
  UpdateRefused: spec(
    1558,
    'dbmg',
    'forbidden',
    (dataClass: string) => `No permission to update for dataClass ${dataClass}`,
  ),
  /** 4D's NO_PERM_TO_CREATE (1559), worded as 1558 is. */
  CreateRefused: spec(
    1559,
    'dbmg',
    'forbidden',
    (dataClass: string) => `No permission to create for dataClass ${dataClass}`,
  ),
  /** 4D's NO_PERM_TO_DELETE (1560), worded as 1558 is. */
  DeleteRefused: spec(
    1560,
    'dbmg',
    'forbidden',
    (dataClass: string) => `No permission to delete for dataClass ${dataClass}`,
  ),
  /**
   * 4D's NO_PERM_TO_EXECUTE (1561): "No permission to execute method getHighSalaries in dataClass
   * Employee". `owner` is `dataClass Employee`, `the datastore` or `singleton Inventory`.
   */
  ExecuteRefused: spec(
    1561,
    'dbmg',
    'forbidden',
    (method: string, owner: string) => `No permission to execute method ${method} in ${owner}`,
  ),
  /**
   * 4D's NO_PERM_TO_UPDATE (1558) for `$upload` from a session that may write no picture or BLOB
   * attribute: a file it could never store is not kept for it.
   */
  UploadForbidden: spec(
    1558,
    'dbmg',
    'forbidden',
    () => 'No permission to update a picture or BLOB attribute: the upload is refused',
  ),
  /** 4D's NO_PERM_TO_READ_ATTRIBUTE_VALUE (1607); the wording is Entistore's (4D's is not public). */
  AttributeReadRefused: spec(
    1607,
    'dbmg',
    'forbidden',
    (attribute: string, dataClass: string) =>
      `No permission to read the attribute ${attribute} of dataClass ${dataClass}`,
  ),
  /** 4D's NO_PERM_TO_UPDATE_ATTRIBUTE_VALUE (1608); the wording is Entistore's. */
  AttributeUpdateRefused: spec(
    1608,
    'dbmg',
    'forbidden',
    (attribute: string, dataClass: string) =>
      `No permission to update the attribute ${attribute} of dataClass ${dataClass}`,
  ),
  /** 4D's NO_PERM_TO_DESCRIBE (1609); the wording is Entistore's. */
  DescribeRefused: spec(
    1609,
    'dbmg',
    'forbidden',
    (dataClass: string) => `No permission to describe dataClass ${dataClass}`,
  ),
  /**
   * A request failed on purpose: the CLI's `--fail-rate` answers that share of requests with this
   * error (503) so that clients can be tested against a flaky backend. Entistore's code (9095).
   */
  InjectedFailure: spec(
    9095,
    'enti',
    'unavailable',
    (share: string) =>
      `Service unavailable: this server fails ${share} of requests on purpose (--fail-rate); try again`,
  ),
  /**
   * A service that the processes serving one datastore share (Redis for sessions, locks and entity
   * sets) cannot be reached, and this request needs it: a session, a set or a lock another process
   * may hold, or the locks a write is checked against. Nothing was done; try again. (9140)
   */
  SharedStateUnavailable: spec(
    9140,
    'enti',
    'unavailable',
    (service: string, why: string) =>
      `Service unavailable: ${service}, which holds the sessions, locks and entity sets the server's processes share, cannot be reached (${why}); try again`,
  ),
  // ---- Class functions (datastore, dataclass, entity, entity selection, singleton) ----
  /**
   * 4D's ENTITY_METHOD_NAME_UNKNOWN (1573), the engine's "Unknown member method": no function of
   * that name, or one that is not exposed to a REST client. `owner` as in ExecuteRefused.
   */
  FunctionNotFound: spec(
    1573,
    'dbmg',
    'notFound',
    (name: string, owner: string) => `The function ${q(name)} cannot be found in ${owner}`,
  ),
  /** `/rest/$singleton/{name}/…` names no singleton with an exposed function. */
  SingletonNotFound: spec(
    9105,
    'enti',
    'notFound',
    (name: string) => `The singleton ${q(name)} cannot be found`,
  ),
  // ---- The session calls of 4D 20 R9 – 21 (promote, OTP tokens, storage, session singletons) ----
  /**
   * A function's code misused `Session.storage`: a write outside `use(storage, fn)` (4D refuses a
   * change of a shared object outside `Use … End use`), a `use` whose function returns a Promise, a
   * value JSON cannot carry. The application's own mistake, answered as a function's failure.
   */
  SessionStorageMisuse: spec(9150, 'enti', 'failed', (why: string) => `Session storage: ${why}`),
  /** `createOTP(lifespan)` with a lifespan that is not a finite number of seconds. */
  SessionTokenLifespanInvalid: spec(
    9151,
    'enti',
    'failed',
    (lifespan: unknown) =>
      `createOTP: the lifespan ${q(lifespan)} is not a number of seconds (at least 10)`,
  ),
  /** A session singleton reached by code that acts for no session (TypeScript outside a request). */
  SessionSingletonWithoutSession: spec(
    9152,
    'enti',
    'failed',
    (name: string) =>
      `The session singleton ${q(name)} has one instance per session: call it over REST, from a function a request called, or inside ds.actAs(session, …)`,
  ),
  /**
   * A function threw. The message is the function's own (a path in it is masked, a stack is never
   * sent); a function that throws 4D's way, `{ errCode, message, componentSignature }`, keeps its
   * code. Entistore's code (9100) otherwise.
   */
  FunctionFailed: spec(9100, 'enti', 'failed', (message: string) => message),
  /** A parameter of the wrong type for what the function declares (`params`). */
  FunctionParameterInvalid: spec(
    9101,
    'enti',
    'badRequest',
    (fn: string, why: string) => `Invalid parameters for the function ${fn}: ${why}`,
  ),
  /**
   * A GET request for a function not declared `onHTTPGet` (4D: "a GET request will receive an
   * error"; its code is not public: Entistore's, 9102, with 405 and `Allow: POST`).
   */
  FunctionNotAllowedOnGet: spec(
    9102,
    'enti',
    'methodNotAllowed',
    (fn: string) =>
      `The function ${fn} is not allowed on HTTP GET: call it with POST (or declare it onHTTPGet)`,
  ),
  /** A function the model declares (a catalog saved from a server) without an implementation. */
  FunctionNotImplemented: spec(
    9103,
    'enti',
    'notImplemented',
    (fn: string) =>
      `The function ${fn} is declared by the model but has no implementation here (give one with the functions option or --functions)`,
  ),
  /**
   * A function a 4D project declares (an `exposed Function` of a `.4dm` class file read by
   * `serve --project`) with no implementation given: names the class file and where the
   * functions module gives it. 501, as 9103: the server lacks what a 4D server would run.
   */
  ProjectFunctionNotImplemented: spec(
    9107,
    'enti',
    'notImplemented',
    (fn: string, declaredIn: string, implement: string) =>
      `The function ${fn} is declared in ${declaredIn} but has no implementation here: give it in a --functions module as ${implement}`,
  ),
  /**
   * An async function had not settled when its call's time limit (the REST handler's
   * `functionTimeoutMs`) passed: the request is answered with this (504, as a gateway answers for
   * an upstream that does not), and whatever the function does later is not reported.
   */
  FunctionTimedOut: spec(
    9106,
    'enti',
    'timeout',
    (fn: string, ms: number) =>
      `The function ${fn} did not answer within ${ms} ms, the time limit of a call: its result, if it comes later, will not be sent`,
  ),
  /** Function definitions that do not fit the model (an unknown dataclass, a name taken). */
  InvalidFunctions: spec(
    9104,
    'enti',
    'badRequest',
    (where: string, why: string) => `Invalid functions: ${where}: ${why}`,
  ),
  /** `$imageformat` asks for a conversion and the converter (sharp) cannot be loaded here. */
  PictureConversionUnavailable: spec(
    9110,
    'enti',
    'notImplemented',
    (reason: string) =>
      `Converting pictures ($imageformat) needs the sharp package, an optional dependency (npm install sharp), which could not be loaded here (${reason}); $imageformat=best still serves each picture as stored`,
  ),
  /**
   * As many picture conversions as are run at once are running, and as many as wait are waiting
   * (`pictures.maxConversions`, `maxQueuedConversions`): this one is refused (503, `Retry-After`).
   */
  PictureConversionsBusy: spec(
    9111,
    'enti',
    'unavailable',
    (running: number, waiting: number) =>
      `Service unavailable: ${running} picture conversions are running and ${waiting} waiting, as many as this server takes; ask again later, or for $imageformat=best (the picture as stored)`,
  ),
  /** A stored picture with more pixels than a conversion decodes (`maxPixels`): it is not converted. */
  PictureTooLarge: spec(
    9112,
    'enti',
    'limit',
    (width: number, height: number, maxPixels: number) =>
      `The picture is ${width} × ${height} pixels, more than the ${maxPixels} a conversion ($imageformat) decodes; $imageformat=best serves it as stored`,
  ),
  // ---- Uploads ($upload, `{"ID": …}` values, raw bytes POSTed to a picture or BLOB attribute) ----
  /**
   * A write gives `{"ID": …}` for a picture or BLOB but no upload has that ID (any more). The real
   * server's code is not public: Entistore's (9120), 400 as for any other value of a write.
   */
  UploadNotFound: spec(
    9120,
    'enti',
    'badRequest',
    (id: string, attribute: string) =>
      `No upload has the ID ${q(id)} given for the ${q(attribute)} attribute: it was never made, or its lifetime ($timeout) has passed, or newer uploads evicted it. Upload the file again (POST /rest/$upload)`,
  ),
  /** An upload or a raw write that cannot be taken as sent: what it lacks, or why. Entistore's code. */
  UploadRefused: spec(9121, 'enti', 'badRequest', (why: string) => `The upload is refused: ${why}`),
  // ---- Change log and journal (store/change-log.ts, the entistore package's persist/) ----
  /**
   * A change-log record that does not fit the datastore it is replayed into: a journal or snapshot
   * written for another model, or damaged in a way its checksum did not catch. Nothing is applied.
   */
  InvalidLogRecord: spec(
    9130,
    'enti',
    'badRequest',
    (where: string, why: string) => `Invalid change-log record: ${where}: ${why}`,
  ),
  /**
   * The journal could not be written (disk full, I/O error): the write is in memory but not on
   * disk, so it is not acknowledged, and neither is any later write until the server restarts.
   */
  JournalFailed: spec(
    9131,
    'enti',
    'unavailable',
    (why: string) =>
      `The journal cannot be written (${why}): this write is not durable; restart the server`,
  ),
  // ---- Many processes on one PostgreSQL log (the entistore package's cluster/) ----
  /**
   * A write ran in memory but its transaction on the shared log failed (PostgreSQL unreachable,
   * the connection cut, a statement refused): it was undone in this process, the client may try
   * again. If the failure came after PostgreSQL committed (the outcome is unknown), the write
   * comes back through the log like another process's.
   */
  ClusterWriteFailed: spec(
    9132,
    'enti',
    'unavailable',
    (why: string) =>
      `The write could not be committed to the shared log (${why}): it was undone; try again`,
  ),
  /**
   * This process can no longer follow the shared log (a record it cannot apply, or records it
   * needs already compacted away): it refuses writes until it is restarted, which loads the
   * newest snapshot.
   */
  ClusterBehind: spec(
    9133,
    'enti',
    'unavailable',
    (why: string) => `This process cannot follow the shared log (${why}); restart it`,
  ),
  /**
   * This process cannot vouch that it holds every acknowledged write, so it does not answer reads:
   * it lost its lease on the shared log (cut off from PostgreSQL, too slow to apply what the
   * others commit, or fenced by a writer that could not wait for it), or it is still catching up.
   * It comes back by itself once caught up; another process may answer meanwhile. Carries
   * `retryAfter`. (9134)
   */
  ClusterNotCurrent: spec(
    9134,
    'enti',
    'unavailable',
    (why: string) =>
      `This process cannot answer reads now: it cannot vouch that it holds every acknowledged write (${why}); try again`,
  ),
  /**
   * A write was committed to the shared log, but it could not be confirmed that every process
   * serving the datastore applied it (PostgreSQL could not be reached to fence a process that did
   * not answer): its reply is withheld rather than risk a stale read after it. The write is
   * durable, and visible everywhere once the lagging process applies it or loses its lease. (9135)
   */
  ClusterWriteUnconfirmed: spec(
    9135,
    'enti',
    'unavailable',
    (why: string) =>
      `The write was committed, but it could not be confirmed that every process serving the datastore applied it (${why}); it is durable: read it back before writing it again`,
  ),
  /**
   * A data load stopped before it ran out of memory: the heap used so far, scaled to the whole
   * file, will not fit under Node's heap limit (or the heap is nearly full). Nothing is loaded; the
   * process can be started again with a larger limit, as the message says. (9136)
   */
  DataExceedsHeap: spec(
    9136,
    'enti',
    'limit',
    (usedMb: number, limitMb: number, rows: number, percent: number, needMb: number) =>
      `The data does not fit in Node's heap (${usedMb} MB used of ${limitMb} MB after ${rows} rows, about ${percent}% of the file read): run with NODE_OPTIONS=--max-old-space-size=${needMb}`,
  ),
  /**
   * A query needs an index that is still being built (in slices, after a large load), and it ran
   * where builds are not done in one piece (`ds.withoutIndexBuilds`): the REST handler waits for
   * the build (`ds.indexesReady`) and runs the request again, so a client sees this only from a
   * caller that does not wait. Carries `retryAfter`. (9143)
   */
  IndexBuilding: spec(
    9143,
    'enti',
    'unavailable',
    (dataClass: string, attribute: string) =>
      `The index of ${dataClass}.${attribute} is being built; try again`,
  ),
  /**
   * A query's work did not end within its slice of the event loop and goes on in the next ones
   * (query/slices.ts): the caller that ran it in a `SliceScope` drives the scope and runs the
   * request again. A client sees it only from a caller that does not drive. (9144)
   */
  QuerySuspended: spec(
    9144,
    'enti',
    'unavailable',
    () => 'The query goes on in slices of the event loop; run it again once its work is done',
  ),
  /**
   * A read in slices whose client went away before it was answered: its work is dropped between
   * two slices. Nobody receives it; it is there for logs. (9145)
   */
  RequestAbandoned: spec(
    9145,
    'enti',
    'unavailable',
    () => 'The client went away before its read was answered; its work was stopped',
  ),
  /**
   * A write this process forwards to the datastore's one writer found none to take it: the writer
   * went away and no other process took over in time, or the write's outcome could not be
   * learned. `applied` says which: 'no' (it was never run: send it again) or 'unknown' (the old
   * writer may have committed it: read before writing again). Carries `retryAfter`. (9146)
   */
  ClusterNoWriter: spec(9146, 'enti', 'unavailable', (why: string, applied: 'no' | 'unknown') =>
    applied === 'no'
      ? `No process could take the write (${why}); it was not applied: try again`
      : `The write's outcome could not be learned (${why}); it may have been applied: read it back before writing it again`,
  ),
  // ---- The web server around REST: HTTP request handlers and HTTP rules (4D 20 R8, 21) ----
  /** An HTTP rule (`HTTPRules.json`, `denyAccess: true`) denies the path: 403, as 4D answers. */
  AccessDeniedByRule: spec(
    9170,
    'enti',
    'forbidden',
    (path: string) => `Access to ${q(path)} is denied by an HTTP rule`,
  ),
  /** An HTTP request handler's pattern takes the path but none takes its verb (`verbs`). */
  VerbNotHandled: spec(
    9171,
    'enti',
    'methodNotAllowed',
    (verb: string, path: string, verbs: string) =>
      `The ${verb} verb is not handled at ${q(path)} (its handlers take ${verbs})`,
  ),
  /**
   * An HTTP request handler's class is no shared singleton (none of that name, or a session
   * singleton): 4D's words ("Cannot find singleton", http-request-handler.md), which name neither
   * the class nor a code; the code is `$singleton`'s for an unknown singleton.
   */
  HandlerSingletonNotFound: spec(9105, 'enti', 'notFound', () => 'Cannot find singleton'),
  /** An HTTP request handler's shared singleton lacks its function: 4D's words, 1573's code. */
  HandlerFunctionNotFound: spec(1573, 'dbmg', 'notFound', () => 'Cannot find singleton function'),
  /** A malformed `HTTPHandlers.json` or `HTTPRules.json` (or their options): the server does not start. */
  InvalidHttpSettings: spec(
    9172,
    'enti',
    'badRequest',
    (where: string, why: string) => `Invalid HTTP settings: ${where}: ${why}`,
  ),
  // ---- Browsers: what a page cannot see for itself (CORS, cookies) ----
  /**
   * Added after a 401's own error for a page on another site than the server (a page on
   * `localhost` calling `127.0.0.1`), whose request came without the session cookie: a browser
   * never sends it one from the server's site, so logging in again does not help.
   */
  SessionCookieOtherSite: spec(
    9180,
    'enti',
    'unauthorized',
    (serverHost: string, pageHost: string, instead: string) =>
      `The session cookie is kept for ${serverHost}, and a browser does not send it with requests from a page on ${pageHost}, another site: call the server at ${instead}, or open the page on ${serverHost}`,
  ),
  Internal: spec(9099, 'enti', 'internal', (detail: string) => `Internal error: ${detail}`),
} as const

export type ErrorName = keyof typeof ERRORS
export type ErrorArgs<N extends ErrorName> = Parameters<(typeof ERRORS)[N]['message']>
