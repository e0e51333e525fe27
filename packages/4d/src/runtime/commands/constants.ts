/**
 * @module The values of 4D's constants as code writes them (`Is text`, `Is text:K8:3`), by name
 * compared without case: the compiler puts the value in place. A constant missing here parses and
 * raises "not implemented" when reached. Values from 4D's documentation: value-type.md, type.md and
 * json-parse.md ("Field and Variable Types"), string.md (date and time display formats),
 * position.md and split-string.md ("Strings"), CollectionClass.md and the "Objects and
 * collections" theme (`ck …`), generate-digest.md ("Digest Type"), the "Characters" theme
 * (character codes, as `Char(Carriage return)` and `Character code(…)=Tab` use them), "Math" and
 * "Days and Months", the BLOB theme, application-type.md, get-system-format.md ("System Format"),
 * get-4d-folder.md ("4D Environment") and folder.md (`fk …`), set-database-parameter.md (its
 * selectors, database-parameters.ts). `Folder separator` is "/" (below).
 * `ck shared` has no documented value: 2, a bit apart from `ck resolve pointers` (compat.md).
 */
import { DAYS, MONTHS } from './format/calendar-names.js'
import { DATABASE_PARAMETERS } from './database-parameters.js'

const VALUE_TYPES: Readonly<Record<string, number>> = {
  'Is alpha field': 0,
  'Is real': 1,
  'Is text': 2,
  'Is picture': 3,
  'Is date': 4,
  'Is undefined': 5,
  'Is Boolean': 6,
  'Is integer': 8,
  'Is longint': 9,
  'Is time': 11,
  'Is variant': 12,
  'Is pointer': 23,
  'Is string var': 24,
  'Is integer 64 bits': 25,
  'Is BLOB': 30,
  'Is float': 35,
  // Obsolete names 4D keeps with `_o_` (value-type.md).
  '_o_Is float': 35,
  'Is object': 38,
  'Is collection': 42,
  'Is null': 255,
  'Is subtable': 7,
  // The arrays' (type.md, "Field and Variable Types"), which code compares `Type` with.
  'Array 2D': 13,
  'Real array': 14,
  'Integer array': 15,
  'LongInt array': 16,
  'Date array': 17,
  'Text array': 18,
  'Picture array': 19,
  'Pointer array': 20,
  'String array': 21,
  'Boolean array': 22,
  'Blob array': 31,
  'Time array': 32,
  'Object array': 39,
}

const DATE_FORMATS: Readonly<Record<string, number>> = {
  'System date short': 1,
  'System date abbreviated': 2,
  'System date long': 3,
  'Internal date short special': 4,
  'Internal date long': 5,
  'Internal date abbreviated': 6,
  'Internal date short': 7,
  'ISO date': 8,
  'ISO date GMT': 9,
  'Date RFC 1123': 10,
  'Blank if null date': 100,
}

const TIME_FORMATS: Readonly<Record<string, number>> = {
  'HH MM SS': 1,
  'HH MM': 2,
  'Hour min sec': 3,
  'Hour min': 4,
  'HH MM AM PM': 5,
  'MM SS': 6,
  'Min sec': 7,
  'ISO time': 8,
  'System time short': 9,
  'System time long abbreviated': 10,
  'System time long': 11,
  'Blank if null time': 100,
}

const STRINGS: Readonly<Record<string, number>> = {
  'sk strict': 0,
  'sk char codes': 1,
  'sk case insensitive': 2,
  'sk diacritic insensitive': 4,
  'sk kana insensitive': 8,
  'sk width insensitive': 16,
  'sk whole word': 32,
  'sk ignore empty strings': 1,
  'sk trim spaces': 2,
}

const COLLECTIONS: Readonly<Record<string, number>> = {
  'ck ascending': 0,
  'ck descending': 1,
  'ck diacritical': 8,
  'ck disable wildchar': 16,
  'ck count values': 32,
  'ck ignore null or empty': 1,
  'ck keep empty strings': 2,
  'ck keep null': 1,
  'ck resolve pointers': 1,
  'ck shared': 2,
}

// Log Events (log-event.md): the output types and the importance levels.
const LOG_EVENTS: Readonly<Record<string, number>> = {
  'Into Windows log events': 0,
  'Into 4D debug message': 1,
  'Into 4D request log': 2,
  'Into 4D commands log': 3,
  'Into 4D diagnostic log': 5,
  'Into system standard outputs': 6,
  'Information message': 0,
  'Warning message': 1,
  'Error message': 2,
}

const DIGESTS: Readonly<Record<string, number>> = {
  'MD5 digest': 0,
  'SHA1 digest': 1,
  '4D digest': 2,
  'SHA256 digest': 3,
  'SHA512 digest': 4,
}

// The HTTP Client theme's methods: the text of each (the commands that send them do not run here,
// but code builds requests with them, and `HTTP Get` must not take `HTTP GET method`'s words).
const HTTP_METHODS: Readonly<Record<string, string>> = {
  'HTTP GET method': 'GET',
  'HTTP POST method': 'POST',
  'HTTP PUT method': 'PUT',
  'HTTP DELETE method': 'DELETE',
  'HTTP HEAD method': 'HEAD',
  'HTTP OPTIONS method': 'OPTIONS',
  'HTTP TRACE method': 'TRACE',
}

// The Mail theme's texts (Transporter.md, MailAttachmentClass.md): charsets, logins, dispositions.
const MAIL: Readonly<Record<string, string>> = {
  'mail mode ISO2022JP': 'US-ASCII_ISO-2022-JP_UTF8_QP',
  'mail mode ISO88591': 'ISO-8859-1',
  'mail mode UTF8': 'US-ASCII_UTF8_QP',
  'mail mode UTF8 in base64': 'US-ASCII_UTF8_B64',
  'SMTP authentication CRAM MD5': 'CRAM-MD5',
  'SMTP authentication login': 'LOGIN',
  'SMTP authentication OAUTH2': 'OAUTH2',
  'SMTP authentication plain': 'PLAIN',
  'mail disposition attachment': 'attachment',
  'mail disposition inline': 'inline',
}

const CHARACTERS: Readonly<Record<string, number>> = {
  Enter: 3,
  Backspace: 8,
  Tab: 9,
  'Line feed': 10,
  'Carriage return': 13,
  Escape: 27,
  Space: 32,
  'Double quote': 34,
  Quote: 39,
  'At sign': 64,
}

const MATH: Readonly<Record<string, number>> = {
  Pi: Math.PI,
  'e number': Math.E,
  Degree: Math.PI / 180,
  Radian: 180 / Math.PI,
  MAXLONG: 2147483647,
  MAXINT: 32767,
}

// Days and Months (day-number.md, month-of.md): Sunday is 1, January is 1.
const DAYS_AND_MONTHS: Readonly<Record<string, number>> = Object.fromEntries([
  ...DAYS.map((d, i) => [d, i + 1]),
  ...MONTHS.map((m, i) => [m, i + 1]),
])

// File and Folder (file.md, folder.md, FileClass.md, FolderClass.md).
const FILES: Readonly<Record<string, number>> = {
  // FileClass.md's break modes (getText, setText).
  'Document unchanged': 0,
  'Document with native format': 1,
  'Document with CRLF': 2,
  'Document with CR': 3,
  'Document with LF': 4,
  'fk posix path': 0,
  'fk platform path': 1,
  'fk database folder': 4,
  'fk resources folder': 6,
  'fk logs folder': 7,
  'fk data folder': 9,
  'fk web root folder': 8,
  'fk mobileApps folder': 10,
  'fk overwrite': 4,
  'fk recursive': 1,
  'fk ignore invisible': 8,
  'Delete only if empty': 0,
  'Delete with contents': 1,
}

// ZIP (zip-create-archive.md): the page names these constants but gives no values, so these are
// a choice: the compressions take libzip's method codes (4D zips with libzip, `Libzip version`),
// -1 its default (deflate) and 0 stored; the options are bits. LZMA, XZ and AES are not written
// here (commands/zip.ts): they have no value, so they raise "not implemented" when reached.
const ZIP: Readonly<Record<string, number>> = {
  'ZIP Compression none': 0,
  'ZIP Compression standard': -1,
  'ZIP Without enclosing folder': 1,
  'ZIP Ignore invisible files': 2,
  'ZIP Encryption none': 0,
}

// Application type (application-type.md): Entistore answers 4D Server's.
const APPLICATION_TYPES: Readonly<Record<string, number>> = {
  '4D Local mode': 0,
  '4D Volume desktop': 1,
  '4D Desktop': 3,
  '4D Remote mode': 4,
  '4D Server': 5,
  tool4d: 6,
}

// System Format (get-system-format.md).
const SYSTEM_FORMATS: Readonly<Record<string, number>> = {
  'Decimal separator': 0,
  'Thousand separator': 1,
  'Currency symbol': 2,
  'System time short pattern': 3,
  'System time medium pattern': 4,
  'System time long pattern': 5,
  'System date short pattern': 6,
  'System date medium pattern': 7,
  'System date long pattern': 8,
  'Date separator': 13,
  'Time separator': 14,
  'Short date day position': 15,
  'Short date month position': 16,
  'Short date year position': 17,
  'System time AM label': 18,
  'System time PM label': 19,
}

// 4D Environment (get-4d-folder.md): the folders `Get 4D folder` names.
const FOLDERS_4D: Readonly<Record<string, number>> = {
  'Active 4D Folder': 0,
  'Licenses folder': 1,
  '4D Client database folder': 3,
  'Database folder': 4,
  'Database folder Unix syntax': 5,
  'Current resources folder': 6,
  'Logs folder': 7,
  'HTML Root folder': 8,
  'Data folder': 9,
  'MobileApps folder': 10,
}

// System Documents: `Folder separator` is the separator of the host's paths, ":" on macOS and
// "\\" on Windows in 4D. The paths Entistore gives 4D code (`Get 4D folder`, `Temporary folder`,
// a File's `platformPath`) are the POSIX paths of the project's filesystems (files/file-of.ts),
// whatever the system the server runs on: "/" joins their names.
const SYSTEM_DOCUMENTS: Readonly<Record<string, string>> = {
  'Folder separator': '/',
}

// Formula from string's context (formula-from-string.md): the pages give no value; 0 the default.
const FORMULAS: Readonly<Record<string, number>> = {
  'sk execute in current database': 0,
  'sk execute in host database': 1,
}

// ORDA (EntityClass.md, EntitySelectionClass.md, DataClassClass.md): the status codes are the
// pages'; the options' numbers are not documented (compat.md, "ORDA in 4D code"): bits, so that
// the documented sums (`dk with primary key+dk with stamp`) keep both.
const ORDA: Readonly<Record<string, number>> = {
  'dk status success': 0,
  'dk status wrong permission': 1,
  'dk status stamp has changed': 2,
  'dk status locked': 3,
  'dk status serious error': 4,
  'dk status entity does not exist anymore': 5,
  'dk status automerge failed': 6,
  'dk status validation failed': 7,
  'dk force drop if stamp changed': 1,
  'dk auto merge': 1,
  'dk key as string': 1,
  'dk stop dropping on first error': 1,
  'dk keep ordered': 1,
  'dk non ordered': 0,
  'dk ascending': 0,
  'dk descending': 1,
  'dk reload if stamp changed': 2,
  'dk with primary key': 2,
  'dk with stamp': 4,
  'dk diacritical': 8,
  'dk count values': 32,
}

/** The BLOB theme: byte orders, real and text formats (integer-to-blob.md, text-to-blob.md…). */
const BLOBS: Readonly<Record<string, number>> = {
  'Native byte ordering': 0,
  'Macintosh byte ordering': 1,
  'PC byte ordering': 2,
  'Native real format': 0,
  'Extended real format': 1,
  'Macintosh double real format': 2,
  'PC double real format': 3,
  'Mac C string': 0,
  'Mac Pascal string': 1,
  'Mac text with length': 2,
  'Mac text without length': 3,
  'UTF8 C string': 4,
  'UTF8 text with length': 5,
  'UTF8 text without length': 6,
}

// "Picture Display Formats" (object-set-format.md), three of which CREATE THUMBNAIL takes: tokenized
// `Scaled to fit:K6:2`, so a localized name (`Non tronquée:K6:2`) is found by its index too.
const PICTURE_FORMATS: Readonly<Record<string, number>> = {
  'Truncated centered': 1,
  'Scaled to fit': 2,
  'On background': 3,
  'Truncated non centered': 4,
  'Scaled to fit proportional': 5,
  'Scaled to fit prop centered': 6,
  Replicated: 7,
}

/** Constants of a theme whose value is their index in it (`:K6:5` is 5), by theme. */
const VALUE_IS_INDEX: ReadonlyMap<number, ReadonlySet<number>> = new Map([
  [6, new Set(Object.values(PICTURE_FORMATS))],
])

// HTTP SET OPTION's options (http-set-option.md).
const HTTP_OPTIONS: Readonly<Record<string, number>> = {
  'HTTP timeout': 1,
  'HTTP follow redirect': 2,
  'HTTP max redirect': 3,
  'HTTP display auth dial': 4,
  'HTTP reset auth settings': 5,
  'HTTP compression': 6,
  'HTTP client log': 7,
}

const TABLE = new Map<string, number | string>(
  Object.entries({
    ...DATABASE_PARAMETERS,
    ...HTTP_OPTIONS,
    ...PICTURE_FORMATS,
    ...VALUE_TYPES,
    ...DATE_FORMATS,
    ...TIME_FORMATS,
    ...STRINGS,
    ...COLLECTIONS,
    ...DIGESTS,
    ...LOG_EVENTS,
    ...HTTP_METHODS,
    ...MAIL,
    ...CHARACTERS,
    ...MATH,
    ...DAYS_AND_MONTHS,
    ...ORDA,
    ...FILES,
    ...ZIP,
    ...FORMULAS,
    ...BLOBS,
    ...APPLICATION_TYPES,
    ...SYSTEM_FORMATS,
    ...FOLDERS_4D,
    ...SYSTEM_DOCUMENTS,
  }).map(([k, v]) => [k.toLowerCase(), v]),
)

/**
 * The value of the constant of that name, if the table has it; or of its token (`:K6:2`), for a
 * name written in another language than the table's.
 */
export function constantValue(
  name: string,
  token?: { theme: number | null; index: number | null },
): number | string | undefined {
  const value = TABLE.get(name.toLowerCase())
  if (value !== undefined || token?.theme == null || token.index == null) return value
  return VALUE_IS_INDEX.get(token.theme)?.has(token.index) ? token.index : undefined
}

/** Every constant's name, in lower case (the grammar's table of names must know each). */
export const constantNames = (): string[] => [...TABLE.keys()]

/** How many constants the table has (for the documentation's counts). */
export const constantCount = (): number => TABLE.size
