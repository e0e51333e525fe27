// docs/API/EntityClass.md: save and drop with their status objects, reload, lock and unlock,
// touched and touchedAttributes, toObject and fromObject, clone, diff, and the entity's place:
// getKey, getStamp, isNew, indexOf, next, previous, first, last, getSelection, getDataClass.
import { check, page } from './orda-doc.fixture.js'

const twoCopies =
  '$e:=ds.Employee.get(2)\n$other:=ds.Employee.get(2)\n$other.salary:=1\n$other.save()\n'

page('Entity: .save()', [
  check('a new entity saved: success', '$e:=ds.Log.new()\n$e.info:="x"\nreturn $e.save()', {
    success: true,
  }),
  check(
    'a modified entity saved',
    '$e:=ds.Employee.get(1)\n$e.salary:=1\nreturn [$e.save().success; ds.Employee.get(1).salary]',
    [true, 1],
  ),
  check(
    'after save(): not touched, not new',
    '$e:=ds.Log.new()\n$e.info:="x"\n$e.save()\nreturn [$e.touched(); $e.isNew()]',
    [false, false],
  ),
  check(
    'the autosequence key is given on save',
    '$e:=ds.Log.new()\n$e.info:="x"\n$e.save()\nreturn $e.ID',
    1,
  ),
  check(
    'save() of an entity not changed: success',
    'return ds.Employee.get(1).save().success',
    true,
  ),
  check(
    'the stamp changed: status 2 "Stamp has changed"',
    twoCopies + '$e.lastName:="X"\n$s:=$e.save()\nreturn [$s.success; $s.status; $s.statusText]',
    [false, 2, 'Stamp has changed'],
  ),
  check(
    'status compared with dk status stamp has changed',
    twoCopies + '$e.lastName:="X"\nreturn $e.save().status=dk status stamp has changed',
    true,
  ),
  check(
    'dk auto merge: other attributes changed, merged and saved',
    twoCopies +
      '$e.lastName:="X"\n$s:=$e.save(dk auto merge)\n$r:=ds.Employee.get(2)\nreturn [$s.success; $r.lastName; $r.salary]',
    [true, 'X', 1],
  ),
  check(
    'dk auto merge: the same attribute changed: 6 "Auto merge failed"',
    twoCopies +
      '$e.salary:=2\n$s:=$e.save(dk auto merge)\nreturn [$s.status; $s.statusText; $s.status=dk status automerge failed]',
    [6, 'Auto merge failed', true],
  ),
  check(
    'the entity was dropped: status 5 (compat.md: "Entity does not exist")',
    '$e:=ds.Employee.get(5)\nds.Employee.get(5).drop()\n$e.lastName:="X"\n$s:=$e.save()\nreturn [$s.status; $s.statusText; $s.status=dk status entity does not exist anymore]',
    [5, 'Entity does not exist', true],
  ),
  check(
    'a status object is tested with If ($status.success)',
    '$e:=ds.Employee.get(1)\n$e.firstName:="Sara"\n$status:=$e.save()\nIf ($status.success)\nreturn "saved"\nElse\nreturn $status.statusText\nEnd if',
    'saved',
  ),
  check(
    'a saved entity’s stamp grows',
    '$e:=ds.Employee.get(1)\n$s1:=$e.getStamp()\n$e.salary:=2\n$e.save()\nreturn $e.getStamp()>$s1',
    true,
  ),
])

page('Entity: .drop()', [
  check(
    'drop(): success, the entity is gone',
    '$e:=ds.Employee.get(5)\n$s:=$e.drop()\nreturn [$s.success; ds.Employee.get(5)=Null; ds.Employee.getCount()]',
    [true, true, 4],
  ),
  check(
    'a dropped entity stays in memory',
    '$e:=ds.Employee.get(5)\n$e.drop()\nreturn $e.lastName',
    'Miller',
  ),
  check(
    'drop() of an entity dropped already: status 5',
    '$e:=ds.Employee.get(5)\nds.Employee.get(5).drop()\n$s:=$e.drop()\nreturn [$s.success; $s.status; $s.statusText]',
    [false, 5, 'Entity does not exist'],
  ),
  check('drop() after a save by another: status 2', twoCopies + 'return $e.drop().status', 2),
  check(
    'dk force drop if stamp changed: dropped',
    twoCopies + 'return [$e.drop(dk force drop if stamp changed).success; ds.Employee.get(2)=Null]',
    [true, true],
  ),
])

page('Entity: .reload(), .lock(), .unlock()', [
  check(
    'reload() gets the values saved by another',
    twoCopies + '$s:=$e.reload()\nreturn [$s.success; $e.salary]',
    [true, 1],
  ),
  check(
    'reload() drops the changes not saved',
    '$e:=ds.Employee.get(1)\n$e.salary:=3\n$e.reload()\nreturn [$e.salary; $e.touched()]',
    [52000, false],
  ),
  check(
    'reload() of a dropped entity: status 5',
    '$e:=ds.Employee.get(5)\nds.Employee.get(5).drop()\n$s:=$e.reload()\nreturn [$s.success; $s.status]',
    [false, 5],
  ),
  check('lock(): success', 'return ds.Employee.get(1).lock().success', true),
  check(
    'unlock() by another reference of the same process releases the lock (compat.md)',
    '$e1:=ds.Employee.all()[0]\n$e2:=ds.Employee.all()[0]\n$r1:=$e1.lock()\n$r2:=$e2.unlock()\n$r3:=$e1.unlock()\nreturn [$r1.success; $r2.success; $r3.success]',
    [true, true, true],
  ),
  check(
    'unlock() of an entity not locked: success (compat.md)',
    'return ds.Employee.get(1).unlock().success',
    true,
  ),
  check(
    'dk auto merge: success with autoMerged',
    twoCopies + '$e.lastName:="Y"\n$s:=$e.save(dk auto merge)\nreturn [$s.success; $s.autoMerged]',
    [true, true],
  ),
  check(
    'lock() then unlock()',
    '$e:=ds.Employee.get(1)\n$e.lock()\nreturn $e.unlock().success',
    true,
  ),
  check(
    'a locked entity is saved by its own process',
    '$e:=ds.Employee.get(1)\n$e.lock()\n$e.salary:=9\nreturn [$e.save().success; $e.unlock().success]',
    [true, true],
  ),
  check(
    'lock(dk reload if stamp changed): the values saved since are loaded',
    twoCopies + '$s:=$e.lock(dk reload if stamp changed)\nreturn [$s.success; $e.salary]',
    [true, 1],
  ),
  check('lock() of a stamp changed: status 2', twoCopies + 'return $e.lock().status', 2),
  check(
    'lock() of a dropped entity: status 5',
    '$e:=ds.Employee.get(5)\nds.Employee.get(5).drop()\nreturn $e.lock().status',
    5,
  ),
])

page('Entity: .touched(), .touchedAttributes()', [
  check('read only: not touched', 'return ds.Employee.get(1).touched()', false),
  check(
    'assigned the same value: touched (the page’s example)',
    '$e:=ds.Employee.get(1)\n$e.firstName:=$e.firstName\nreturn [$e.touched(); $e.touchedAttributes()]',
    [true, ['firstName']],
  ),
  check('a new entity not filled: not touched', 'return ds.Employee.new().touched()', false),
  check(
    'an attribute assigned: touched',
    '$e:=ds.Employee.get(1)\n$e.firstName:="S"\nreturn $e.touched()',
    true,
  ),
  check(
    'a new entity with a value: touched',
    '$e:=ds.Log.new()\n$e.info:="x"\nreturn $e.touched()',
    true,
  ),
  check(
    'no attribute touched: an empty collection',
    'return ds.Employee.get(1).touchedAttributes()',
    [],
  ),
  check(
    'touchedAttributes: the names assigned',
    '$e:=ds.Employee.get(1)\n$e.firstName:="John"\n$e.lastName:="Doe"\nreturn $e.touchedAttributes().orderBy()',
    ['firstName', 'lastName'],
  ),
  check(
    'a relation assigned',
    '$e:=ds.Employee.get(1)\n$e.employer:=ds.Company.get(3)\nreturn $e.touchedAttributes()',
    ['employer'],
  ),
  check(
    'after save() none',
    '$e:=ds.Employee.get(1)\n$e.firstName:="J"\n$e.save()\nreturn $e.touchedAttributes()',
    [],
  ),
])

page('Entity: .toObject(), .fromObject()', [
  check('toObject(filter string)', 'return ds.Employee.get(2).toObject("firstName, lastName")', {
    firstName: 'Kim',
    lastName: 'Martin',
  }),
  check(
    'toObject(collection of names)',
    'return ds.Employee.get(2).toObject(New collection("lastName";"salary"))',
    { lastName: 'Martin', salary: 38000 },
  ),
  check('a relatedEntity: its key', 'return ds.Employee.get(2).toObject("lastName, employer")', {
    lastName: 'Martin',
    employer: { __KEY: 1 },
  }),
  check(
    'a related attribute path',
    'return ds.Employee.get(2).toObject("lastName, employer.name")',
    { lastName: 'Martin', employer: { name: 'Acme' } },
  ),
  check(
    'employer.* : all of the related entity',
    'return ds.Employee.get(4).toObject("employer.*").employer.city',
    'Lyon',
  ),
  check(
    'relatedEntities: a collection of objects',
    'return ds.Company.get(2).toObject("name, staff.lastName")',
    { name: 'Globex', staff: [{ lastName: 'Rogers' }, { lastName: 'Kent' }] },
  ),
  check(
    'dk with primary key',
    'return ds.Employee.get(2).toObject("lastName"; dk with primary key)',
    { __KEY: 2, lastName: 'Martin' },
  ),
  check('dk with stamp', 'return ds.Employee.get(2).toObject("lastName"; dk with stamp)', {
    __STAMP: 1,
    lastName: 'Martin',
  }),
  check(
    'dk with primary key+dk with stamp',
    'return ds.Employee.get(2).toObject("lastName"; dk with primary key+dk with stamp)',
    { __KEY: 2, __STAMP: 1, lastName: 'Martin' },
  ),
  check(
    'toObject() without a filter: storage attributes, a relatedEntity simply, no relatedEntities',
    'return ds.Employee.get(3).toObject()',
    {
      ID: 3,
      firstName: 'Dixie',
      lastName: 'Rogers',
      salary: 41000,
      birthDate: '1990-07-14',
      gender: 'F',
      active: false,
      extra: { eyeColor: 'blue' },
      employer: { __KEY: 2 },
      manager: { __KEY: 1 },
    },
  ),
  check(
    'toObject("*") is toObject()',
    '$e:=ds.Employee.get(3)\nreturn JSON Stringify($e.toObject("*"))=JSON Stringify($e.toObject())',
    true,
  ),
  check(
    'toObject(""; dk with primary key+dk with stamp)',
    'return OB Keys(ds.Company.get(3).toObject(""; dk with primary key+dk with stamp))',
    ['__KEY', '__STAMP', 'ID', 'name', 'city', 'revenues'],
  ),
  check(
    'directReports.*',
    'return ds.Employee.get(1).toObject("directReports.*").directReports.extract("lastName")',
    ['Martin', 'Rogers'],
  ),
  check(
    'firstName, directReports.lastName',
    'return ds.Employee.get(1).toObject("firstName, directReports.lastName")',
    { firstName: 'Sarah', directReports: [{ lastName: 'Martin' }, { lastName: 'Rogers' }] },
  ),
  check(
    'toObject() of an object attribute gives its object',
    'return ds.Employee.get(3).toObject("extra").extra',
    { eyeColor: 'blue' },
  ),
  check(
    'a date attribute',
    'return ds.Employee.get(3).toObject("birthDate").birthDate',
    '1990-07-14',
  ),
  check(
    'fromObject(): attributes filled, a relation by __KEY',
    '$e:=ds.Employee.new()\n$e.fromObject(New object("firstName";"Mary";"lastName";"Smith";"employer";New object("__KEY";3)))\n$e.save()\nreturn [ds.Employee.query("firstName = Mary").length; $e.employer.name]',
    [1, 'Initech'],
  ),
  check(
    'fromObject() touches the entity',
    '$e:=ds.Employee.get(1)\n$e.fromObject({salary: 1})\nreturn $e.touchedAttributes()',
    ['salary'],
  ),
])

page('Entity: .clone(), .diff()', [
  check(
    'a clone has the same key',
    '$e:=ds.Employee.get(1)\n$c:=$e.clone()\nreturn $c.getKey()',
    1,
  ),
  check(
    'a clone changed: the entity is not',
    '$e:=ds.Employee.get(1)\n$c:=$e.clone()\n$c.firstName:="X"\nreturn $e.firstName',
    'Sarah',
  ),
  check(
    'a clone saved',
    '$e:=ds.Employee.get(1)\n$c:=$e.clone()\n$c.firstName:="X"\n$c.save()\nreturn ds.Employee.get(1).firstName',
    'X',
  ),
  check(
    'diff(): the attributes that differ, with both values',
    '$e1:=ds.Employee.get(1)\n$e2:=$e1.clone()\n$e2.firstName:="Sal"\n$e2.salary:=1\nreturn $e1.diff($e2).orderBy("attributeName")',
    [
      { attributeName: 'firstName', value: 'Sarah', otherValue: 'Sal' },
      { attributeName: 'salary', value: 52000, otherValue: 1 },
    ],
  ),
  check(
    'diff() of equal entities: empty',
    '$e:=ds.Employee.get(1)\nreturn $e.diff($e.clone())',
    [],
  ),
  check(
    'diff() limited to attributes',
    '$e1:=ds.Employee.get(1)\n$e2:=$e1.clone()\n$e2.firstName:="Sal"\n$e2.salary:=1\nreturn $e1.diff($e2; New collection("salary")).extract("attributeName")',
    ['salary'],
  ),
])

page('Entity: key, stamp and place', [
  check('getKey()', 'return ds.Employee.get(3).getKey()', 3),
  check('getKey() of a text key', 'return ds.Invoice.get("DGGX20031").getKey()', 'DGGX20031'),
  check('getKey(dk key as string)', 'return ds.Employee.get(3).getKey(dk key as string)', '3'),
  check('getStamp() of a loaded entity', 'return ds.Employee.get(3).getStamp()', 1),
  check('isNew()', 'return [ds.Employee.new().isNew(); ds.Employee.get(1).isNew()]', [true, false]),
  check('getDataClass()', 'return ds.Employee.get(1).getDataClass().getInfo().name', 'Employee'),
  check(
    'getDataClass() is ds.Employee',
    'return ds.Employee.get(1).getDataClass()=ds.Employee',
    true,
  ),
  check(
    'indexOf() in its selection',
    '$sel:=ds.Employee.query("salary > 40000 order by salary")\nreturn $sel[2].indexOf()',
    2,
  ),
  check(
    'indexOf($sel) in another selection',
    '$e:=ds.Employee.get(4)\nreturn [$e.indexOf(ds.Employee.all()); $e.indexOf(ds.Employee.query("gender=F"))]',
    [3, -1],
  ),
  check('indexOf() of an entity read by get(): -1', 'return ds.Employee.get(1).indexOf()', -1),
  check(
    'next()',
    '$sel:=ds.Employee.all().orderBy("lastName")\nreturn $sel.first().next().lastName',
    'Martin',
  ),
  check('next() of the last: Null', 'return ds.Employee.all().last().next()=Null', true),
  check('previous()', 'return ds.Employee.all().last().previous().ID', 4),
  check('previous() of the first: Null', 'return ds.Employee.all().first().previous()=Null', true),
  check(
    'first() and last() of its selection',
    '$e:=ds.Employee.all()[2]\nreturn [$e.first().ID; $e.last().ID]',
    [1, 5],
  ),
  check(
    'getSelection(): the selection it belongs to',
    '$e:=ds.Employee.query("gender = F")[0]\nreturn $e.getSelection().length',
    3,
  ),
  check('getSelection() of get(): Null', 'return ds.Employee.get(1).getSelection()=Null', true),
  check('a relation: the related entity', 'return ds.Employee.get(2).manager.lastName', 'Smith'),
  check('a relation without an entity: Null', 'return ds.Employee.get(1).manager=Null', true),
  check(
    'a 1-N relation: a selection',
    'return ds.Employee.get(1).directReports.extract("firstName")',
    ['Kim', 'Dixie'],
  ),
  check(
    'the entity in an object is the same entity',
    '$o:=New object("e";ds.Employee.get(1))\n$o.e.salary:=7\nreturn $o.e.touched()',
    true,
  ),
])
