// Generate password hash and Verify password hash (password-hash.ts), BASE64 ENCODE and DECODE
// (tools.ts), from their pages in docs/commands.
import { describe, expect, it } from 'vitest'
import bcrypt from 'bcryptjs'
import { errorOf, run } from './run.fixture.js'

describe('Generate password hash, Verify password hash', () => {
  it('verifies the password a hash was made from, and no other', () => {
    expect(
      run(`$hash:=Generate password hash("Ada!Lovelace";New object("algorithm";"bcrypt";"cost";4))
return [Verify password hash("Ada!Lovelace";$hash); Verify password hash("ada!lovelace";$hash); $hash=$hash; Substring($hash;1;7)]`),
    ).toEqual([true, false, true, '$2b$04$'])
  })
  it('gives a new hash at each call (a new salt), cost 10 without options', () => {
    const [a, b] = run(
      `return [Generate password hash("pw"); Generate password hash("pw")]`,
    ) as string[]
    expect(a).not.toBe(b)
    expect(a!.slice(0, 7)).toBe('$2b$10$')
  })
  it('verifies a hash made elsewhere by bcrypt ($2a$, $2y$), as stored in a data file', () => {
    const made = bcrypt.hashSync('secret', 4)
    for (const prefix of ['$2a$', '$2y$', '$2b$'])
      expect(run(`return Verify password hash("secret";"${prefix}${made.slice(4)}")`)).toBe(true)
  })
  it("answers 4D's errors: 850 another algorithm, 851 a broken hash, 852 a cost outside 4 to 31", () => {
    expect(errorOf(`return Generate password hash("pw";{algorithm: "BCRYPT"})`).errCode).toBe(850)
    expect(
      errorOf(`return Verify password hash("pw";"5f4dcc3b5aa765d61d8327deb882cf99")`).errCode,
    ).toBe(850)
    expect(errorOf(`return Verify password hash("pw";"$2b$10$tooShort")`).errCode).toBe(851)
    const cost = errorOf(`return Generate password hash("pw";{cost: 3})`)
    expect([cost.errCode, cost.message]).toEqual([
      852,
      'Password-hash: Unavailable bcrypt cost parameter, please provide a value between 4 and 31.',
    ])
    expect(errorOf(`return Generate password hash("pw";{cost: 32})`).errCode).toBe(852)
  })
  it('counts the first 72 bytes of a password only, as bcrypt does', () => {
    expect(
      run(`$long:="x"*72
$hash:=Generate password hash($long+"a";{cost: 4})
return Verify password hash($long+"b";$hash)`),
    ).toBe(true)
  })
})

describe('BASE64 ENCODE, BASE64 DECODE', () => {
  it('encode a text in place or into a second variable, and decode it back (UTF-8)', () => {
    expect(
      run(`var $t; $e; $d : Text
$t:="Élodie & ☃"
BASE64 ENCODE($t;$e)
$d:=$e
BASE64 DECODE($d)
$u:="a?b>c"
BASE64 ENCODE($u;*)
return [$e; $d; $u]`),
    ).toEqual([Buffer.from('Élodie & ☃').toString('base64'), 'Élodie & ☃', 'YT9iPmM'])
  })
  it('raise naming the parameter when the result has no variable to go to', () => {
    expect(errorOf(`BASE64 ENCODE("abc")`).message).toContain(
      '"toEncode" parameter of BASE64 ENCODE',
    )
  })
})

describe('TRACE, Current user', () => {
  it('TRACE is ignored (no debugger), Current user is "Designer" (no 4D user accounts)', () => {
    expect(
      run(`TRACE
return Current user`),
    ).toBe('Designer')
  })
})
