/**
 * @module The built-in names the grammar recognises without a token: 4D's commands (with their
 * numbers), the constants and the system variables whose names a plain identifier cannot spell
 * (they contain spaces), matched longest first and case-insensitively at a point of the source.
 *
 * A tokenized name (`Length:C16`, `Is text:K8:3`) needs none of this: its suffix ends it. Files
 * saved by 4D are tokenized; these tables serve the hand-written and documentation forms.
 */
import { COMMAND_TABLE } from './command-table.js'
import { NameTable } from './name-table.js'

export type Builtin =
  | { readonly kind: 'command'; readonly name: string; readonly number: number }
  | { readonly kind: 'constant'; readonly name: string }
  | { readonly kind: 'variable'; readonly name: string }

/**
 * The constants 4D code most often writes by name, as the documentation spells them (value types,
 * date and time formats, characters, math, ORDA and collection options, file and folder kinds,
 * application types, system formats, 4D folders, database parameters, break modes, ZIP options).
 * One whose first word is a command (`Date separator`, `Folder separator`) or that is one word
 * (`tool4d`) parses only from here.
 * The compiler finds their values; an unlisted one-word constant parses as a name.
 */
const CONSTANT_NAMES = `
Is alpha field|Is BLOB|Is Boolean|Is collection|Is date|Is float|Is integer|Is integer 64 bits
Is longint|Is null|Is object|Is picture|Is pointer|Is real|Is string var|Is subtable|Is text
Is time|Is undefined|Is variant|Array 2D|Blob array|Boolean array|Date array|Integer array
LongInt array|Object array|Picture array|Pointer array|Real array|String array|Text array
Time array|Blank if null date|Date RFC 1123|Internal date abbreviated|Internal date long
Internal date short|Internal date short special|ISO date|ISO date GMT|System date abbreviated
System date long|System date short|Blank if null time|HH MM|HH MM AM PM|HH MM SS|Hour min
Hour min sec|ISO time|Min sec|MM SS|System time long|System time long abbreviated
System time short|Carriage return|Line feed|Tab|Space|Backspace|Escape|Enter|Double quote|Quote
At sign|Pi|Degree|Radian|e number|dk auto merge|dk reload if stamp changed
dk force drop if stamp changed|dk stop dropping on first error|dk status success|dk status locked
dk status stamp has changed|dk status entity does not exist anymore|dk status serious error
dk status validation failed|dk status wrong permission|dk status automerge failed|dk count values
dk diacritical|dk key as string|dk with primary key|dk with stamp|dk keep ordered|dk non ordered
dk ascending|dk descending|ck ascending|ck descending|ck diacritical
ck keys as string|ck count values|ck shared|ck resolve pointers|fk platform path|fk posix path
fk resources folder|fk data folder|fk database folder|fk logs folder|fk web root folder
fk user preferences folder|fk desktop folder|fk documents folder|fk applications folder
fk home folder|fk licenses folder|fk remote database folder|fk system folder|fk overwrite
fk recursive|fk ignore invisible|Is a document|Is a folder|Read mode|Write mode|Read and write
sk char codes|sk case insensitive|sk diacritic insensitive|sk strict|sk width insensitive
sk kana insensitive|sk whole word|sk ignore empty strings|sk trim spaces|ck disable wildchar
sk execute in current database|sk execute in host database|Delete only if empty|Delete with contents
ck ignore null or empty|ck keep empty strings|ck keep null|MD5 digest|SHA1 digest|4D digest
SHA256 digest|SHA512 digest|MAXLONG|MAXINT|ek local|ek global
HTTP GET method|HTTP POST method|HTTP PUT method|HTTP DELETE method|HTTP HEAD method
HTTP OPTIONS method|HTTP TRACE method
mail mode ISO2022JP|mail mode ISO88591|mail mode UTF8|mail mode UTF8 in base64
SMTP authentication CRAM MD5|SMTP authentication login|SMTP authentication OAUTH2
SMTP authentication plain|mail disposition attachment|mail disposition inline
Into Windows log events|Into 4D debug message|Into 4D request log|Into 4D commands log
Into 4D diagnostic log|Into system standard outputs|Information message|Warning message|Error message
Native byte ordering|Macintosh byte ordering|PC byte ordering|Native real format
Extended real format|Macintosh double real format|PC double real format|Mac C string
Mac Pascal string|Mac text with length|Mac text without length|UTF8 C string
UTF8 text with length|UTF8 text without length|Scaled to fit|Scaled to fit proportional
Scaled to fit prop centered|Truncated centered|On background|Truncated non centered|Replicated|HTTP timeout|HTTP follow redirect|HTTP max redirect
HTTP display auth dial|HTTP reset auth settings|HTTP compression|HTTP client log
ek errors from components|Current localization|Sunday|Monday|Tuesday|Wednesday|Thursday
Friday|Saturday|January|February|March|April|May|June|July|August|September|October|November
December|4D Local mode|4D Volume desktop|4D Desktop|4D Remote mode|4D Server|tool4d
Decimal separator|Thousand separator|Currency symbol|Date separator|Time separator
System time short pattern|System time medium pattern|System time long pattern
System date short pattern|System date medium pattern|System date long pattern
Short date day position|Short date month position|Short date year position|System time AM label
System time PM label|Folder separator|Active 4D Folder|Licenses folder|4D Client database folder
Database folder|Database folder Unix syntax|Current resources folder|Logs folder|HTML Root folder
Data folder|MobileApps folder|fk mobileApps folder
4D Remote mode timeout|4D Server log recording|4D Server timeout|Auto synchro resources folder
Cache flush periodicity|Cache unload minimum size|Circular log limitation|Client HTTPS port ID
Client log recording|Client Server port ID|Client Web log recording
Current process debug log recording|Dates inside objects|Debug log recording|Diagnostic log level
Diagnostic log recording|Direct2D get active status|Direct2D status|Idle connections timeout
IMAP Log|Is current database a project|Is host database a project|Is host database writable
Libldap version|Libsasl version|Libzip version|Log command list|Min TLS version
Number of formulas in cache|OpenSSL version|Order by formula on server|Pause logging
PHP interpreter IP address|PHP interpreter port|POP3 Log|Port ID|Query by formula joins
Query by formula on server|RDP optimization|Remote connection sleep timeout
Server base process stack size|SMTP Log|Spellchecker|SQL Autocommit|SQL Engine case sensitivity
SQL Server Port ID|SSL cipher list|TCPUDP log recording|Times inside objects|Tips delay
Tips duration|Tips enabled|Use legacy network layer|User param value|Document unchanged
Document with native format|Document with CRLF|Document with CR|Document with LF|_o_Is float
ZIP Compression none|ZIP Compression standard|ZIP Without enclosing folder|ZIP Ignore invisible files
ZIP Encryption none|ZIP Compression LZMA|ZIP Compression XZ|ZIP Encryption AES128
ZIP Encryption AES192|ZIP Encryption AES256
`

/** 4D's system variables; the `Error …` ones are two words. */
const SYSTEM_VARIABLES = `OK|Document|Error|Error method|Error line|Error formula|FldDelimit
RecDelimit|KeyCode|Modifiers|MouseDown|MouseX|MouseY|MouseProc`

const split = (table: string): string[] =>
  table
    .split(/[|\n]/)
    .map((s) => s.trim())
    .filter((s) => s !== '')

function* entries(): Generator<readonly [string, Builtin]> {
  for (const entry of split(COMMAND_TABLE)) {
    const colon = entry.indexOf(':')
    const name = entry.slice(colon + 1)
    yield [name, { kind: 'command', name, number: Number(entry.slice(0, colon)) }]
  }
  for (const name of split(CONSTANT_NAMES)) yield [name, { kind: 'constant', name }]
  for (const name of split(SYSTEM_VARIABLES)) yield [name, { kind: 'variable', name }]
}

const TABLE = new NameTable<Builtin>(
  [...entries()].map(([name, builtin]) => [name, Object.freeze(builtin)] as const),
  (name) => {
    throw new Error(`builtins: ${name} is listed twice`)
  },
)

/** The built-in of this lower-case name, if any. */
export function builtinNamed(name: string): Builtin | undefined {
  return TABLE.get(name)
}

const NAMES_BY_NUMBER = new Map<number, string>()
for (const b of TABLE.values())
  if (b.kind === 'command' && !NAMES_BY_NUMBER.has(b.number)) NAMES_BY_NUMBER.set(b.number, b.name)

/** The name of the command of this number (the table's spelling), if 4D's list has it. */
export function commandName(number: number): string | undefined {
  return NAMES_BY_NUMBER.get(number)
}

/**
 * The longest built-in name written at `offset` of `input`: words of letters, digits and `_`
 * separated by one space, compared without case, ending where a word ends. Null when none is.
 */
export function matchBuiltin(
  input: string,
  offset: number,
): { readonly length: number; readonly builtin: Builtin } | null {
  const found = TABLE.match(input, offset)
  return found === null ? null : { length: found.length, builtin: found.value }
}
