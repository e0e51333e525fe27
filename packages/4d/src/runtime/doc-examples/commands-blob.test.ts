// The BLOB type and the BLOB theme (docs/Concepts/dt_blob.md, docs/API/BlobClass.md,
// docs/commands-legacy/text-to-blob.md, blob-to-text.md, integer-to-blob.md, longint-to-blob.md,
// real-to-blob.md, blob-to-integer.md, set-blob-size.md, insert-in-blob.md, delete-from-blob.md,
// copy-blob.md, convert-from-text.md, convert-to-text.md): the pages' examples, each with the
// result it states ("the size of vxBlob is 100 bytes", "vxBLOB{50} = $02").
import { expr, page, steps, type Check } from './doc.fixture.js'

const bytesOf = (blob: string, from: number, to: number): string =>
  `[${Array.from({ length: to - from }, (_, i) => `${blob}{${from + i}}`).join('; ')}]`

page('BLOB (dt_blob.md)', [
  steps('a scalar BLOB', 'var $vBlobA; $vBlobB : Blob\nSET BLOB SIZE($vBlobA;10*1024)', [
    ['', 'BLOB size($vBlobA)', 10240],
    ['', 'Value type($vBlobA)=Is BLOB', true],
    // "Assign the first blob to the second one": a copy, the first one altered alone after.
    [
      '$vBlobB:=$vBlobA\nSET BLOB SIZE($vBlobA;0)',
      '[BLOB size($vBlobA); BLOB size($vBlobB)]',
      [0, 10240],
    ],
  ]),
  steps(
    'automatic conversion of blob type',
    'var $myBlob : Blob\nvar $o : Object\nTEXT TO BLOB("abc";$myBlob;UTF8 text without length)',
    [
      ['$o:=New object("blob"; $myBlob)', 'OB Instance of($o.blob; 4D.Blob)', true],
      ['', 'Value type($o.blob)', 38],
      ['$myBlob:=$o.blob', 'Value type($myBlob)', 30],
      ['', 'BLOB to text($myBlob;UTF8 text without length)', 'abc'],
    ],
  ),
  {
    name: 'individually accessing bytes: 0 to N-1 with curly brackets',
    code: 'var $vBlob : Blob\nSET BLOB SIZE($vBlob;256;7)\n$n:=0\nFor($i;0;BLOB size($vBlob)-1)\n$n:=$n+$vBlob{$i}\nEnd for\nreturn $n',
    expected: 256 * 7,
  },
  {
    name: "a 4D.Blob's bytes with square brackets",
    code: 'var $b : Blob\nTEXT TO BLOB("abcd";$b;UTF8 text without length)\n$blobObj:=4D.Blob.new($b)\nreturn [$blobObj[3]; $blobObj[4]]',
    expected: [100, null],
  },
  {
    name: 'passing a 4D.Blob to a command that reads a BLOB',
    code: 'var $myBlob: 4D.Blob\n$myBlob:= 4D.Blob.new()\nreturn BLOB to text($myBlob; UTF8 text without length)',
    expected: '',
  },
  {
    name: 'blobs take no operator',
    code: 'var $a; $b : Blob\nreturn $a=$b',
    error: { errCode: 54 },
  },
  {
    name: 'a command given something that is no BLOB raises 9406',
    code: 'return BLOB size("abc")',
    error: { errCode: 9406, contains: 'BLOB' },
  },
  {
    name: 'a command that alters a BLOB refuses a 4D.Blob',
    code: '$o:=4D.Blob.new()\nSET BLOB SIZE($o;2)',
    error: { errCode: 9415, contains: '4D.Blob' },
  },
])

page('4D.Blob (BlobClass.md)', [
  steps(
    'the example',
    'var $myBlob : 4D.Blob\nCONVERT FROM TEXT("Hello, World!"; "UTF-8"; $myBlob)',
    [
      ['', 'OB Instance of($myBlob; 4D.Blob)', true],
      ['', 'Convert to text($myBlob; "UTF-8")', 'Hello, World!'],
      ['$myNewBlob:=$myBlob.slice(0; 5)', 'Convert to text($myNewBlob; "UTF-8")', 'Hello'],
      ['', '$myBlob.size', 13],
      // Negative positions count from the end; a start past the end gives an empty blob.
      ['', 'Convert to text($myBlob.slice(-6; -1); "UTF-8")', 'World'],
      ['', '$myBlob.slice(20).size', 0],
    ],
  ),
  expr('4D.Blob.new().size', 0),
  {
    name: '.size cannot be assigned (a 4D.Blob is not alterable)',
    code: '$b:=4D.Blob.new()\n$b.size:=3',
    error: { errCode: 9411 },
  },
])

const TEXT_FORMATS: Check[] = [
  ['Mac C string', 5],
  ['Mac Pascal string', 5],
  ['Mac text with length', 6],
  ['Mac text without length', 4],
  ['UTF8 C string', 6],
  ['UTF8 text with length', 9],
  ['UTF8 text without length', 5],
].map(([format, size]) => ({
  name: `TEXT TO BLOB("Café";vxBlob;${format}): size of BLOB becomes ${size} bytes`,
  code: `SET BLOB SIZE(vxBlob;0)\nvar vtValue : Text\nvtValue:="Café"\nTEXT TO BLOB(vtValue;vxBlob;${format})\nreturn [BLOB size(vxBlob); BLOB to text(vxBlob;${format};$o:=0;4)]`,
  expected: [size, 'Café'],
}))

page('TEXT TO BLOB, BLOB to text', [
  TEXT_FORMATS.map((c) => ({ ...c, code: `var $o : Integer\n${c.code.replace('$o:=0', '$o')}` })),
  // The table of formats: "Café" in each.
  expr('Convert to text(4D.Blob.new(); "UTF-8")', ''),
  {
    name: 'UTF8 text with length: "Café" --> $00 00 00 05 43 61 66 C3 A9',
    code: `TEXT TO BLOB("Café";$b;UTF8 text with length)\nreturn ${bytesOf('$b', 0, 9)}`,
    expected: [0, 0, 0, 5, 0x43, 0x61, 0x66, 0xc3, 0xa9],
  },
  {
    name: 'Mac Pascal string: "Café" --> $04 43 61 66 8E',
    code: `TEXT TO BLOB("Café";$b;Mac Pascal string)\nreturn ${bytesOf('$b', 0, 5)}`,
    expected: [4, 0x43, 0x61, 0x66, 0x8e],
  },
  {
    name: 'the offset variable is advanced by the bytes written and read, * appends',
    code: 'var $b : Blob\nvar $w; $r : Integer\nTEXT TO BLOB("ab";$b;UTF8 C string;$w)\nTEXT TO BLOB("cd";$b;UTF8 C string;$w)\nTEXT TO BLOB("ef";$b;UTF8 text without length;*)\nreturn [$w; BLOB to text($b;UTF8 C string;$r); BLOB to text($b;UTF8 C string;$r); $r; BLOB to text($b;UTF8 text without length;$r)]',
    expected: [6, 'ab', 'cd', 6, 'ef'],
  },
  {
    name: 'reading past the end of the BLOB is an error',
    code: 'var $b : Blob\n$o:=3\nreturn BLOB to text($b;UTF8 C string;$o)',
    error: { errCode: 9415 },
  },
])

page('INTEGER, LONGINT, REAL TO BLOB and back', [
  {
    name: 'INTEGER TO BLOB example 1: at offset 50 of 100 bytes, Macintosh byte ordering',
    code: `SET BLOB SIZE(vxBlob;100)\nvlOffset:=50\nINTEGER TO BLOB(518;vxBlob;Macintosh byte ordering;vlOffset)\nreturn [BLOB size(vxBlob); vxBlob{50}; vxBlob{51}; vlOffset]`,
    expected: [100, 0x02, 0x06, 52],
  },
  {
    name: 'INTEGER TO BLOB example 2: PC byte ordering',
    code: 'INTEGER TO BLOB(0x0206;vxBlob;PC byte ordering)\nreturn [BLOB size(vxBlob); vxBlob{0}; vxBlob{1}]',
    expected: [2, 0x06, 0x02],
  },
  {
    name: 'INTEGER TO BLOB example 3: * appends',
    code: 'SET BLOB SIZE(vxBlob;100)\nINTEGER TO BLOB(0x0206;vxBlob;PC byte ordering;*)\nreturn [BLOB size(vxBlob); vxBlob{100}; vxBlob{101}]',
    expected: [102, 0x06, 0x02],
  },
  {
    name: "INTEGER TO BLOB example 4: Native byte ordering is Intel's here",
    code: 'INTEGER TO BLOB(0x0206;vxBlob;Native byte ordering)\nreturn [vxBlob{0}; vxBlob{1}]',
    expected: [0x06, 0x02],
  },
  {
    name: 'INTEGER TO BLOB example 5: Macintosh byte ordering',
    code: 'INTEGER TO BLOB(0x0206;vxBlob;Macintosh byte ordering)\nreturn [BLOB size(vxBlob); vxBlob{0}; vxBlob{1}]',
    expected: [2, 0x02, 0x06],
  },
  {
    name: 'LONGINT TO BLOB: 4 bytes, Macintosh byte ordering',
    code:
      'LONGINT TO BLOB(0x01020304;vxBlob;Macintosh byte ordering)\nreturn ' +
      bytesOf('vxBlob', 0, 4),
    expected: [1, 2, 3, 4],
  },
  {
    name: 'values written in a row read back in a row with one offset variable',
    code: 'var $b : Blob\nvar $o : Integer\nINTEGER TO BLOB(-2;$b;PC byte ordering;*)\nLONGINT TO BLOB(-70000;$b;Macintosh byte ordering;*)\nREAL TO BLOB(1.5;$b;PC double real format;*)\nREAL TO BLOB(-0.25;$b;Macintosh double real format;*)\nreturn [BLOB size($b); BLOB to integer($b;PC byte ordering;$o); BLOB to longint($b;Macintosh byte ordering;$o); BLOB to real($b;PC double real format;$o); BLOB to real($b;Macintosh double real format;$o); $o]',
    expected: [22, -2, -70000, 1.5, -0.25, 22],
  },
  {
    name: 'the 10-byte Extended real format is refused',
    code: 'REAL TO BLOB(1;$b;Extended real format)',
    error: { errCode: 9415 },
  },
])

page('SET BLOB SIZE, INSERT IN BLOB, DELETE FROM BLOB, COPY BLOB', [
  {
    name: 'SET BLOB SIZE with a filler, then smaller',
    code:
      'SET BLOB SIZE($b;3;255)\n$a:=' +
      bytesOf('$b', 0, 3) +
      '\nSET BLOB SIZE($b;1)\nreturn [$a; BLOB size($b)]',
    expected: [[255, 255, 255], 1],
  },
  {
    name: 'INSERT IN BLOB inserts len bytes of the filler at offset; DELETE FROM BLOB removes them',
    code: `TEXT TO BLOB("abcd";$b;UTF8 text without length)\nINSERT IN BLOB($b;2;2;0x2D)\n$a:=BLOB to text($b;UTF8 text without length)\nDELETE FROM BLOB($b;1;3)\nreturn [$a; BLOB to text($b;UTF8 text without length)]`,
    expected: ['ab--cd', 'acd'],
  },
  {
    name: 'COPY BLOB copies len bytes into the destination, grown as needed',
    code: 'TEXT TO BLOB("hello";$src;UTF8 text without length)\nTEXT TO BLOB("ab";$dst;UTF8 text without length)\nCOPY BLOB($src;$dst;1;1;4)\nreturn BLOB to text($dst;UTF8 text without length)',
    expected: 'aello',
  },
])

page('CONVERT FROM TEXT, Convert to text', [
  {
    name: 'a charset by name or MIBEnum number, read back',
    code: 'var $b : Blob\nCONVERT FROM TEXT("Café";"windows-1252";$b)\n$n:=BLOB size($b)\nCONVERT FROM TEXT("é";"UTF-16LE";$b)\nreturn [$n; Convert to text($b;1014); BLOB size($b); Value type($b)]',
    expected: [4, 'é', 2, 30],
  },
  {
    name: 'Mac Roman, and a character the set does not have written ?',
    code:
      'var $b : Blob\nCONVERT FROM TEXT("Café→";"macintosh";$b)\nreturn [' +
      bytesOf('$b', 3, 5) +
      '; Convert to text($b;"macintosh")]',
    expected: [[0x8e, 0x3f], 'Café?'],
  },
  {
    name: 'an unknown charset raises 9415',
    code: 'return Convert to text(4D.Blob.new();"klingon")',
    error: { errCode: 9415, contains: 'klingon' },
  },
])
