/**
 * @module The one table of the errors the 4D runtime raises: code, component signature and a
 * message whose `{name}` placeholders are filled from the error's arguments (4D's `throw` fills
 * `{property}` placeholders the same way, throw.ts).
 *
 * Codes come from 4D where a public source gives them: `54` "Argument types are incompatible." (4D's
 * syntax error table, as 4D components cite it), `-10729` "Unknown member method"
 * (docs/ORDA/ordaClasses.md), `-10518` "Assert failed" and `-10508` "Project method not found."
 * (4D's engine error table). They carry `4DRT`, the signature docs/commands/last-errors.md gives
 * the 4D runtime. Where 4D's code is not public, the error gets one of Entistore's own in the
 * 9400 range with `enti`, as the core's table does (docs/errors.md): a client can tell 4D's code
 * from a choice. docs/4d-language.md lists the table.
 */

export interface ErrorSpec {
  readonly errCode: number
  readonly componentSignature: string
  /** The message, with `{name}` placeholders for the error's arguments. */
  readonly message: string
}

const spec = (errCode: number, componentSignature: string, message: string): ErrorSpec => ({
  errCode,
  componentSignature,
  message,
})

/** The signature of 4D's runtime (docs/commands/last-errors.md), for the codes 4D documents. */
export const RUNTIME_SIGNATURE = '4DRT'
/** Entistore's own signature, for codes chosen where 4D's is not public. */
export const OWN_SIGNATURE = 'enti'

export const ERRORS = {
  /** An operator or an assignment applied to values it does not take (`1+"a"`, `Null>1`). */
  IncompatibleTypes: spec(
    54,
    RUNTIME_SIGNATURE,
    'Argument types are incompatible ({left} {operator} {right})',
  ),
  /** `\` or `%` by zero (`/` gives an infinite number, as `String(1/0)` shows "INF"). */
  DivisionByZero: spec(9400, OWN_SIGNATURE, 'Division by zero ({left} {operator} {right})'),
  /** A property written on Null or Undefined ("Objects must have been instantiated"). */
  AssignToNothing: spec(
    9402,
    OWN_SIGNATURE,
    'Cannot assign the "{property}" property of {value} value: the object is not instantiated',
  ),
  /** A property read on a value that has none (a text, a number, a date…). */
  NotAnObject: spec(9403, OWN_SIGNATURE, 'A {type} value has no "{property}" property'),
  /** A collection index that is not a number, or a negative one on assignment. */
  InvalidIndex: spec(9404, OWN_SIGNATURE, 'Invalid collection index: {index}'),
  /** `If`, `Case of`, `While`, `Until` given something other than a Boolean. */
  BooleanExpected: spec(9405, OWN_SIGNATURE, 'A Boolean was expected, not {type}'),
  /** A command's parameter of a type it does not take. */
  WrongParameterType: spec(
    9406,
    OWN_SIGNATURE,
    'The "{parameter}" parameter of {command} must be {expected}, not {actual}',
  ),
  /** `JSON Stringify` of an object that holds itself (object.md: "not supported and return an error"). */
  CircularReference: spec(
    9407,
    OWN_SIGNATURE,
    'An object or collection that contains itself cannot be converted to JSON',
  ),
  /** A property an object of the host does not let 4D code assign. */
  ReadOnlyMember: spec(9411, OWN_SIGNATURE, 'The "{property}" property cannot be assigned'),
  /** A statement that does not parse, reached at run time (4D's interpreter fails there, not before). */
  SyntaxError: spec(9408, OWN_SIGNATURE, 'Syntax error: {detail}'),
  /** A command, class or component that parses but is not implemented here. */
  NotImplemented: spec(9409, OWN_SIGNATURE, 'The command "{name}" is not implemented'),
  /** A runaway loop stopped at the request's budget. */
  BudgetExceeded: spec(9410, OWN_SIGNATURE, 'The code ran longer than its budget allows'),
  /**
   * An exception of the host (a JavaScript error: the call stack's depth, a fault of Entistore's
   * own code) met by 4D code, so that `Try`/`Catch` and the REST error stack see a 4D error.
   */
  HostError: spec(9412, OWN_SIGNATURE, 'An error occurred in the host: {detail}'),
  /** `For each` over a value that is not a collection, an object or an entity selection. */
  NotIterable: spec(9413, OWN_SIGNATURE, 'For each cannot loop over a {type} value'),
  /** A construct of the classic language that parses but does not run here (arrays, pointers…). */
  NotSupported: spec(9414, OWN_SIGNATURE, '{construct} cannot run here'),
  /** A command or class function given an argument it cannot use (a bad query, JSON, pattern…). */
  InvalidArgument: spec(
    9415,
    OWN_SIGNATURE,
    'The "{parameter}" parameter of {command} is not valid: {detail}',
  ),
  /** A class function (`$c.push()`) called with a number of parameters it does not take. */
  WrongParameterCount: spec(9416, OWN_SIGNATURE, '{command} takes {expected}, not {actual}'),
  /** `$a{i}` with `i` outside 0 to the array's size. */
  ArrayIndex: spec(9420, OWN_SIGNATURE, 'Array index out of range: {index}'),
  /** `$a{i}`, or an array command, on a variable that holds no array. */
  NotAnArray: spec(9421, OWN_SIGNATURE, '{what} needs an array, not {type}'),
  /** `New process`, `CALL WORKER` and the other commands that need another process, reached. */
  NoOtherProcess: spec(
    9422,
    OWN_SIGNATURE,
    'The command "{name}" cannot run here: 4D code runs in its call\'s own process, and no other process or worker is started',
  ),
  /** `$p->` where `$p` is a Nil pointer (dt_pointer.md). */
  NilPointer: spec(9425, OWN_SIGNATURE, 'The pointer is Nil: it points to nothing'),
  /** `$p->` where `$p` holds no pointer. */
  NotAPointer: spec(9426, OWN_SIGNATURE, 'A {type} is not a pointer'),
  /** `cs.Name.new()` (a Class's member) where the project has no class `Name`. */
  ClassNotHere: spec(9423, OWN_SIGNATURE, 'The class "cs.{name}" is not a class of the project'),
  /** `cs.AIKit.OpenAI`: a component's class; no component is here (docs/Project/components.md). */
  ComponentNotHere: spec(
    9424,
    OWN_SIGNATURE,
    'The component "{name}" is not here: cs.{name}.{member} cannot run',
  ),
  /** `File`/`Folder` given a path outside the project's folders (`../` above a root, a link out). */
  FileOutside: spec(9430, OWN_SIGNATURE, 'The path "{path}" is outside the project\'s folders'),
  /** `CALL WORKER`, `New process` with as many jobs waiting as a datastore's workers take. */
  WorkersFull: spec(9434, OWN_SIGNATURE, 'The workers have {max} jobs waiting: no more is queued'),
  /** `HTTP Request` to a host the server does not allow (entistore's `--allow-http`). */
  HttpNotAllowed: spec(
    9432,
    OWN_SIGNATURE,
    'HTTP requests to {url} are not allowed here: {detail}',
  ),
  /** `HTTP Request` that got no answer: the network, a timeout (4D: the command returns 0). */
  HttpFailed: spec(9433, OWN_SIGNATURE, 'The HTTP request to {url} failed: {detail}'),
  /** A mail sent to a server the host does not allow (entistore's `--allow-smtp`). */
  SmtpNotAllowed: spec(9435, OWN_SIGNATURE, 'Mail to {server} is not allowed here: {detail}'),
  /** A mail that got no reply to tell: the network, TLS, a timeout (4D: an error, status 0). */
  SmtpFailed: spec(9436, OWN_SIGNATURE, 'The mail to {server} failed: {detail}'),
  /** A program the host does not allow (entistore's `--allow-exec`): `LAUNCH EXTERNAL PROCESS`. */
  ExecNotAllowed: spec(9437, OWN_SIGNATURE, 'Running {program} is not allowed here: {detail}'),
  /** 4D calls nested past the project's bound, or too near the end of the thread's stack. */
  StackFull: spec(9438, OWN_SIGNATURE, 'The stack is full: {depth} calls are nested'),
  /** A collection, array, text, BLOB or listing past the project's bound (values/limits.ts). */
  TooLarge: spec(9439, OWN_SIGNATURE, '{what} of {size} {unit} is past the limit of {max}'),
  /** A pattern that backtracks past the project's bound of time (commands/regex-risk.ts). */
  RegexTooLong: spec(9440, OWN_SIGNATURE, 'The regular expression ran past its bound of {ms} ms'),
  /**
   * `Use` in code that cannot wait (a getter, an event run whole) on a shared object whose group
   * another call holds between two of its steps (context/use-lock.ts); 4D's process would wait.
   */
  SharedInUse: spec(
    9441,
    OWN_SIGNATURE,
    'The shared object is in use by another process, and this code cannot wait for it',
  ),
  /** What the disk refuses to a File or Folder function (a missing file read, a folder not empty). */
  FileError: spec(9431, OWN_SIGNATURE, 'Cannot {action} "{path}": {detail}'),
  /** A function called on an object that has no such function (docs/ORDA/ordaClasses.md). */
  UnknownMemberMethod: spec(-10729, RUNTIME_SIGNATURE, 'Unknown member method "{name}"'),
  /** `OB Instance of` given something that is not a class (docs/commands/ob-instance-of.md). */
  NotAClass: spec(-10745, RUNTIME_SIGNATURE, 'The class parameter is not a valid Class object'),
  /** A local variable in a formula made from a text (formula-from-string.md). */
  LocalInFormula: spec(
    -10737,
    RUNTIME_SIGNATURE,
    'A formula made from a text cannot use the local variable {name}',
  ),
  /** A project method that does not exist. */
  ProjectMethodNotFound: spec(-10508, RUNTIME_SIGNATURE, 'Project method not found: {name}'),
  /** `Generate`/`Verify password hash` given an algorithm, or a hash, other than bcrypt. */
  PasswordHashAlgorithm: spec(850, RUNTIME_SIGNATURE, 'Password-hash: Unsupported algorithm.'),
  /** `Verify password hash` given a bcrypt hash that is not well formed. */
  PasswordHashConsistency: spec(
    851,
    RUNTIME_SIGNATURE,
    'Password-hash: Consistency check failure.',
  ),
  /** `Generate password hash` given a cost outside 4 to 31. */
  PasswordHashCost: spec(
    852,
    RUNTIME_SIGNATURE,
    'Password-hash: Unavailable bcrypt cost parameter, please provide a value between 4 and 31.',
  ),
  /** `ASSERT` on a false expression. */
  AssertFailed: spec(-10518, RUNTIME_SIGNATURE, 'Assert failed: {assertion}'),
} as const satisfies Record<string, ErrorSpec>

export type ErrorName = keyof typeof ERRORS

/**
 * `message` with each `{name}` replaced by `args[name]`, written as text. A placeholder whose
 * argument is missing stays as written, so that a message never loses what it was about.
 */
export function fillPlaceholders(
  message: string,
  args: Readonly<Record<string, unknown>>,
  write: (value: unknown) => string = String,
): string {
  // No regular expression: an error may be made at the end of the stack, where compiling one
  // aborts the process (ops/call-depth.ts).
  let out = ''
  let from = 0
  for (;;) {
    const open = message.indexOf('{', from)
    const close = open < 0 ? -1 : message.indexOf('}', open + 1)
    if (close < 0) return out + message.slice(from)
    const inner = message.indexOf('{', open + 1)
    if (inner >= 0 && inner < close) {
      out += message.slice(from, inner)
      from = inner
      continue
    }
    const name = message.slice(open + 1, close)
    out += message.slice(from, open)
    out +=
      name !== '' && Object.hasOwn(args, name) ? write(args[name]) : message.slice(open, close + 1)
    from = close + 1
  }
}
