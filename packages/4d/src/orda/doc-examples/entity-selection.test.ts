// docs/API/EntitySelectionClass.md and DataStoreClass.md: a selection's members (index, attribute,
// add, and/or/minus, aggregates, distinct, extract, first/last/slice/at, orderBy, orderByFormula,
// query, toCollection, selected, copy, contains) and the datastore's (getInfo, transactions).
import { check, fails, page } from './orda-doc.fixture.js'

const all = 'ds.Employee.all()'
const women = 'ds.Employee.query("gender = F")'

page('EntitySelection: members', [
  check('$sel[index] is an entity', `return ${all}[1].lastName`, 'Martin'),
  check('length', `return ${women}.length`, 3),
  check('$sel.attribute: a collection of values', `return ${women}.firstName`, [
    'Sarah',
    'Kim',
    'Dixie',
  ]),
  check('$sel.relatedEntity: a selection without duplicates', `return ${women}.employer.length`, 2),
  check('$sel.relatedEntities: a selection', 'return ds.Company.all().staff.length', 4),
  check('at(1), at(-1)', `return [${all}.at(1).ID; ${all}.at(-1).ID]`, [2, 5]),
  check('at() out of range: Undefined', `return Value type(${all}.at(9))`, 5),
  fails('$sel[i] out of range: an error', `return ${all}[9]`, 9404),
  check('first(), last()', `return [${all}.first().ID; ${all}.last().ID]`, [1, 5]),
  check('first() of an empty selection: Null', 'return ds.Log.all().first()=Null', true),
  check('slice(1; 3)', `return ${all}.slice(1; 3).extract("ID")`, [2, 3]),
  check('slice(-2)', `return ${all}.slice(-2).extract("ID")`, [4, 5]),
  check(
    'add() to an alterable selection',
    '$s:=ds.Employee.newSelection()\n$s.add(ds.Employee.get(3))\n$s.add(ds.Employee.get(1))\nreturn $s.extract("ID")',
    [3, 1],
  ),
  check(
    'add() a selection',
    `$s:=ds.Employee.newSelection()\n$s.add(${women})\nreturn $s.length`,
    3,
  ),
  fails('add() to a shareable selection: an error', `$s:=${all}\n$s.add(ds.Employee.get(1))`, 1637),
  check(
    'and()',
    `return ${women}.and(ds.Employee.query("salary > 40000")).extract("ID").orderBy()`,
    [1, 3],
  ),
  check('and() with an entity', `return ${women}.and(ds.Employee.get(2)).length`, 1),
  check('or()', `return ${women}.or(ds.Employee.get(4)).length`, 4),
  check('minus()', `return ${all}.minus(${women}).extract("ID").orderBy()`, [4, 5]),
  check('minus() an entity', `return ${all}.minus(ds.Employee.get(1)).length`, 4),
  check(
    'contains()',
    `return [${women}.contains(ds.Employee.get(2)); ${women}.contains(ds.Employee.get(4))]`,
    [true, false],
  ),
  check(
    'isOrdered(): all() and orderBy()',
    `return [${all}.orderBy("lastName").isOrdered(); ds.Employee.newSelection().isOrdered()]`,
    [true, false],
  ),
  check(
    'isAlterable(): a query is not, copy() is',
    `return [${women}.isAlterable(); ${women}.copy().isAlterable()]`,
    [false, true],
  ),
  check('copy(ck shared) is not alterable', `return ${women}.copy(ck shared).isAlterable()`, false),
  check('getDataClass()', `return ${women}.getDataClass().getInfo().name`, 'Employee'),
  check(
    'selected(): the places of the entities in the selection',
    `$sel:=${all}\n$sub:=ds.Employee.query("ID in :1"; [2; 4])\nreturn $sel.selected($sub)`,
    {
      ranges: [
        { start: 1, end: 1 },
        { start: 3, end: 3 },
      ],
    },
  ),
])

page('EntitySelection: values', [
  check('sum()', `return ${all}.sum("salary")`, 221000),
  check('average()', `return ${women}.average("salary")`, 131000 / 3),
  check('min(), max()', `return [${all}.min("salary"); ${all}.max("salary")]`, [29000, 61000]),
  check('min() of a text', `return ${all}.min("lastName")`, 'Kent'),
  check('max() of a date', `return ${all}.max("birthDate")`, '1990-07-14'),
  check(
    'count(): the non-null values',
    `return [${all}.count("birthDate"); ${all}.count("extra.eyeColor")]`,
    [4, 3],
  ),
  check(
    'average() of an empty selection: Undefined',
    'return Value type(ds.Log.all().average("ID"))',
    5,
  ),
  check('sum() of an empty selection: 0', 'return ds.Log.all().sum("ID")', 0),
  check('distinct()', `return ${all}.distinct("gender")`, ['F', 'M']),
  check('distinct() of an object path', `return ${all}.distinct("extra.eyeColor")`, [
    'blue',
    'green',
  ]),
  check('distinct() of a collection path []', `return ${all}.distinct("extra.hobbies[].name")`, [
    'horsebackriding',
    'Tennis',
  ]),
  check('distinct(; dk count values)', `return ${all}.distinct("gender"; dk count values)`, [
    { value: 'F', count: 3 },
    { value: 'M', count: 2 },
  ]),
  check('distinctPaths()', `return ${all}.distinctPaths("extra")`, [
    'eyeColor',
    'hobbies',

    'hobbies[].level',
    'hobbies[].name',
    'hobbies.length',
  ]),
  check('extract() one attribute', `return ${women}.extract("lastName")`, [
    'Smith',
    'Martin',
    'Rogers',
  ]),
  check('extract() of a relation: entities', `return ${women}.extract("employer").length`, 3),
  check('extract() nulls left out by default', `return ${all}.extract("birthDate").length`, 4),
  check('extract(; ck keep null)', `return ${all}.extract("birthDate"; ck keep null).length`, 5),
  check(
    'extract() several attributes into objects',
    `return ${women}.slice(0; 2).extract("lastName"; "name"; "salary"; "pay")`,
    [
      { name: 'Smith', pay: 52000 },
      { name: 'Martin', pay: 38000 },
    ],
  ),
  check(
    'toCollection(filter)',
    `return ${women}.slice(0; 1).toCollection("firstName, employer.name")`,
    [{ firstName: 'Sarah', employer: { name: 'Acme' } }],
  ),
  check(
    'toCollection(; dk with primary key+dk with stamp)',
    'return ds.Company.all().slice(0; 1).toCollection("name"; dk with primary key+dk with stamp)',
    [{ __KEY: 1, __STAMP: 1, name: 'Acme' }],
  ),
  check(
    'toCollection(""; 0; 1; 2): begin and howMany',
    `return ${all}.toCollection("ID"; 0; 1; 2)`,
    [{ ID: 2 }, { ID: 3 }],
  ),
  check(
    'toCollection(collection of names)',
    `return ${women}.slice(0; 1).toCollection(New collection("lastName"))`,
    [{ lastName: 'Smith' }],
  ),
  check(
    'toCollection of relatedEntities.*',
    'return ds.Company.query("name = Globex").toCollection("staff.lastName")',
    [{ staff: [{ lastName: 'Rogers' }, { lastName: 'Kent' }] }],
  ),
])

page('EntitySelection: orders and queries', [
  check('orderBy(text)', `return ${all}.orderBy("lastName").extract("lastName")`, [
    'Kent',
    'Martin',
    'Miller',
    'Rogers',
    'Smith',
  ]),
  check(
    'orderBy(text desc, several)',
    `return ${all}.orderBy("gender desc, salary asc").extract("ID")`,
    [5, 4, 2, 3, 1],
  ),
  check(
    'orderBy(collection of objects)',
    `return ${all}.orderBy(New collection(New object("propertyPath";"gender";"descending";True);New object("propertyPath";"salary";"descending";False))).extract("ID")`,
    [5, 4, 2, 3, 1],
  ),
  check(
    'orderBy() a related attribute',
    `return ds.Employee.query("employer # null").orderBy("employer.name desc, ID").extract("ID")`,
    [3, 4, 1, 2],
  ),
  check(
    'orderBy() does not change the selection',
    `$s:=${women}\n$o:=$s.orderBy("lastName")\nreturn $s.first().ID`,
    1,
  ),
  check(
    'orderByFormula()',
    `return ${all}.orderByFormula(Formula(This.salary)).extract("ID")`,
    [5, 2, 3, 1, 4],
  ),
  check(
    'orderByFormula(; dk descending)',
    `return ${all}.orderByFormula(Formula(This.salary); dk descending).extract("ID")`,
    [4, 1, 3, 2, 5],
  ),
  check(
    'orderByFormula() with args in $1',
    `return ${all}.orderByFormula(Formula(Num(This.gender#$1.first)*10+This.ID); dk ascending; New object("args";New object("first";"M"))).extract("ID")`,
    [4, 5, 1, 2, 3],
  ),
  check(
    'query() on a selection',
    `return ${women}.query("salary > :1"; 40000).extract("ID")`,
    [1, 3],
  ),
  check(
    'query() on a selection with a formula',
    `return ${women}.query(Formula(This.salary > 40000)).length`,
    2,
  ),
  check(
    'query() on a selection: order by',
    `return ${women}.query("salary > 0 order by firstName").extract("firstName")`,
    ['Dixie', 'Kim', 'Sarah'],
  ),
  check(
    'For each over a selection',
    `$t:=""\nFor each ($e; ${women}.orderBy("firstName"))\n$t:=$t+$e.firstName+" "\nEnd for each\nreturn $t`,
    'Dixie Kim Sarah ',
  ),
  check(
    'drop() a selection',
    `$r:=ds.Employee.query("gender = M").drop()\nreturn [$r.length; ds.Employee.getCount()]`,
    [0, 3],
  ),
])

page('DataStore', [
  check('ds.getInfo()', 'return ds.getInfo()', { type: '4D', networked: false, localID: '' }),
  check('the dataclasses are ds’s properties', 'return OB Keys(ds)', [
    'Company',
    'Employee',
    'Invoice',
    'Log',
  ]),
  check('ds["Employee"]', 'return ds["Employee"].getCount()', 5),
  check(
    'startTransaction, cancelTransaction: the change is undone',
    'ds.startTransaction()\n$e:=ds.Employee.get(1)\n$e.lastName:="X"\n$e.save()\nds.cancelTransaction()\nreturn ds.Employee.get(1).lastName',
    'Smith',
  ),
  check(
    'startTransaction, validateTransaction: the change is kept',
    'ds.startTransaction()\n$e:=ds.Employee.get(1)\n$e.lastName:="X"\n$e.save()\nds.validateTransaction()\nreturn ds.Employee.get(1).lastName',
    'X',
  ),
  check(
    'transactionLevel() and nested transactions',
    'ds.startTransaction()\n$a:=ds.transactionLevel()\nds.startTransaction()\n$b:=ds.transactionLevel()\nds.cancelTransaction()\nds.cancelTransaction()\nreturn [$a; $b; ds.transactionLevel()]',
    [1, 2, 0],
  ),
  check(
    'getGlobalStamp() grows with a save',
    '$g:=ds.getGlobalStamp()\n$e:=ds.Log.new()\n$e.save()\nreturn ds.getGlobalStamp()>$g',
    true,
  ),
  check('locked() is False', 'return ds.locked()', false),
  check('isAdminProtected()', 'return ds.isAdminProtected()', false),
])
