/**
 * @module @entistore/core — an in-memory datastore in the 4D ORDA model: dataclasses, entities with
 * stamps, entity selections, sessions. No I/O and no HTTP: the REST adapter lives in @entistore/rest.
 */

// Datastore and its parts
export { createDatastore, Datastore, sessionLockOwner } from './orda/objects/datastore.js'
export type {
  CommitInfo,
  CommitKind,
  CommitListener,
  CommitListenerOptions,
  CommitOptions,
  ActAsOptions,
  DatastoreOptions,
  DatastoreWith,
  Singleton,
} from './orda/objects/datastore.js'
export type { DatastoreOf, ModelSource } from './orda/objects/datastore.js'
// The live feed of changes (ds.changes): docs/change-tracking.md
export type {
  ChangeEvent,
  ChangeFeedOptions,
  ChangedEntity,
  ChangeSubscription,
  FeedSchedule,
} from './orda/feed/change-feed.js'
export type { ChangesOptions } from './orda/objects/changes-options.js'
export type { ChangesSettings } from './orda/feed/feed-objects.js'
export { DEFAULT_HISTORY_SIZE } from './store/change-history.js'
export {
  KernelCancelled,
  PARALLEL_MIN_ROWS,
  partsOf,
  type KernelPart,
  type KernelRun,
  type KernelRunOptions,
  type ParallelPool,
} from './parallel/parallel-pool.js'
export type { IndexBuildOptions } from './indexes/index-builder.js'
export type {
  DraftValue,
  DropOptions,
  ReloadResult,
  SaveOptions,
} from './orda/objects/entity-draft.js'
export type {
  AttributeDifference,
  EntityObject,
  ToObjectOptions,
} from './orda/members/entity-objects.js'
export type { ObjectFilter } from './orda/selections/selection-projections.js'
export type {
  AttributeValue,
  ReadValue,
  WritableName,
  WriteValue,
  WriteValues,
} from './orda/objects/attribute-types.js'
export type { DataSnapshot } from './store/data-snapshot.js'
export { DataClass } from './orda/objects/data-class.js'
export { loadedColumnsOf, rowIdOf } from './orda/objects/loaded-rows.js'
export type { ReadSettings } from './orda/objects/data-class.js'
// 4D's DataClass members beyond reads and writes: docs/orda.md, DataClass
export type { DataClassAttribute, DataClassInfo } from './orda/members/data-class-info.js'
export type { FromCollectionObject } from './orda/objects/attribute-types.js'
export type { FromCollectionSettings } from './orda/members/from-collection.js'
export type { FormulaQuerySettings, QueryFormula } from './orda/selections/formula-query.js'
export { Entity } from './orda/objects/entity.js'
export { readAttribute } from './orda/objects/attribute-read.js'
export { EntitySelection } from './orda/objects/entity-selection.js'
export { EntityDraft } from './orda/objects/entity-draft.js'
export { EntitySet, EntitySets, setOwnerOf } from './orda/objects/entity-sets.js'
export { LOGIC_OPERATORS } from './sets/set-algebra.js'
export type {
  ActingOptions,
  EntitySetObserver,
  EntitySetStoreOptions,
  KeepOptions,
  LogicOperator,
  SetAccess,
  SetInfo,
  SetOwner,
  SetReleaseReason,
  SetUsage,
  StoredSet,
} from './orda/objects/entity-sets.js'
export { Transaction } from './txn/transaction.js'
export type { CommittedChange, TransactionOptions, WriteCheck } from './txn/transaction.js'
export type { Assignments } from './txn/write-values.js'
export {
  attemptWrite,
  isWriteRefusal,
  saveResultOf,
  saveStatusOf,
  SAVE_STATUS,
} from './txn/save-status.js'
export { LockTable, sameOwner } from './locks/lock-table.js'
export type {
  Lock,
  LockObserver,
  LockOwner,
  LockOwnerInfo,
  LockReleaseReason,
} from './locks/lock-table.js'
export { LOCK_KIND, lockedBy } from './txn/save-status.js'
export type { LockingOptions, LockOptions, LockResult } from './orda/writes/locks.js'
export type { ReloadedLock } from './orda/objects/entity.js'
export type {
  LockedStatus,
  LockInfo,
  SaveResult,
  SaveResultError,
  SaveStatus,
  WriteResult,
} from './txn/save-status.js'
export { keyText, toKey } from './store/keys.js'
export type { EntityRecord, KeyValue } from './store/entity-record.js'
export type { LoadedColumns } from './store/base-rows.js'
export type { DataFile, LoadOptions, LoadProgress, LoadReport } from './store/load-data.js'
export type { DataLoader } from './store/store.js'
export { dumpData, dumpRows } from './store/dump-data.js'
export { openStoreView, StoreView } from './store/store-view.js'
export { TableView } from './store/table-view.js'
export {
  applyLogRecord,
  applyLogRecords,
  logRecordOf,
  snapshotRecords,
  snapshotRows,
} from './store/change-log.js'
export { LOG_FORMAT } from './store/log-record.js'
export { isSnapshotRows, ROWS_FORMAT } from './store/snapshot-rows.js'
export type { SnapshotRows } from './store/snapshot-rows.js'
export type {
  LogChange,
  LogEncoding,
  LogRecord,
  LogRecordKind,
  LogValues,
  SnapshotEncoding,
} from './store/log-record.js'
export { revertCommit, revertCommits, revertPoint } from './store/revert.js'
export type { RevertPoint } from './store/revert.js'
export type { Change } from './store/changes.js'
export type { DanglingReference, DataRow, DumpDataOptions } from './store/dump-data.js'

// Class functions (datastore, dataclass, entity, entity selection, singletons)
export { defineFunctions } from './orda/objects/define-functions.js'
export { globalStampFunctions } from './orda/functions/global-stamp-functions.js'
export type {
  AttributeEventDefs,
  DataClassFunctionDefs,
  EntityEventDefs,
  FunctionsDef,
} from './orda/objects/define-functions.js'
export { sessionSingleton, singleton } from './functions/define.js'
export type {
  EntityEvent,
  EntityEventKind,
  EventError,
  FunctionDef,
  FunctionDefs,
  FunctionOptions,
  ParamSpec,
  SingletonDef,
} from './functions/define.js'
export { FunctionRegistry, functionText, ownerText } from './functions/registry.js'
export { headerProblem, OutgoingMessage, statusProblem } from './functions/outgoing-message.js'
export { IncomingMessage, type IncomingMessageInit } from './functions/incoming-message.js'
export type { FunctionImpl, FunctionInfo, FunctionKind } from './functions/registry.js'
export { isThenable } from './orda/functions/call-function.js'
export { callFunction } from './orda/objects/datastore-functions.js'
export type { CallOptions } from './orda/functions/call-function.js'
export { currentCall, currentSession } from './orda/current-call/current-call.js'
export { writingDatastore } from './orda/writes/writing.js'
// 4D's Session class, as `currentSession()` gives it: docs/orda.md, Session
export { MIN_IDLE_TIMEOUT, WebSession } from './orda/current-call/web-session.js'
export type { WebSessionInfo } from './orda/current-call/web-session.js'
export type { RestrictContext } from './orda/restrict/restrict.js'
export { restrictedSelection } from './orda/objects/restricted-selection.js'
export { committedVersion } from './orda/writes/writes.js'
export { deletionVisible } from './orda/objects/datastore-functions.js'
export {
  DELETED_FIELDS,
  DELETED_RECORDS,
  GLOBAL_STAMP,
  reservedNameAllowed,
} from './schema/change-tracking.js'
export { changeStamps } from './store/change-stamps.js'
export { commitStamps } from './store/store.js'
export type { FunctionCall } from './orda/current-call/function-call.js'
export type { PrivilegeSettings } from './orda/calls/call-context.js'
export {
  PageFeedback,
  type ComponentChanges,
  type PageNotificationType,
} from './orda/calls/page-feedback.js'
export type { QuotaManager, QuotaValues } from './orda/calls/session-quotas.js'
export { defaultEntitySetQuota } from './orda/calls/session-quotas.js'
// 4D's Session calls of 20 R7 – 21: promote/demote, OTP tokens, storage, session singletons
export { singletonStateFor } from './orda/current-call/session-singletons.js'
export type { SessionCalls } from './orda/calls/session-calls.js'
export { SESSION_STORAGE_KEY, sessionStorage, use } from './sessions/session-storage.js'
export type { SharedObject } from './sessions/session-storage.js'
// What a `restrict` read besides the data: a host's code tells it, and tells its changes
export {
  beginSharedWrite,
  endSharedWrite,
  noteSessionRead,
  noteSharedRead,
  noteVolatileRead,
  sharedStateChanged,
} from './sessions/session-reads.js'
export { MIN_TOKEN_LIFESPAN_SECONDS, SessionTokens } from './sessions/session-tokens.js'
export type { SessionTokensOptions } from './sessions/session-tokens.js'

// Models
export { loadModel } from './schema/load-model.js'
export type { LoadModelOptions } from './schema/model-draft.js'
export { inferModel } from './schema/infer-model.js'
export type { InferModelOptions, InferredModel } from './schema/infer-model.js'
export { defineModel, BuiltModel, DataClassBuilder } from './schema/model-builder.js'
export type { CalculatedFunctions, StorageOptions } from './schema/model-builder.js'
export { ATTRIBUTE_KINDS, VALUE_TYPES } from './schema/model-json.js'
export type {
  AttributeJson,
  AttributeKind,
  DataClassJson,
  MethodJson,
  ModelJson,
  SingletonJson,
  ValueType,
} from './schema/model-json.js'
export type {
  AliasAttributeJson,
  AttributeJsonBase,
  CalculatedAttributeJson,
  ModelJsonDocument,
  RelatedEntitiesAttributeJson,
  RelatedEntityAttributeJson,
  StorageAttributeJson,
} from './schema/model-json.js'
export type {
  AttributeName,
  Computed,
  DataClassName,
  ModelTypes,
  ModelTypesOf,
  ObjectValue,
  RelatedEntities,
  RelatedEntity,
  UntypedModel,
  ValueOfType,
  ValueTypes,
} from './schema/typed-model.js'
export {
  aliasTarget,
  attributeNames,
  dataClassNames,
  isPublic,
  isShownAttribute,
} from './schema/definitions.js'
export type {
  AliasAttributeDef,
  AliasTarget,
  AttributeDef,
  CalculatedAttributeDef,
  CalculatedDefinition,
  CalculatedFn,
  ComputedAttributeFunctions,
  ComputedOrderByEvent,
  ComputedQueryEvent,
  ComputedQueryOperator,
  ComputedQueryResult,
  ComputedSetEvent,
  DataClassDef,
  EntityView,
  RelatedEntitiesAttributeDef,
  RelatedEntityAttributeDef,
  SchemaDef,
  StorageAttributeDef,
} from './schema/definitions.js'

// Values
export { blankValue, coerceToType, normalizeUuid, readsNull } from './values/coerce.js'
export { Vector, VectorError, type VectorMetric } from './values/vector.js'
export {
  NearestIndexes,
  type NearestIndex,
  type NearestIndexFactory,
  type NearestIndexSpec,
  type NearestState,
} from './indexes/nearest-index.js'
export type { JsonObject, JsonValue, StoredValue } from './values/coerce.js'
export {
  binaryValue,
  decodeBase64,
  encodeBase64,
  isBinaryValue,
  sniffImageType,
} from './values/binary.js'
export type { BinaryValue } from './values/binary.js'
export { parseDate } from './values/dates.js'

// Time and sessions
export { ManualClock, systemClock } from './clock/clock.js'
export type { Clock } from './clock/clock.js'
export { SessionStore } from './sessions/session-store.js'
export { randomId } from './sessions/session-ids.js'
export { SESSION_USER_KEY, sessionUser, setSessionUser } from './sessions/session-user.js'
export type { AuthUser } from './sessions/session-api.js'
export { heldPrivileges, promotedSession } from './sessions/session-privileges.js'
export { GUEST_PRIVILEGE, Roles } from './roles/roles.js'
export { permissionsNamingNothing } from './orda/objects/roles-coverage.js'
// Privileges all the way down: the one decision, the Actor that asks it, who acts now.
export { accessRule, rolesResource } from './access/access-rule.js'
export type { AccessRule } from './access/access-rule.js'
export type { Authorize, PermissionAction, PermissionTarget } from './access/authorize.js'
export { Actor } from './access/actor.js'
export type { ActorOptions } from './access/actor.js'
export { actingNow, currentActor, runActor } from './access/acting.js'
export { runAsProcess } from './orda/processes.js'
export { detached } from './orda/calls/detached.js'
export { promotedFor } from './orda/objects/datastore-functions.js'
export type {
  RolesAction,
  RolesJson,
  RolesPermissionJson,
  RolesResource,
  RolesResourceType,
} from './roles/roles.js'
export type { SessionStoreOptions } from './sessions/session-api.js'
export type {
  Session,
  SessionCloseReason,
  SessionObserver,
  SessionRenewal,
  SessionSnapshot,
  SessionStoreApi,
} from './sessions/session-api.js'

// Errors
export { DatastoreError, datastoreError, fail } from './errors/datastore-error.js'
export type { DatastoreErrorOptions } from './errors/datastore-error.js'
export { ERRORS } from './errors/err-codes.js'
export type { ErrorCategory, ErrorName } from './errors/err-codes.js'

// Queries
export { parseQuery, parseOrderBy } from './query/parse-filter.js'
export type { FilterErrorDetails } from './query/parse-filter.js'
export { printQuery, printFilter, printOrderBy } from './query/print-filter.js'
export { Ast, filterSize, MAX_FILTER_DEPTH, pathText } from './query/ast.js'
export type * from './query/ast.js'
export { parseCached } from './query/run-query.js'
export { runQuery, orderSelection } from './orda/objects/queries.js'
export { PreparedQuery } from './orda/objects/prepared-query.js'
export type { PrepareOptions } from './orda/objects/prepared-query.js'
export type { QueryOptions, QueryResult } from './orda/objects/queries.js'
export type { QueryBudget } from './query/budget.js'
// For work a transport does on a request's behalf under its budget (writing a reply that may be
// large), also across turns of the event loop: the budget current now, run again later.
export {
  currentBudget,
  spend as spendBudget,
  withBudget as withQueryBudget,
} from './query/budget.js'
// Reads run in slices of the event loop (a transport drives them: ds.sliceScope). An
// application's own heavy work may go the same way (`sliceable`), and park on a wait of its own
// where a scope drives it (`drivingScope`).
export {
  SliceScope,
  finish as finishWork,
  MAX_RESTARTS,
  sliceable,
  drivingScope,
  currentScope,
} from './query/slices.js'
export type { Work, Parked, ChangedRows } from './query/slices.js'
// A reply's getters with steps made ahead in its read's slices (the writing finds their values).
export {
  gettersAhead,
  gettersAheadInTurns,
  currentAnswersAhead,
  withAnswersAhead,
  hasGetterSteps,
  getterSteps,
  AnswersAhead,
} from './query/getters-ahead.js'
export type { GetterAnswer, GetterCall } from './query/getters-ahead.js'
// Work that runs in slices on its own (a save whose events run in steps), a turn between two.
export { workInTurns, WORK_SLICE_MS } from './query/work-in-turns.js'
export { readInSteps, type ScopeMaker } from './query/read-in-steps.js'
export { SliceLine, sliceLine, immediateTurn, type NextTurn } from './query/slice-line.js'
export {
  saveInSteps,
  fromCollectionSteps,
  dropInSteps,
  newInSteps,
  restrictInSteps,
} from './orda/objects/data-class-steps.js'
// The restricts a query, an ordering or a path reaches through relations, answered ahead in steps.
export {
  queryReachInSteps,
  orderReachInSteps,
  pathReachInSteps,
} from './orda/objects/reached-steps.js'
// A write a step gave, its after-events (`afterSave`, `afterDrop`) then in steps.
export { writeInSteps } from './orda/writes/after-commit.js'
// A transaction level as work in steps (the REST interface's `$atomic` batch, run in turns).
export {
  transactionSteps as transactionInSteps,
  writesMayStop,
} from './orda/writes/transaction-steps.js'
// A selection's drop as work in steps, inside such a transaction (`$method=delete&$filter`).
export { dropAllSteps } from './orda/writes/drop-all-steps.js'
export { fold } from './values/fold.js'
// The 4D language (@entistore/4d) compares texts as the query engine does, 4D's rule for both:
// its `=` and `#` match `@` wildcards, its `%` finds keywords, its `<` orders folded texts.
export { AT_ONLY, compareFolded, foldedKeywords, keywords, wildcardMatcher } from './values/fold.js'
export type { QueryPlan, PlanNode } from './query/plan.js'
export type { AggregateValue, Aggregates, DistinctOptions } from './query/aggregate-path.js'
export type { IndexKind } from './indexes/index-entry.js'
export { closest, closestNames, didYouMean, editDistance } from './errors/closest-name.js'
