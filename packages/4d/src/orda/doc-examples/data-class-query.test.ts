// docs/API/DataClassClass.md, .query(): the query string's forms (comparators, logical operators,
// quotes, parentheses, placeholders indexed and named, for values and attribute paths, null,
// dates, collections in object attributes, order by), formulas, and the querySettings.
import { check, fails, page } from './orda-doc.fixture.js'

const ids = (query: string) => `return ds.Employee.query(${query}).orderBy("ID").extract("ID")`

page('DataClass.query(): comparators', [
  check('= with @ (starts with)', ids('"firstName = \'S@\'"'), [1]),
  check('= is neither case- nor diacritic-sensitive', ids('"lastName = \'SMITH\'"'), [1]),
  check('== is =', ids('"lastName == :1"; "smith"'), [1]),
  check('=== considers @ a standard character', ids('"lastName === :1"; "S@"'), []),
  check('IS is ===', ids('"lastName IS :1"; "Smith"'), [1]),
  check('# with @', ids('"lastName # :1"; "M@"'), [1, 3, 4]),
  check('!= is #', ids('"lastName != :1"; "Kent"'), [1, 2, 3, 5]),
  check('!== considers @ a standard character', ids('"lastName !== :1"; "M@"'), [1, 2, 3, 4, 5]),
  check('IS NOT', ids('"lastName IS NOT :1"; "Kent"'), [1, 2, 3, 5]),
  check('<', ids('"salary < :1"; 38000'), [5]),
  check('>', ids('"salary > :1"; 52000'), [4]),
  check('<=', ids('"salary <= :1"; 38000'), [2, 5]),
  check('>=', ids('"salary >= :1"; 52000'), [1, 4]),
  check('"contains": @ on both sides', ids('"lastName = :1"; "@ll@"'), [5]),
  check('ends with: @ first', ids('"lastName = \'@s\'"'), [3]),
  check('a numeric constant with a period', ids('"salary > 40999.5"'), [1, 3, 4]),
  check('boolean constants true, false', ids('"active = false"'), [3]),
  check('% contains keyword', ids('"firstName % :1"; "Kim"'), [2]),
])

page('DataClass.query(): logical operators, quotes, parentheses, not', [
  check('AND as and', ids('"gender = \'F\' and salary > 40000"'), [1, 3]),
  check('AND as &', ids('"gender = \'F\' & salary > 40000"'), [1, 3]),
  check('AND as &&', ids('"gender = \'F\' && salary > 40000"'), [1, 3]),
  check('OR as or', ids('"firstName = Kim or firstName = Rob"'), [2, 5]),
  check('OR as |', ids('"firstName = Kim | firstName = Rob"'), [2, 5]),
  check('OR as ||', ids('"firstName = Kim || firstName = Rob"'), [2, 5]),
  check(
    'single quotes inside the query',
    ids("\"lastName = 'smith' AND firstName = 'sarah'\""),
    [1],
  ),
  check('a text constant without quotes', ids('"firstName = Kim"'), [2]),
  check(
    'parentheses give priority',
    ids("\"(salary >= 50000 OR salary <= 30000) AND (gender = 'M' OR lastName = 'Smith')\""),
    [1, 4, 5],
  ),
  check('not(firstName=Kim)', ids('"not(firstName=Kim)"'), [1, 3, 4, 5]),
  check('in with a collection', ids('"firstName in :1"; New collection("Kim";"Dixie")'), [2, 3]),
  check('not (… in …)', ids('"not (firstName in :1)"; New collection("John";"Kim")'), [1, 3, 5]),
  check('in with values between [ ]', ids('"firstName in [\\"Kim\\", \\"Rob\\"]"'), [2, 5]),
  check('in supports the wildcard', ids('"lastName in :1"; ["M@"]'), [2, 5]),
  check(
    'order by in the query text',
    'return ds.Employee.query("gender = :1 order by salary desc"; "F").extract("ID")',
    [1, 3, 2],
  ),
  check(
    'order by several attributes, asc and desc',
    'return ds.Employee.query("salary > 0 order by gender desc, lastName asc").extract("lastName")',
    ['Kent', 'Miller', 'Martin', 'Rogers', 'Smith'],
  ),
  check(
    'order by makes the selection ordered',
    'return ds.Employee.query("salary > 0 order by lastName").isOrdered()',
    true,
  ),
  check(
    'order by a related attribute desc',
    'return ds.Employee.query("employer.ID > 0 order by employer.name desc, lastName").extract("lastName")',
    ['Kent', 'Rogers', 'Martin', 'Smith'],
  ),
  check(
    'no match: an empty selection',
    'return ds.Employee.query("lastName = :1"; "Nobody").length',
    0,
  ),
  fails(
    'a text with a single quote inside the quotes is an error',
    "return ds.Employee.query(\"lastName = 'John's pizza'\").length",
    9001,
  ),
  check(
    'a single quote in a placeholder value works',
    'return ds.Company.query("name = :1"; "John\'s Pizzas").length',
    0,
  ),
])

page('DataClass.query(): null, dates, relations, object and collection paths', [
  check('= null finds null attributes', ids('"birthDate = null"'), [5]),
  check('# null', ids('"employer # null"'), [1, 2, 3, 4]),
  check('a relation = null', ids('"manager = null"'), [1, 4]),
  check(
    'a date as a "YYYY-MM-DD" text placeholder',
    ids('"birthDate > :1"; "1970-01-01"'),
    [2, 3, 4],
  ),
  check('a date as a 4D Date', ids('"birthDate <= :1"; !1975-01-01!'), [1, 4]),
  check(
    'a date computed: Current date - n days',
    ids('"birthDate <= :1"; Current date-10950'),
    [1, 2, 3, 4],
  ),
  check('a date constant in the text', ids('"birthDate = 1990-07-14"'), [3]),
  check(
    'a related attribute with placeholders',
    ids('"lastName = :1 and manager.lastName = :2"; "M@"; "S@"'),
    [2],
  ),
  check('a related attribute, several levels', ids('"manager.employer.name = :1"; "Acme"'), [2, 3]),
  check(
    'a 1-N relation: any of the related entities',
    'return ds.Company.query("staff.firstName = :1"; "John").extract("name")',
    ['Globex'],
  ),
  check('an object attribute path', ids('"extra.eyeColor = :1"; "blue"'), [1, 3]),
  check(
    'a collection attribute path with []',
    ids('"extra.hobbies[].name = :1"; "horsebackriding"'),
    [1, 2],
  ),
  check(
    'two criteria not linked: in any elements',
    ids('"extra.hobbies[].name = :1 and extra.hobbies[].level = :2"; "horsebackriding"; 5'),
    [1, 2],
  ),
  check(
    'linked criteria [a]: in the same element',
    ids('"extra.hobbies[a].name = :1 and extra.hobbies[a].level = :2"; "horsebackriding"; 2'),
    [1],
  ),
  check(
    'two links [a] and [b]',
    ids(
      '"extra.hobbies[a].name = :1 and extra.hobbies[a].level = :2 and extra.hobbies[b].name = :3 and extra.hobbies[b].level = :4"; "horsebackriding"; 2; "Tennis"; 5',
    ),
    [1],
  ),
  check('# in a collection: all elements differ', ids('"extra.hobbies[].level != :1"; 2'), []),
  check(
    '[a] with #: at least one element differs',
    ids('"extra.hobbies[a].level != :1"; 2'),
    [1, 2],
  ),
])

page('DataClass.query(): placeholders', [
  check(
    'indexed placeholders for values',
    ids(
      '"(firstName = :1 or firstName = :2) and (lastName = :3 or lastName = :4)"; "D@"; "R@"; "S@"; "K@"',
    ),
    [],
  ),
  check(
    'indexed placeholders, four values',
    ids(
      '"(firstName = :1 or firstName = :2) and (lastName = :3 or lastName = :4)"; "S@"; "J@"; "S@"; "K@"',
    ),
    [1, 4],
  ),
  check(
    'an expression as a value ($myVar+"@")',
    '$v:="Mar"\n' + ids('"lastName = :1"; $v+"@"'),
    [2],
  ),
  check(
    'named placeholders for values, a property of an object',
    `$querySettings:=New object
$querySettings.parameters:=New object("userId";1;"extraInfo";New object("name";"Martin"))
${ids('"manager.ID = :userId and lastName = :extraInfo.name"; $querySettings')}`,
    [2],
  ),
  check(
    'named and indexed placeholders together',
    `$querySettings:=New object
$querySettings.parameters:=New object("userId";1)
${ids('"manager.ID = :userId and lastName=:1"; "Rogers"; $querySettings')}`,
    [3],
  ),
  check(
    'indexed placeholders for attributes',
    ids('":1 = 1 and :2 = \'Martin\'"; "manager.ID"; "lastName"'),
    [2],
  ),
  check(
    'indexed placeholders for attributes, named for values',
    `$querySettings:=New object
$querySettings.parameters:=New object("customerName";"Rogers")
${ids('":1 = 1 and :2 = :customerName"; "manager.ID"; "lastName"; $querySettings')}`,
    [3],
  ),
  check(
    'indexed placeholders for attributes and values',
    ids('":1 = 1 and :2 = :3"; "manager.ID"; "lastName"; "Rogers"'),
    [3],
  ),
  check(
    '":1=:2" with "city"; "Paris"',
    'return ds.Company.query(":1=:2"; "city"; "Paris").length',
    2,
  ),
  check(
    'named placeholders for attributes and values',
    `$o:=New object
$o.attributes:=New object("att";"city")
$o.parameters:=New object("name";"Lyon")
return ds.Company.query(":att=:name"; $o).first().name`,
    'Globex',
  ),
  check(
    'a named attribute as a collection of names (a path an object property)',
    `$querySettings:=New object
$querySettings.attributes:=New object("attName";"lastName";"attEye";New collection("extra";"eyeColor"))
${ids("\":attName = 'Smith' and :attEye = 'blue'\"; $querySettings")}`,
    [1],
  ),
  check(
    'a placeholder keeps a value from being read as query text',
    ids('"gender=\'F\' & lastName=:1"; "smith OR gender=\'M\'"'),
    [],
  ),
  check(
    'the same query without a placeholder is changed by the value',
    '$myname:="smith OR gender=\'M\'"\n' + ids('"gender=\'F\' & lastName = "+$myname'),
    [1, 4, 5],
  ),
])

page('DataClass.query(): formulas and settings', [
  check(
    'Formula as the only criteria: This is the entity',
    ids('Formula(Length(This.lastName)>=6)'),
    [2, 3, 5],
  ),
  check(
    'args: the formula receives them as $1',
    '$settings:=New object("args";New object("exclude";"i"))\n' +
      ids('Formula(Position($1.exclude;This.lastName)=0); $settings'),
    [3, 4],
  ),
  check(
    'args changed, the same formula object',
    `$formula:=Formula(Position($1.filter;This.lastName)=0)
$settings:=New object("args";New object("filter";"i"))
$a:=ds.Employee.query($formula; $settings).length
$settings.args.filter:="o"
return [$a; ds.Employee.query($formula; $settings).length]`,
    [2, 4],
  ),
  check('a formula that does not return a boolean is False', ids('Formula(This.lastName)'), []),
  check(
    'a formula query on a selection',
    'return ds.Employee.query("gender = :1"; "F").query(Formula(This.salary > 40000)).extract("ID")',
    [1, 3],
  ),
  // Formulas inside the query text are not run here (compat.md, "ORDA in 4D code").
  fails(
    'a Formula as a placeholder in the text: 9001',
    'return ds.Employee.query(":1 and gender=\'F\'"; Formula(This.salary>1)).length',
    9001,
  ),
  fails(
    'eval() in the query text: 9001',
    'return ds.Employee.query("eval(Length(This.lastName) >=6)").length',
    9001,
  ),
  fails(
    'allowFormulas: False and a formula: error 1278',
    'return ds.Employee.query(Formula(This.salary>1); New object("allowFormulas";False)).length',
    1278,
  ),
  fails('a Null formula: error 1626', '$f:=Null\nreturn ds.Employee.query($f).length', 1626),
  check(
    'queryPlan and queryPath: objects on the selection',
    '$s:=ds.Employee.query("salary > :1"; 40000; New object("queryPlan";True;"queryPath";True))\nreturn [Value type($s.queryPlan); Value type($s.queryPath); $s.length]',
    [38, 38, 3],
  ),
  check(
    'no queryPlan asked: Undefined',
    'return Value type(ds.Employee.query("salary > 1").queryPlan)',
    5,
  ),
  check(
    'context in the settings is accepted',
    'return ds.Employee.query("salary > :1"; 40000; {context: "x"}).length',
    3,
  ),
  fails('a query that does not parse', 'return ds.Employee.query("salary >>> 1").length', 9001),
  fails('an attribute that does not exist', 'return ds.Employee.query("nope = 1").length', 1500),
])
