// docs/commands/string.md (the String command: numbers, dates, times, other types) and
// docs/commands/add-to-date.md, with the clock and the time zone (Paris, as the pages' "in French
// timezone" results) fixed.
import { expr, page, steps, inParisTime, rows, PARIS_CLOCK, type Check } from './doc.fixture.js'

inParisTime()
const CLOCK = PARIS_CLOCK
const clocked = (checks: Check[]): Check[] => checks.map((c) => ({ ...c, options: CLOCK }))

page('String(number{;format})', [
  rows([
    ['String(2^15)', '32768'],
    ['String(2^15;"###,##0 Inhabitants")', '32,768 Inhabitants'],
    ['String(1/3;"##0.00000")', '0.33333'],
    ['String(1/3)', '0.3333333333333'],
    ['String(Arctan(1)*4)', '3.14159265359'],
    ['String(Arctan(1)*4;"##0.00")', '3.14'],
    ['String(-1;"&x")', '0xFFFFFFFF'],
    ['String(-1;"&$")', '$FFFFFFFF'],
    ['String(0 ?+ 7;"&x")', '0x0080'],
    ['String(0 ?+ 7;"&$")', '$80'],
    ['String(0 ?+ 14;"&x")', '0x4000'],
    ['String(0 ?+ 14;"&$")', '$4000'],
    ['String(50.3;"&xml")', '50.3'],
    ['String(Num(1=1);"True;;False")', 'True'],
    ['String(Num(1=2);"True;;False")', 'False'],
    ['String(Log(-1))', ''],
    ['String(1/0)', 'INF'],
    ['String(-1/0)', '-INF'],
  ]),
])

page('String(number;base)', [
  rows([
    ['String(10;2)', '1010'],
    ['String(-10;2)', '-1010'],
    ['String(254;16)', 'fe'],
    ['String(-16523461; 16)', '-fc20c5'],
    ['String(Log(-1); 10)', 'NaN'],
    ['String(1/0; 10)', 'NaN'],
    ['String(-1/0; 10)', 'NaN'],
  ]),
])

page('String(date{;format{;addTime}})', [
  rows([
    ['String(!2023-11-27!)', '11/27/2023'],
    ['String(!2023-11-27!;Internal date long)', 'November 27, 2023'],
    ['String(!2023-11-27!;ISO Date GMT)', '2023-11-26T23:00:00Z'],
    ['String(!2023-11-27!;"EEEE d MMMM y GGGG")', 'Monday 27 November 2023 Anno Domini'],
    ['String(!2023-11-27!;"E dd/MM/yyyy zzzz")', 'Mon 27/11/2023 GMT+01:00'],
    [
      'String(!2023-11-27!;"E dd/MM/yyyy \'at\' hh:mm aa O";?11:15:00?)',
      'Mon 27/11/2023 at 11:15 AM GMT+1',
    ],
    ['String(!2006-12-29!;Internal date abbreviated)', 'Dec 29, 2006'],
    ['String(!2006-12-29!;Internal date short)', '12/29/2006'],
    ['String(!2006-12-29!;Internal date short special)', '12/29/06'],
    ['String(!2006-12-29!;ISO Date)', '2006-12-29T00:00:00'],
    ['String(!2006-12-29!;System date abbreviated)', 'Fri, Dec 29, 2006'],
    ['String(!2006-12-29!;System date long)', 'Friday, December 29, 2006'],
    ['String(!2006-12-29!;System date short)', '12/29/2006'],
    ['String(!2010-09-13!;ISO Date GMT)', '2010-09-12T22:00:00Z'],
    ['String(!2010-09-13!;ISO Date)', '2010-09-13T00:00:00'],
    ['String(!2010-09-09!;Date RFC 1123)', 'Wed, 08 Sep 2010 22:00:00 GMT'],
    ['String(!00-00-00!;Internal date short+Blank if null date)', ''],
  ]),
  clocked(
    rows([
      ['String(Current date;ISO Date GMT;Current time)', '2010-09-13T14:11:53Z'],
      ['String(Current date;ISO Date;Current time)', '2010-09-13T16:11:53'],
      ['String(Current date;Date RFC 1123;Current time)', 'Mon, 13 Sep 2010 14:11:53 GMT'],
      ['String(!2010-09-09!;ISO date GMT;?10:30:41?)', '2010-09-09T08:30:41Z'],
    ]),
  ),
])

page('String(time{;format}), and other types', [
  rows([
    ['String(?01:02:03?)', '01:02:03'],
    ['String(?17:30:45?;HH MM AM PM)', '5:30 PM'],
    ['String(?17:30:45?;Hour Min Sec)', '17 hours 30 minutes 45 seconds'],
    ['String(?17:30:45?;"hh:mm aa O")', '05:30 PM GMT+1'],
    ['String(?17:30:45?;"\'It is\' K a")', 'It is 5 PM'],
    ['String(?01:02:03?;HH MM)', '01:02'],
    ['String(?01:02:03?;HH MM AM PM)', '1:02 AM'],
    ['String(?01:02:03?;HH MM SS)', '01:02:03'],
    ['String(?01:02:03?;Hour min)', '1 hour 2 minutes'],
    ['String(?01:02:03?;Hour min sec)', '1 hour 2 minutes 3 seconds'],
    ['String(?01:02:03?;ISO time)', '0000-00-00T01:02:03'],
    ['String(?01:02:03?;Min sec)', '62 minutes 3 seconds'],
    ['String(?01:02:03?;MM SS)', '62:03'],
    ['String(?01:02:03?;System time short)', '01:02:03'],
    ['String(?00:00:00?;HH MM SS+Blank if null time)', ''],
    ['String("hello";"##0")', 'hello'],
    ['String(True)', 'True'],
    ['String(False;"##0")', 'False'],
    ['String($o.undefined)', ''],
    ['String(Null)', 'null'],
  ]),
])

page('Add to date, Current date, Current time', [
  clocked([
    ...steps('Add to date', '$d:=Current date', [
      ['', '$d', '2010-09-13'],
      ['', 'Add to date(Current date;1;0;0)', '2011-09-13'],
      ['', 'Add to date(Current date;0;1;0)', '2010-10-13'],
      ['', 'Add to date(Current date;0;0;1)=(Current date+1)', true],
      ['', 'Add to date(!2020-01-15!;0;-2;-15)', '2019-10-31'],
      ['', 'Current time', '16:11:53'],
      ['', 'Current time+?01:00:00?', '17:11:53'],
    ]),
  ]),
])
