// GET SYSTEM FORMAT (get-system-format.md): the System Format constants of the page's table, and
// the values of the one locale here, en-US (system-format.ts).
import { describe, expect, it } from 'vitest'
import { errorOf, run } from './run.fixture.js'

describe('GET SYSTEM FORMAT', () => {
  it("get-system-format.md's table: the constants' values", () => {
    expect(
      run(
        `return [Decimal separator; Thousand separator; Currency symbol; System time short pattern; System time medium pattern; System time long pattern; System date short pattern; System date medium pattern; System date long pattern; Date separator; Time separator; Short date day position; Short date month position; Short date year position; System time AM label; System time PM label]`,
      ),
    ).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 13, 14, 15, 16, 17, 18, 19])
  })

  it('the separators, symbol and labels of en-US (the page\'s own examples: ".", ",", "$", "/", ":")', () => {
    expect(
      run(`var $d; $t; $dec; $th; $cur; $am; $pm : Text
GET SYSTEM FORMAT(Date separator;$d)
GET SYSTEM FORMAT(Time separator;$t)
GET SYSTEM FORMAT(Decimal separator;$dec)
GET SYSTEM FORMAT(Thousand separator;$th)
GET SYSTEM FORMAT(Currency symbol;$cur)
GET SYSTEM FORMAT(System time AM label;$am)
GET SYSTEM FORMAT(System time PM label;$pm)
return [$d; $t; $dec; $th; $cur; $am; $pm]`),
    ).toEqual(['/', ':', '.', ',', '$', 'AM', 'PM'])
  })

  it('the short date positions: month, day, year ("1" left, "2" middle, "3" right)', () => {
    expect(
      run(`GET SYSTEM FORMAT(Short date day position;$day)
GET SYSTEM FORMAT(Short date month position;$month)
GET SYSTEM FORMAT(Short date year position;$year)
return [$month; $day; $year]`),
    ).toEqual(['1', '2', '3'])
  })

  it("the patterns format as String's system formats do (a format built from them is the system's)", () => {
    expect(
      run(`$date:=!2024-01-05!
$time:=?14:05:09?
GET SYSTEM FORMAT(System date short pattern;$ds)
GET SYSTEM FORMAT(System date medium pattern;$dm)
GET SYSTEM FORMAT(System date long pattern;$dl)
GET SYSTEM FORMAT(System time short pattern;$ts)
GET SYSTEM FORMAT(System time medium pattern;$tm)
GET SYSTEM FORMAT(System time long pattern;$tl)
return [String($date;$ds)=String($date;System date short); String($date;$dm)=String($date;System date abbreviated); String($date;$dl)=String($date;System date long); String($time;$ts)=String($time;System time short); String($time;$tm)=String($time;System time long abbreviated); String($time;$tl)=String($time;System time long); String($date;$ds); String($time;$tl)]`),
    ).toEqual([true, true, true, true, true, true, '01/05/2024', '2:05:09 PM'])
  })

  it('value must be a variable (9415); a number that is no System Format constant is 9415', () => {
    expect(errorOf(`GET SYSTEM FORMAT(Decimal separator;"x")`).errCode).toBe(9415)
    expect(errorOf(`GET SYSTEM FORMAT(42;$v)`).errCode).toBe(9415)
  })
})
