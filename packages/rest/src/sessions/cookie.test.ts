import { describe, expect, it } from 'vitest'
import { cookieAttributes, readCookie, sessionCookieName, sessionSetCookie } from './cookie.js'

describe('sessionCookieName', () => {
  it.each([
    ['shop', '4DSID_shop'],
    ['company-demo', '4DSID_company-demo'],
    ['My App', '4DSID_My_App'],
    ['a;b=c,d"e', '4DSID_a_b_c_d_e'],
    ['été', '4DSID__t_'],
    ['', '4DSID_'],
  ])('names the cookie of %j %j', (app, name) => {
    expect(sessionCookieName(app)).toBe(name)
  })
})

describe('readCookie', () => {
  it.each<[string | null, string | undefined]>([
    [null, undefined],
    ['', undefined],
    ['4DSID_shop=ABC', 'ABC'],
    ['a=1; 4DSID_shop=ABC; b=2', 'ABC'],
    ['a=1;4DSID_shop=ABC;b=2', 'ABC'],
    ['  4DSID_shop  =  ABC  ', 'ABC'],
    ['4DSID_shop="ABC"', 'ABC'],
    ['4DSID_shop=', ''],
    ['4DSID_shop=A=B', 'A=B'],
    ['4DSID_shop2=X', undefined],
    ['x4DSID_shop=X', undefined],
    ['4DSID_shop', undefined],
    ['4DSID_shop=FIRST; 4DSID_shop=SECOND', 'FIRST'],
  ])('reads %j as %j', (header, value) => {
    expect(readCookie(header, '4DSID_shop')).toBe(value)
  })
})

describe('sessionSetCookie', () => {
  it('sets a browser-session cookie: no expiry, HttpOnly, SameSite=Strict (4D’s default)', () => {
    expect(sessionSetCookie('4DSID_shop', 'ABC', '/')).toBe(
      '4DSID_shop=ABC; Path=/; HttpOnly; SameSite=Strict',
    )
  })

  it('takes each flag as an option; SameSite=None goes with Secure', () => {
    expect(cookieAttributes({ sameSite: 'Lax' })).toBe('; HttpOnly; SameSite=Lax')
    expect(cookieAttributes({ httpOnly: false, secure: true })).toBe('; Secure; SameSite=Strict')
    expect(cookieAttributes({ sameSite: 'None' })).toBe('; HttpOnly; Secure; SameSite=None')
    expect(() => cookieAttributes({ sameSite: 'lax' as never })).toThrow(TypeError)
  })
})
