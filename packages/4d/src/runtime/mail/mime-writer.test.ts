// The MIME writer (mime-writer.ts): the layout of MAIL Convert to MIME's example
// (EmailObjectClass.md), RFC 2047 words, quoted-printable and base64 bodies, the multiparts, and
// a property: any subject, name and body is read back as it was given.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  encodedWords,
  fold,
  MAIL_MODES,
  quotedPrintable,
  writeMime,
  type MailParts,
  type MimeOptions,
} from './mime-writer.js'
import { decodeWords, parseAddress, parseMime, textOf } from './mime-parse.fixture.js'

const UTF8_QP = MAIL_MODES.get('US-ASCII_UTF8_QP')!
const UTF8_B64 = MAIL_MODES.get('US-ASCII_UTF8_B64')!
const LATIN1 = MAIL_MODES.get('ISO-8859-1')!

/** Options whose random texts count up: R1, R2… */
function options(header = UTF8_QP, body = UTF8_QP): MimeOptions {
  let n = 0
  return { header, body, unique: () => `R${++n}` }
}

const mail = (more: Partial<MailParts> = {}): MailParts => ({
  from: [{ email: 'tsales@massmarket.com' }],
  to: [{ email: 'noreply@4d.com' }, { email: 'test@4d.com' }],
  cc: [],
  replyTo: [],
  attachments: [],
  headers: [],
  date: Date.UTC(2018, 9, 11, 15, 42, 25),
  ...more,
})

describe('writeMime', () => {
  it("writes MAIL Convert to MIME's example: the fields, then text and HTML as alternatives", () => {
    const text = writeMime(
      mail({
        subject: 'Terrific Sale! This week only!',
        textBody: 'Text format email',
        htmlBody: '<html><body>HTML format email</body></html>',
      }),
      options(),
    )
    expect(text.split('\r\n')).toEqual([
      'MIME-Version: 1.0',
      'Date: Thu, 11 Oct 2018 15:42:25 +0000',
      'Message-ID: <R1@massmarket.com>',
      'Sender: tsales@massmarket.com',
      'From: tsales@massmarket.com',
      'To: noreply@4d.com, test@4d.com',
      'Subject: Terrific Sale! This week only!',
      'Content-Type: multipart/alternative; boundary="=_R2"',
      '',
      '--=_R2',
      'Content-Type: text/plain; charset="UTF-8"',
      'Content-Transfer-Encoding: quoted-printable',
      '',
      'Text format email',
      '--=_R2',
      'Content-Type: text/html; charset="UTF-8"',
      'Content-Transfer-Encoding: quoted-printable',
      '',
      '<html><body>HTML format email</body></html>',
      '--=_R2--',
      '',
    ])
  })

  it('writes one text part when there is one body, an empty text part when there is none', () => {
    const html = parseMime(writeMime(mail({ htmlBody: '<p>hi</p>' }), options()))
    expect(html.headers.get('content-type')).toBe('text/html; charset="UTF-8"')
    expect(textOf(html)).toBe('<p>hi</p>')
    const none = parseMime(writeMime(mail(), options()))
    expect(none.headers.get('content-type')).toBe('text/plain; charset="UTF-8"')
    expect(textOf(none)).toBe('')
  })

  it('writes names quoted or encoded, a Sender, Reply-To and Cc; never the bcc', () => {
    const text = writeMime(
      mail({
        from: [{ name: 'Doe, John', email: 'j@x.org' }],
        sender: { name: 'Ops', email: 'ops@x.org' },
        to: [{ name: 'Zoë', email: 'z@y.org' }],
        cc: [{ name: 'Ann Lee', email: 'a@y.org' }],
        replyTo: [{ email: 'r@x.org' }],
      }),
      options(),
    )
    const h = parseMime(text).headers
    expect(h.get('from')).toBe('"Doe, John" <j@x.org>')
    expect(h.get('sender')).toBe('Ops <ops@x.org>')
    expect(h.get('to')).toBe('=?UTF-8?Q?Zo=C3=AB?= <z@y.org>')
    expect(h.get('cc')).toBe('Ann Lee <a@y.org>')
    expect(h.get('reply-to')).toBe('r@x.org')
    expect(h.has('bcc')).toBe(false)
  })

  it('encodes a subject that is not printable US-ASCII, or would read otherwise', () => {
    const subject = (s: string, mode = UTF8_QP): string =>
      parseMime(writeMime(mail({ subject: s }), options(mode))).headers.get('subject')!
    expect(subject('Café')).toBe('=?UTF-8?Q?Caf=C3=A9?=')
    expect(subject('Café', UTF8_B64)).toBe('=?UTF-8?B?Q2Fmw6k=?=')
    expect(subject('Café', LATIN1)).toBe('=?ISO-8859-1?Q?Caf=E9?=')
    expect(subject('a =?x?Q?y?= b')).toMatch(/^=\?UTF-8\?Q\?/)
    expect(subject(' lead')).toMatch(/^=\?UTF-8\?Q\?_lead/)
    expect(subject('line\r\nBcc: evil@x.org')).toBe('=?UTF-8?Q?line=0D=0ABcc=3A_evil=40x=2Eorg?=')
  })

  it('splits encoded words between characters, each short, and folds long fields at spaces', () => {
    const words = encodedWords('é'.repeat(40), UTF8_QP)
    expect(words.length).toBeGreaterThan(1)
    for (const w of words) expect(w.length).toBeLessThanOrEqual(60)
    expect(decodeWords(words.join(' '))).toBe('é'.repeat(40))
    const long = `Subject: ${'word '.repeat(30)}end`
    const folded = fold(long)
    expect(folded.split('\r\n').every((l) => l.length <= 76)).toBe(true)
    expect(folded.replace(/\r\n/g, '')).toBe(long)
  })

  it('writes quoted-printable: = and the last space encoded, lines of 76 with soft breaks', () => {
    expect(quotedPrintable('a=b \nc\t', 'UTF-8')).toBe('a=3Db=20\r\nc=09')
    const long = quotedPrintable('x'.repeat(200), 'UTF-8').split('\r\n')
    expect(long.every((l) => l.length <= 76)).toBe(true)
    expect(long.slice(0, -1).every((l) => l.endsWith('='))).toBe(true)
    // Never an escape cut by a soft break.
    for (const l of quotedPrintable('é'.repeat(60), 'UTF-8').split('\r\n'))
      expect(l).toMatch(/^(=[0-9A-F]{2})*=?$/)
  })

  it('writes the bodies in base64 in mail mode UTF8 in base64, in ISO-8859-1 in its mode', () => {
    const b64 = parseMime(writeMime(mail({ textBody: 'Grüße' }), options(UTF8_QP, UTF8_B64)))
    expect(b64.headers.get('content-transfer-encoding')).toBe('base64')
    expect(textOf(b64)).toBe('Grüße')
    const latin = writeMime(mail({ textBody: 'Grüße €' }), options(UTF8_QP, LATIN1))
    expect(latin).toContain('charset="ISO-8859-1"')
    expect(latin).toContain('Gr=FC=DFe ?')
  })

  it('puts attachments with a cid beside the HTML (related), the others after it (mixed)', () => {
    const bytes = new Uint8Array([0, 1, 2, 255])
    const text = writeMime(
      mail({
        htmlBody: '<img src="cid:logo">',
        attachments: [
          { name: 'logo.png', type: 'image/png', bytes, cid: 'logo', disposition: 'inline' },
          { name: 'Größe.pdf', type: 'application/pdf', bytes, disposition: 'attachment' },
        ],
      }),
      options(),
    )
    const root = parseMime(text)
    expect(root.headers.get('content-type')).toMatch(/^multipart\/mixed;/)
    const [related, pdf] = root.parts
    expect(related!.headers.get('content-type')).toMatch(/^multipart\/related;/)
    const [html, logo] = related!.parts
    expect(textOf(html!)).toBe('<img src="cid:logo">')
    expect(logo!.headers.get('content-id')).toBe('<logo>')
    expect(logo!.headers.get('content-disposition')).toBe('inline; filename="logo.png"')
    expect([...logo!.bytes]).toEqual([0, 1, 2, 255])
    expect(
      decodeWords(/filename="([^"]*)"/.exec(pdf!.headers.get('content-disposition')!)![1]!),
    ).toBe('Größe.pdf')
  })

  it("writes the mail's other fields in order, a structured one as it is", () => {
    const h = parseMime(
      writeMime(
        mail({
          messageId: 'abc.1@x.org',
          headers: [
            ['In-Reply-To', '<a@x.org>'],
            ['Keywords', '$flagged, 4d'],
            ['List-Unsubscribe', '<mailto:u@x.org?subject=unsubscribe>'],
            ['X-Note', 'déjà'],
          ],
        }),
        options(),
      ),
    ).headers
    expect(h.get('message-id')).toBe('<abc.1@x.org>')
    expect(h.get('in-reply-to')).toBe('<a@x.org>')
    expect(h.get('keywords')).toBe('$flagged, 4d')
    expect(h.get('list-unsubscribe')).toBe('<mailto:u@x.org?subject=unsubscribe>')
    expect(decodeWords(h.get('x-note')!)).toBe('déjà')
  })
})

describe('what the writer writes is read back as it was given', () => {
  const modes = fc.constantFrom(UTF8_QP, UTF8_B64)
  const anyText = fc.string({ unit: 'binary', maxLength: 300 })

  it('any subject, display name, text and HTML body, in either UTF-8 mode', () => {
    fc.assert(
      fc.property(
        anyText,
        anyText,
        anyText,
        anyText,
        modes,
        modes,
        (subject, name, text, html, h, b) => {
          const written = writeMime(
            mail({ subject, from: [{ name, email: 'a@b.org' }], textBody: text, htmlBody: html }),
            options(h, b),
          )
          // US-ASCII, CRLF only, no line past 78 characters.
          expect(/^[\x00-\x7f]*$/.test(written)).toBe(true)
          for (const line of written.split('\r\n')) {
            expect(line.length).toBeLessThanOrEqual(78)
            expect(line).not.toMatch(/[\r\n]/)
          }
          const read = parseMime(written)
          expect(decodeWords(read.headers.get('subject')!)).toBe(subject)
          expect(parseAddress(read.headers.get('from')!)).toEqual(
            name === '' ? { email: 'a@b.org' } : { name, email: 'a@b.org' },
          )
          const lines = (s: string): string => s.replace(/\r\n|\r|\n/g, '\n')
          expect(lines(textOf(read.parts[0]!))).toBe(lines(text))
          expect(lines(textOf(read.parts[1]!))).toBe(lines(html))
        },
      ),
      { numRuns: 300 },
    )
  })

  it('keeps a leading U+FEFF in a name, a subject and a body (a character, not a byte order mark)', () => {
    for (const [h, b] of [
      [UTF8_QP, UTF8_QP],
      [UTF8_B64, UTF8_B64],
    ] as const) {
      const read = parseMime(
        writeMime(
          mail({
            subject: '\ufeffS',
            from: [{ name: '\ufeff', email: 'a@b.org' }],
            textBody: '\ufeffT',
          }),
          options(h, b),
        ),
      )
      expect(decodeWords(read.headers.get('subject')!)).toBe('\ufeffS')
      expect(parseAddress(read.headers.get('from')!)).toEqual({ name: '\ufeff', email: 'a@b.org' })
      expect(textOf(read.parts[0] ?? read)).toBe('\ufeffT')
    }
  })

  it('any Latin-1 subject and body in mail mode ISO88591', () => {
    const latin = fc.string({
      unit: fc.integer({ min: 0, max: 255 }).map((c) => String.fromCharCode(c)),
      maxLength: 200,
    })
    fc.assert(
      fc.property(latin, latin, (subject, text) => {
        const read = parseMime(
          writeMime(mail({ subject, textBody: text }), options(LATIN1, LATIN1)),
        )
        expect(decodeWords(read.headers.get('subject')!)).toBe(subject)
        expect(textOf(read).replace(/\r\n/g, '\n')).toBe(text.replace(/\r\n|\r|\n/g, '\n'))
      }),
      { numRuns: 300 },
    )
  })
})
