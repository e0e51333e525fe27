// String with a format: the tables and examples of docs/commands/string.md.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { run } from '../run.fixture.js'

// The GMT formats and the zone patterns read the host's time zone: Paris, as the docs' examples.
let zone: string | undefined
beforeAll(() => {
  zone = process.env.TZ
  process.env.TZ = 'Europe/Paris'
})
afterAll(() => {
  if (zone === undefined) delete process.env.TZ
  else process.env.TZ = zone
})

describe('String(number; format)', () => {
  it('the table of numeric examples', () => {
    expect(
      run(
        `return [String(2^15); String(2^15;"###,##0 Inhabitants"); String(1/3;"##0.00000"); String(1/3); String(Arctan(1)*4); String(Arctan(1)*4;"##0.00")]`,
      ),
    ).toEqual([
      '32768',
      '32,768 Inhabitants',
      '0.33333',
      '0.3333333333333',
      '3.14159265359',
      '3.14',
    ])
  })
  it('hexadecimal and xml formats', () => {
    expect(
      run(
        `return [String(-1;"&x"); String(-1;"&$"); String(0 ?+ 7;"&x"); String(0 ?+ 7;"&$"); String(0 ?+ 14;"&x"); String(0 ?+ 14;"&$"); String(50.3;"&xml")]`,
      ),
    ).toEqual(['0xFFFFFFFF', '$FFFFFFFF', '0x0080', '$80', '0x4000', '$4000', '50.3'])
  })
  it('sections: "True;;False"; not a number and the infinites', () => {
    expect(
      run(
        `return [String(Num(1=1);"True;;False"); String(Num(1=2);"True;;False"); String(Log(-1)); String(1/0); String(-1/0)]`,
      ),
    ).toEqual(['True', 'False', '', 'INF', '-INF'])
  })
  it('placeholders 0, ^, *; a negative section; a minus sign without one', () => {
    expect(
      run(
        `return [String(5;"000"); String(5;"^^0"); String(5;"**0"); String(-5;"###;(###)"); String(-1234.5;"#,##0.00"); String(1234567;"#,##0")]`,
      ),
    ).toEqual(['005', '  5', '**5', '(5)', '-1,234.50', '1,234,567'])
  })
  it('String(number; base) (21)', () => {
    expect(
      run(
        `return [String(10;2); String(-10;2); String(254;16); String(-16523461; 16); String(Log(-1); 10)]`,
      ),
    ).toEqual(['1010', '-1010', 'fe', '-fc20c5', 'NaN'])
  })
})

describe('String(date; format {; addTime})', () => {
  it('the constants of the Date Display Formats theme', () => {
    expect(
      run(`$d:=!2006-12-29!
return [String($d); String($d;System date short); String($d;System date abbreviated); String($d;System date long); String($d;Internal date short special); String($d;Internal date long); String($d;Internal date abbreviated); String($d;Internal date short); String($d;ISO date)]`),
    ).toEqual([
      '12/29/2006',
      '12/29/2006',
      'Fri, Dec 29, 2006',
      'Friday, December 29, 2006',
      '12/29/06',
      'December 29, 2006',
      'Dec 29, 2006',
      '12/29/2006',
      '2006-12-29T00:00:00',
    ])
  })
  it('"November 27, 2023"; ISO date GMT in the French time zone; RFC 1123', () => {
    expect(
      run(
        `return [String(!2023-11-27!;Internal date long); String(!2023-11-27!;ISO date GMT); String(!2010-09-09!;Date RFC 1123); String(!2010-09-09!;ISO date GMT;?10:30:41?)]`,
      ),
    ).toEqual([
      'November 27, 2023',
      '2023-11-26T23:00:00Z',
      'Wed, 08 Sep 2010 22:00:00 GMT',
      '2010-09-09T08:30:41Z',
    ])
  })
  it('patterns: "EEEE d MMMM y GGGG", "E dd/MM/yyyy zzzz", with addTime', () => {
    expect(
      run(
        `return [String(!2023-11-27!;"EEEE d MMMM y GGGG"); String(!2023-11-27!;"E dd/MM/yyyy zzzz"); String(!2023-11-27!;"E dd/MM/yyyy 'at' hh:mm aa O";?11:15:00?)]`,
      ),
    ).toEqual([
      'Monday 27 November 2023 Anno Domini',
      'Mon 27/11/2023 GMT+01:00',
      'Mon 27/11/2023 at 11:15 AM GMT+1',
    ])
  })
  it('the null date: "00/00/00", or "" with Blank if null date', () => {
    expect(
      run(
        `return [String(!00-00-00!;Internal date long); String(!00-00-00!;Internal date long+Blank if null date)]`,
      ),
    ).toEqual(['00/00/00', ''])
  })
})

describe('String(time; format)', () => {
  it('the constants of the Time Display Formats theme', () => {
    expect(
      run(`$t:=?01:02:03?
return [String($t;HH MM SS); String($t;HH MM); String($t;Hour min sec); String($t;Hour min); String($t;HH MM AM PM); String($t;MM SS); String($t;Min sec); String($t;ISO time); String($t;System time short)]`),
    ).toEqual([
      '01:02:03',
      '01:02',
      '1 hour 2 minutes 3 seconds',
      '1 hour 2 minutes',
      '1:02 AM',
      '62:03',
      '62 minutes 3 seconds',
      '0000-00-00T01:02:03',
      '01:02:03',
    ])
  })
  it('"5:30 PM", "17 hours 30 minutes 45 seconds"; patterns "hh:mm aa O" and "\'It is\' K a"', () => {
    expect(
      run(
        `return [String(?17:30:45?;HH MM AM PM); String(?17:30:45?;Hour Min Sec); String(?17:30:45?;"hh:mm aa O"); String(?17:30:45?;"'It is' K a")]`,
      ),
    ).toEqual(['5:30 PM', '17 hours 30 minutes 45 seconds', '05:30 PM GMT+1', 'It is 5 PM'])
  })
  it('a text, a Boolean, Undefined and Null ignore the format', () => {
    expect(
      run(`return [String("abc";"###"); String(True;1); String($u;1); String(Null;1)]`),
    ).toEqual(['abc', 'True', '', 'null'])
  })
})
