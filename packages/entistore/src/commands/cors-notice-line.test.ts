/**
 * The stderr lines of `serve --cors` for what a browser hides (cors-notice-line.ts), for each form
 * of the option; cors-option.test.ts has them from a running server.
 */
import { describe, expect, it } from 'vitest'
import { corsNoticeLine } from './cors-notice-line.js'

const refused = (origin: string) => ({ kind: 'refused', origin }) as const

describe('the line of a refused origin', () => {
  it('names the list that would allow it', () => {
    expect(corsNoticeLine(refused('https://app.test'), ['http://localhost:5173'])).toMatch(
      /refused the origin https:\/\/app\.test .*; to allow it, --cors http:\/\/localhost:5173,https:\/\/app\.test$/,
    )
  })

  it('names the same page on the name of this machine the list holds', () => {
    expect(corsNoticeLine(refused('http://[::1]:5173'), ['http://127.0.0.1:5173'])).toContain(
      'http://127.0.0.1:5173 is allowed, and http://[::1]:5173 is another origin of the same machine',
    )
    // Another port is another page: no mix-up to name.
    expect(
      corsNoticeLine(refused('http://127.0.0.1:3000'), ['http://localhost:5173']),
    ).not.toContain('same machine')
  })

  it('says what --cors alone allows, and what a page opened from a file sends', () => {
    expect(corsNoticeLine(refused('https://app.test'), 'loopback')).toContain(
      '--cors alone allows the pages on this machine only (localhost, 127.0.0.1, [::1]): to allow it, --cors https://app.test',
    )
    expect(corsNoticeLine(refused('null'), ['http://localhost:5173'])).toContain(
      'sends Origin: null: serve the page over http',
    )
  })
})

describe('the line of a cookie sent to another site', () => {
  it('names where the page finds the server on its own site', () => {
    const line = corsNoticeLine(
      { kind: 'cookie', origin: 'https://app.example.com', host: 'api.example.org' },
      ['https://app.example.com'],
    )
    expect(line).toContain('sent its session cookie by api.example.org, another site')
    expect(line).toContain("call the server at a host of app.example.com's site from the page")
  })
})
