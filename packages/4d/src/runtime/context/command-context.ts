/**
 * @module What a command may use of the code that runs it (CommandContext, which the Runtime
 * implements), and what the host gives the commands through it: its compiler of 4D code given as
 * text (commands/formulas.ts) and the web server it runs (commands/web-server.ts). The context
 * owns it, below the commands: the Runtime holds the commands' code (`rt.k`, typed CommandImpl)
 * and the commands receive the Runtime, so the interface between them is the lower one's.
 */
import type { CallFrame } from './call-chain.js'
import type { FileHost } from './file-host.js'
import type { FourDFunction, FunctionImpl } from './function-object.js'
import type { Pointer } from '../pointers/pointer.js'

/** A text as a formula's expression (`Formula from string`), or as one line of code (`EXECUTE FORMULA`). */
export type FormulaKind = 'expression' | 'statement'

/**
 * The host's compiler of 4D code given as text: the function the text makes (called with `This`
 * and the formula's parameters), or the 4D error of a text that does not compile, thrown.
 */
export type FormulaCompiler = (text: string, kind: FormulaKind) => FunctionImpl

/** What the host tells of the web server it runs, under 4D's names. */
export interface WebServerHost {
  readonly name: string
  readonly HTTPPort: number
  readonly IPAddressToListen: string
  readonly maxRequestSize: number
  readonly sessionCookieName: string
  readonly sessionCookieSameSite: string
  /**
   * The quotas in force, each undefined when not enforced; a write the server refuses throws
   * (a RangeError) and keeps the old value.
   */
  readonly quotas: Record<string, number | undefined>
  /** The HTTP rules in force (HTTPRules.json, or the rules option), as given; none when absent. */
  readonly rules?: readonly unknown[]
  /** When it started serving (epoch milliseconds, the datastore's clock). */
  readonly startedAt?: number
  /** The requests it has received since. */
  readonly requestCount?: number
}

/** The host's log of `LOG EVENT`: a message and its importance. */
export type EventLog = (importance: 'information' | 'warning' | 'error', message: string) => void

/** What an image conversion makes: the media type, and a size with how to fit the image in it. */
export interface ImageTarget {
  /** `image/png`, `image/jpeg`, … */
  readonly type: string
  readonly width?: number
  readonly height?: number
  /**
   * 4D's thumbnail modes (create-thumbnail.md): `fill` stretches to the size (Scaled to fit),
   * `contain` scales proportionally and centres on white (prop centered), `contain-start` the
   * same at the top left (proportional).
   */
  readonly fit?: 'fill' | 'contain' | 'contain-start'
  /** The quality of a lossy codec (JPEG, WebP), 1 to 100: `CONVERT PICTURE`'s compression. */
  readonly quality?: number
}

/**
 * The workers 4D code calls (`CALL WORKER`, docs/commands/call-worker.md): the host's (the project
 * runner's, project/workers.ts). Here a worker is a queue of jobs the server's own thread runs
 * after the calling code's turn, in order, each as the caller (its session and privileges), with
 * the worker's process variables kept from job to job.
 */
export interface WorkerHost {
  /** Queues `job` (a formula, or a project method's name) with `args` on the worker `name`. */
  call(name: string, job: FourDFunction | string, args: unknown[]): void
  /**
   * `New process`: `job` run once as a process named `name` of its own (fresh variables), queued
   * as a worker's job is; its number. `unique`: a process of that name not run yet answers.
   */
  spawn(name: string, job: FourDFunction | string, args: unknown[], unique: boolean): number
  /** `KILL WORKER`: the worker's queued jobs dropped, its process variables with them. */
  kill(name: string): void
  /** Runs the queued jobs now, in order, until `done()` or none is left (a signal's `wait`). */
  runUntil(done: () => boolean): void
}

/** An HTTP request 4D code sends (`HTTP Request`, `HTTP Get`). */
export interface HttpAsk {
  readonly method: string
  readonly url: string
  readonly headers: readonly (readonly [string, string])[]
  readonly body?: Uint8Array
  readonly timeoutMs: number
  /** How many redirections to follow (0: none; the reply is the redirection). */
  readonly redirects: number
}

/** The server's answer. */
export interface HttpReply {
  readonly status: number
  readonly statusText?: string
  readonly headers: readonly (readonly [string, string])[]
  readonly body: Uint8Array
}

/**
 * Outgoing HTTP requests, synchronous as 4D's commands are: the host's, which decides which hosts
 * code may reach (entistore's: those `--allow-http` names, none by default). A request it does not
 * allow is `{ refused }`, one that fails on the network (no answer, a timeout) `{ failed }`.
 */
export interface HttpHost {
  request(ask: HttpAsk): HttpReply | { readonly refused: string } | { readonly failed: string }
}

/** A program 4D code runs (`LAUNCH EXTERNAL PROCESS`). */
export interface ExecAsk {
  /** As written: a name found on the PATH, or a path. */
  readonly program: string
  readonly args: readonly string[]
  /** The folder it runs in (`_4D_OPTION_CURRENT_DIRECTORY`), a system path; none: the host's. */
  readonly cwd?: string
  /** Variables added to its environment (`SET ENVIRONMENT VARIABLE`). */
  readonly env: Readonly<Record<string, string>>
  /** Its standard input. */
  readonly input: Uint8Array
  /** Whether the call waits for it to end (`_4D_OPTION_BLOCKING_EXTERNAL_PROCESS`). */
  readonly blocking: boolean
}

/** What it did: its process's number, what it wrote (when waited for), its exit status. */
export interface ExecReply {
  readonly pid: number
  readonly stdout: Uint8Array
  readonly stderr: Uint8Array
  readonly status: number | null
}

/**
 * External programs, run as 4D's commands run them: the host's, which decides which programs code
 * may run (entistore's: those `--allow-exec` names, none by default). A program it does not allow
 * is `{ refused }`; one that cannot start (not found) `{ failed }`, which 4D tells by OK = 0.
 */
export interface ExecHost {
  run(ask: ExecAsk): ExecReply | { readonly refused: string } | { readonly failed: string }
}

/** A mail 4D code sends (`4D.SMTPTransporter`'s `send()`), or without `message` a connection check. */
export interface SmtpAsk {
  readonly host: string
  readonly port: number
  /** TLS from the start (`implicit`, port 465), or STARTTLS once the server offers it. */
  readonly tls: 'implicit' | 'starttls'
  /** Go on unencrypted when the server offers no STARTTLS (`acceptUnsecureConnection`). */
  readonly acceptUnsecure: boolean
  /**
   * Logging in, when the transporter has a user: a password, or an OAuth2 token; `mode`, the
   * mechanism asked (PLAIN, LOGIN, CRAM-MD5, OAUTH2), else the strongest the server offers.
   */
  readonly auth?: {
    readonly user: string
    readonly password?: string
    readonly token?: string
    readonly mode?: string
  }
  /** To connect and be greeted (`connectionTimeOut`). */
  readonly connectTimeoutMs: number
  /** For the whole dialogue (`sendTimeOut`). */
  readonly sendTimeoutMs: number
  /** The envelope (MAIL FROM, each RCPT TO) and the message as the MIME writer wrote it. */
  readonly message?: {
    readonly from: string
    readonly recipients: readonly string[]
    readonly mime: Uint8Array
  }
}

/** The server's last reply: the one that ended the dialogue (DATA's, or the first refusal). */
export interface SmtpReply {
  readonly status: number
  readonly statusText: string
}

/**
 * Outgoing mail, synchronous as 4D's functions are: the host's, which decides which servers code
 * may reach (entistore's: those `--allow-smtp` names, none by default). A server it does not allow
 * is `{ refused }`, a dialogue that fails with no reply to tell (the network, TLS, a timeout)
 * `{ failed }`; any reply of the server, a refusal included, is an SmtpReply.
 */
export interface SmtpHost {
  send(ask: SmtpAsk): SmtpReply | { readonly refused: string } | { readonly failed: string }
}

/**
 * Image conversions, synchronous as 4D's commands are (`CREATE THUMBNAIL`, `PICTURE TO BLOB` to
 * another codec): the host's (entistore's runs sharp in a worker thread). Throws when the bytes
 * are not an image it reads.
 */
export interface ImageHost {
  convert(bytes: Uint8Array, target: ImageTarget): Uint8Array
}

/** What a command may use of the code that runs it (the runtime context implements it). */
export interface CommandContext {
  /** Milliseconds since the epoch, from the injectable clock. */
  now(): number
  /**
   * The budget's passes left before the clock is read (budget.ts): a command that goes through
   * much data counts its own passes (`if (--rt.ticks < 0) rt.tick()`), so the budget ends it.
   */
  ticks: number
  tick(): void
  /** The errors `Last errors` returns (null when none). */
  lastErrorObjects(): unknown
  /** The session the code runs for (`Session`), the host's; undefined for none. */
  readonly session?: object | undefined
  /** The web server the host runs (`WEB Server`, commands/web-server.ts); undefined outside one. */
  readonly webServer?: WebServerHost | undefined
  /** The project's folders `File` and `Folder` reach (file-host.ts); undefined for none. */
  readonly files?: FileHost | undefined
  /** Where `LOG EVENT` writes (the host's log); undefined: the events go nowhere. */
  readonly log?: EventLog | undefined
  /** Image conversions (`CREATE THUMBNAIL`); undefined: a conversion raises when reached. */
  readonly images?: ImageHost | undefined
  /** Outgoing HTTP requests (`HTTP Request`); undefined: they raise when reached. */
  readonly http?: HttpHost | undefined
  /** External programs (`LAUNCH EXTERNAL PROCESS`); undefined: they raise when reached. */
  readonly exec?: ExecHost | undefined
  /** Outgoing mail (`SMTP New transporter`); undefined: a send raises when reached. */
  readonly smtp?: SmtpHost | undefined
  /** The workers (`CALL WORKER`); undefined: the commands raise when reached. */
  readonly workers?: WorkerHost | undefined
  /** The worker this code runs in (`Current process name`); undefined: a call's own process. */
  readonly worker?: string | undefined
  /** `Storage`: the application's shared object (the datastore's when the host gives one). */
  readonly storage: object
  /** The error-handling method `ON ERR CALL` installed ("" for none). */
  errorMethod: string
  /** A process variable's value (`Error` after `ON ERR CALL`). */
  pvGet(name: string): unknown
  pvSet(name: string, value: unknown): void
  /** An interprocess variable's value (`<>name`), every process's. */
  ipGet(name: string): unknown
  ipSet(name: string, value: unknown): void
  /** `->name`: the pointer to a process variable, one a run. */
  pvPointer(name: string): Pointer
  /** The compiler of 4D code given as text (commands/formulas.ts), the host's; undefined for none. */
  readonly compileFormula?: FormulaCompiler | undefined
  /** `name(args)`: the project method `name`. */
  method(name: string, args: unknown[]): unknown
  /** A formula's function object over compiled code (`Formula(expr)`). */
  formula(source: string, impl: FunctionImpl, captured: unknown[]): FourDFunction
  /** Calls a function object on this context. */
  invoke(fn: FourDFunction, self: unknown, args: unknown[]): unknown
  /** `target.name(args)`: a member function of a 4D value. */
  call(target: unknown, name: string, args: unknown[]): unknown
  /** The datastore the code runs on (`ds`), the host's; undefined for none. */
  readonly ds: unknown
  /** What runs now, innermost last (`Get call chain`). */
  readonly calls: readonly CallFrame[]
}

/** A command's code: the context, then its arguments as 4D values. */
export type CommandImpl = (rt: CommandContext, ...args: unknown[]) => unknown

/** A command's code as steps (values/work.ts): a generator stopping at its budget's checks. */
export type CommandSteps = (
  rt: CommandContext,
  ...args: unknown[]
) => Generator<void, unknown, void>
