// docs/API/DataClassClass.md: the attribute objects, all, fromCollection, get, getCount,
// getDataStore, getInfo, new, newSelection (query() has its own file: data-class-query.test.ts).
import { check, fails, page } from './orda-doc.fixture.js'

page('DataClass: .attributeName', [
  check('ds.Employee.salary is the attribute object', 'return ds.Employee.salary.name', 'salary'),
  check('ds.Company["city"]', 'return ds.Company["city"].name', 'city'),
  check(
    'a storage attribute: kind, type',
    'return [ds.Employee.firstName.kind; ds.Employee.firstName.type]',
    ['storage', 'string'],
  ),
  check('a number attribute: type "number"', 'return ds.Employee.salary.type', 'number'),
  check('a date attribute: type "date"', 'return ds.Employee.birthDate.type', 'date'),
  check('a boolean attribute: type "bool"', 'return ds.Employee.active.type', 'bool'),
  check('an object attribute: type "object"', 'return ds.Employee.extra.type', 'object'),
  check(
    'relatedEntity: kind, relatedDataClass, type, inverseName',
    '$a:=ds.Employee.employer\nreturn [$a.kind; $a.relatedDataClass; $a.type; $a.inverseName]',
    ['relatedEntity', 'Company', 'Company', 'staff'],
  ),
  check(
    'relatedEntities: kind, relatedDataClass, type "…Selection", inverseName',
    '$a:=ds.Company.staff\nreturn [$a.kind; $a.relatedDataClass; $a.type; $a.inverseName]',
    ['relatedEntities', 'Employee', 'EmployeeSelection', 'employer'],
  ),
  check(
    'fieldType of a relatedEntity is 38 (Is object)',
    'return ds.Employee.employer.fieldType',
    38,
  ),
  check(
    'fieldType of relatedEntities is 42 (Is collection)',
    'return ds.Company.staff.fieldType',
    42,
  ),
  check('indexed is True on an indexed attribute', 'return ds.Employee.lastName.indexed', true),
  check('autoFilled on an autosequence key', 'return ds.Employee.ID.autoFilled', true),
  check('exposed', 'return ds.Employee.salary.exposed', true),
  check(
    'Bool() of a property not returned is False (the tip)',
    'return Bool(ds.Employee.employer.unique)',
    false,
  ),
  check(
    'the attribute of the primary key, by getInfo().primaryKey (getInfo example 3)',
    '$pk:=ds.Employee.getInfo().primaryKey\nreturn ds.Employee[$pk].name',
    'ID',
  ),
])

page('DataClass: .all()', [
  check('all the entities', 'return ds.Employee.all().length', 5),
  check('in the order of creation', 'return ds.Employee.all().extract("ID")', [1, 2, 3, 4, 5]),
  check(
    'a settings object with a context is accepted',
    'return ds.Employee.all({context: "list"}).length',
    5,
  ),
  check('empty dataclass: an empty selection', 'return ds.Log.all().length', 0),
  check(
    'getCount() equals all().length',
    'return ds.Employee.getCount()=ds.Employee.all().length',
    true,
  ),
])

page('DataClass: .fromCollection()', [
  check(
    'example 1: primary key given and existing: the entity is updated, its relation too',
    `$emp:=New object
$emp.ID:=2
$emp.firstName:="Arthur"
$emp.lastName:="Martin"
$emp.employer:=New object("ID";2)
$employees:=ds.Employee.fromCollection(New collection($emp))
$e:=ds.Employee.get(2)
return [$employees.length; $e.firstName; $e.employer.name; ds.Employee.getCount()]`,
    [1, 'Arthur', 'Globex', 5],
  ),
  check(
    'example 2: the key given as __KEY',
    `$emp:=New object("__KEY";3;"firstName";"John";"lastName";"Boorman")
$emp.employer:=New object("ID";1)
ds.Employee.fromCollection(New collection($emp))
return [ds.Employee.get(3).lastName; ds.Employee.get(3).employer.name]`,
    ['Boorman', 'Acme'],
  ),
  check(
    'example 3: no key: a new entity',
    `$employees:=ds.Employee.fromCollection(New collection(New object("firstName";"Victor";"lastName";"Hugo")))
return [ds.Employee.getCount(); $employees.first().lastName; $employees.first().ID]`,
    [6, 'Hugo', 6],
  ),
  check(
    'example 4: __NEW true, no key, a relation by __KEY',
    `$emp:=New object("firstName";"Mary";"lastName";"Smith";"__NEW";True)
$emp.employer:=New object("__KEY";3)
$employees:=ds.Employee.fromCollection(New collection($emp))
return [$employees.first().employer.name; ds.Employee.getCount()]`,
    ['Initech', 6],
  ),
  check(
    'example 5: a key given that does not exist: the entity is created with it',
    `ds.Employee.fromCollection(New collection(New object("ID";10000;"firstName";"Françoise";"lastName";"Sagan")))
return ds.Employee.get(10000).lastName`,
    'Sagan',
  ),
  check(
    'attributes missing from the object are null in a new entity',
    `ds.Employee.fromCollection([{ID: 10; lastName: "Solo"}])
return ds.Employee.get(10).salary=Null`,
    true,
  ),
  check(
    'a property that is not an attribute is ignored',
    `ds.Employee.fromCollection([{ID: 11; lastName: "X"; nickname: "y"}])
return ds.Employee.get(11).lastName`,
    'X',
  ),
  check(
    'the result is a selection of the dataclass',
    'return ds.Invoice.fromCollection([{code: "A1"; amount: 3}]).getDataClass().getInfo().name',
    'Invoice',
  ),
])

page('DataClass: .get()', [
  check('get(167) style: a numeric key', 'return ds.Employee.get(2).lastName', 'Martin'),
  check('get("DGGX20030"): a text key', 'return ds.Invoice.get("DGGX20030").amount', 120),
  check('no entity: Null', 'return ds.Employee.get(999)=Null', true),
  check(
    'with a context settings object (example 2)',
    'return ds.Employee.get(1; New object("context";"detail")).firstName',
    'Sarah',
  ),
  check('the entity is not new', 'return ds.Employee.get(1).isNew()', false),
  check(
    'getKey(dk key as string) is Text',
    'return ds.Employee.get(3).getKey(dk key as string)',
    '3',
  ),
])

page('DataClass: .getCount(), .getDataStore(), .getInfo()', [
  check(
    'getCount()',
    'return [ds.Employee.getCount(); ds.Company.getCount(); ds.Log.getCount()]',
    [5, 3, 0],
  ),
  check(
    'getCount() counts the entities created in a transaction',
    'ds.startTransaction()\n$e:=ds.Log.new()\n$e.info:="x"\n$e.save()\n$n:=ds.Log.getCount()\nds.cancelTransaction()\nreturn [$n; ds.Log.getCount()]',
    [1, 0],
  ),
  check(
    'query() and all() find what the transaction saved and created, until it is cancelled',
    'ds.startTransaction()\n$e:=ds.Employee.get(1)\n$e.lastName:="Zed"\n$e.save()\n$n:=ds.Employee.query("lastName = :1";"Zed").length\n$new:=ds.Employee.new()\n$new.lastName:="Zed"\n$new.save()\n$m:=ds.Employee.query("lastName = :1";"Zed").length\n$all:=ds.Employee.all().length\nds.cancelTransaction()\nreturn [$n; $m; $all; ds.Employee.query("lastName = :1";"Zed").length]',
    [1, 2, 6, 0],
  ),
  check('getDataStore() is ds', 'return ds.Employee.getDataStore()=ds', true),
  check(
    'SearchDuplicate: the datastore of an entity’s dataclass, a dataclass by name',
    `var $pet : Object:=ds.Employee.get(1)
$dataStore:=$pet.getDataClass().getDataStore()
return $dataStore["Company"].query("name=:1";"Acme").length`,
    1,
  ),
  check('getInfo().name', 'return ds.Employee.getInfo().name', 'Employee'),
  check(
    'getInfo().primaryKey',
    'return [ds.Employee.getInfo().primaryKey; ds.Invoice.getInfo().primaryKey]',
    ['ID', 'code'],
  ),
  check('getInfo().exposed', 'return ds.Employee.getInfo().exposed', true),
  check(
    'getInfo().tableNumber: a number in an object is a Real',
    'return [ds.Employee.getInfo().tableNumber; Value type(ds.Employee.getInfo().tableNumber)=Is real]',
    [2, true],
  ),
  check(
    'getInfo example 1: the name of an entity’s dataclass after save',
    '$entity:=ds.Employee.get(1)\n$entity.salary:=1\n$status:=$entity.save()\nIf ($status.success)\nreturn "Record updated in table "+$entity.getDataClass().getInfo().name\nEnd if',
    'Record updated in table Employee',
  ),
  check(
    'getInfo example 2: ":pk in :receivedIds" with the key as an attribute placeholder',
    `$settings:=New object
$settings.parameters:=New object("receivedIds";New collection(1;3;5))
$settings.attributes:=New object("pk";ds.Employee.getInfo().primaryKey)
return ds.Employee.query(":pk in :receivedIds";$settings).length`,
    3,
  ),
  check(
    'getRemoteCache() in a single-user application is Null',
    'return ds.Employee.getRemoteCache()=Null',
    true,
  ),
  check(
    'clearRemoteCache() and setRemoteCacheSettings() do nothing',
    'ds.Employee.clearRemoteCache()\nds.Employee.setRemoteCacheSettings({timeout: 60; maxEntries: 350})\nreturn ds.Employee.getCount()',
    5,
  ),
])

page('DataClass: .new(), .newSelection()', [
  check(
    'the Log example: new, assign, save',
    '$entity:=ds.Log.new()\n$entity.info:="New entry"\n$entity.save()\nreturn ds.Log.all().first().info',
    'New entry',
  ),
  check(
    'a new entity is not saved until save()',
    '$entity:=ds.Log.new()\n$entity.info:="x"\nreturn ds.Log.getCount()',
    0,
  ),
  check(
    'all attributes of a new entity are null',
    '$e:=ds.Employee.new()\nreturn [$e.lastName=Null; $e.salary=Null; $e.employer=Null]',
    [true, true, true],
  ),
  check('a new entity isNew()', 'return ds.Employee.new().isNew()', true),
  check('newSelection(): empty', 'return ds.Employee.newSelection().length', 0),
  check(
    'newSelection(): unordered by default',
    'return ds.Employee.newSelection().isOrdered()',
    false,
  ),
  check(
    'newSelection(dk keep ordered): ordered',
    'return ds.Employee.newSelection(dk keep ordered).isOrdered()',
    true,
  ),
  check(
    'newSelection(dk non ordered)',
    'return ds.Employee.newSelection(dk non ordered).isOrdered()',
    false,
  ),
  check(
    'newSelection() is alterable: add()',
    '$s:=ds.Employee.newSelection()\n$s.add(ds.Employee.get(2))\nreturn [$s.length; $s.isAlterable()]',
    [1, true],
  ),
  fails('an attribute that does not exist, assigned', '$e:=ds.Employee.new()\n$e.nope:=1', 1500),
])
