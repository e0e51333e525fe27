// docs/Concepts/classes.md, docs/API/ClassClass.md and the commands This, Super, OB Class and
// OB Instance of (docs/commands/this.md, super.md): each check runs its method with the page's
// class files beside it.
import type { Check } from './doc.fixture.js'
import { page } from './doc.fixture.js'

type Classes = Readonly<Record<string, string>>

/** Checks of one method each, all with the same class files. */
const withClasses = (
  classes: Classes,
  table: readonly (readonly [name: string, code: string, expected: unknown])[],
): Check[] =>
  table.map(([name, code, expected]) => ({ name, code, expected, options: { classes } }))

const PERSON: Classes = {
  Person: `property firstName; lastName : Text

Class constructor($firstname : Text; $lastname : Text)
  This.firstName:=$firstname
  This.lastName:=$lastname

Function get fullName() -> $fullName : Text
  $fullName:=This.firstName+" "+This.lastName

Function set fullName($fullName : Text)
  $p:=Position(" "; $fullName)
  This.firstName:=Substring($fullName; 1; $p-1)
  This.lastName:=Substring($fullName; $p+1)

Function sayHello() -> $welcome : Text
  $welcome:="Hello "+This.fullName`,
}

const RECTANGLE = `property name : Text
property height; width : Integer

Class constructor($width : Integer; $height : Integer)
  This.name:="Rectangle"
  This.height:=$height
  This.width:=$width

Function sayName() : Text
  return "Hi, I am a "+This.name+"."

Function getArea()->$result : Integer
  $result:=(This.height)*(This.width)

Function nbSides() : Text
  return "I have 4 sides"

Function getRectArea($width : Integer; $height : Integer) : Integer
  If ($width > 0 && $height > 0)
    return $width * $height
  Else
    return 0
  End if`

const SHAPES: Classes = {
  Rectangle: RECTANGLE,
  Square: `Class extends Rectangle

Class constructor ($side : Integer)
  Super($side;$side)
  This.name:="Square"

Function getArea() : Integer
  return This.height*This.width

Function description() : Text
  return Super.nbSides()+" which are all equal"

Function parentName() : Text
  return Super.sayName()`,
  Polygon: `Class constructor
  C_LONGINT($1;$2)
  This.area:=$1*$2`,
  Empty: '',
  MyClass: `property name : Text
property age : Integer
property color : Text := "Blue"`,
  Defaults: `property name : Text := "Smith"
property age : Integer := 42
property birthDate := !1988-09-29!
property fuzzy`,
  Named: `Class Constructor ($name : Text ; $age : Integer)
  This.name:=$name
  This.age:=$age`,
  ob: `Function f() : Integer
  return This.a+This.b`,
  Answer: `Class Constructor
  This.a:=42`,
  ReadOnly: `Function get total() : Integer
  return 10`,
  Parent: `property fromParent := "p"`,
  Child: `Class extends Parent
property fromChild := "c"

Class constructor()
  Super()
  This.order:=This.fromParent+This.fromChild`,
  Shared: `shared Class Constructor($firstname : Text; $lastname : Text)
  This.firstName:=$firstname
  This.lastName:=$lastname`,
  Foo: `shared Class Constructor()
  This.variable:=1

shared Function Bar($value : Integer)
  This.variable:=$value`,
  ProcessTag: `singleton Class Constructor()
  This.tag:=Random`,
  VehicleFactory: `property vehicleBuilt : Integer

shared singleton Class constructor()
  This.vehicleBuilt:=0

shared Function buildVehicle($type : Text) -> $vehicle : Object
  Case of
    : ($type="car")
      $vehicle:={kind: "car"}
    : ($type="truck")
      $vehicle:={kind: "truck"}
  Else
    $vehicle:={kind: "car"}
  End case
  This.vehicleBuilt+=1`,
  ItemInventory: `property itemList : Collection:=[]

session singleton Class constructor()

shared function addItem($item : Object)
  This.itemList.push($item)`,
  Calc: `Function add($x : Variant; $y : Integer)->$result : Integer
  $result:=$x+$y

Function add2($x : Variant; $y : Integer): Integer
  return $x+$y

Function whoAmI() : Text
  return Current method name`,
}

page('classes.md: user classes, constructor, property, Function, get/set, extends', [
  withClasses(PERSON, [
    [
      'new() calls the constructor',
      '$person:=cs.Person.new("John";"Doe")\nreturn $person.firstName+"/"+$person.lastName',
      'John/Doe',
    ],
    [
      'a getter is read as a property',
      '$person:=cs.Person.new("John";"Doe")\nreturn $person.fullName',
      'John Doe',
    ],
    [
      'a function uses This and a getter',
      '$person:=cs.Person.new("John";"Doe")\nreturn $person.sayHello()',
      'Hello John Doe',
    ],
    [
      'a setter runs on assignment',
      '$person:=cs.Person.new("John";"Doe")\n$person.fullName:="John Smith"\nreturn $person.lastName',
      'Smith',
    ],
    [
      'the getter after the setter',
      '$person:=cs.Person.new("a";"b")\n$person.fullName:="Ada Lovelace"\nreturn $person.fullName',
      'Ada Lovelace',
    ],
    [
      'a computed property is not stored',
      '$person:=cs.Person.new("John";"Doe")\nreturn OB Keys($person)',
      ['firstName', 'lastName'],
    ],
    [
      'JSON Stringify leaves out the prototype',
      '$person:=cs.Person.new("John";"Doe")\nreturn JSON Stringify($person)',
      '{"firstName":"John","lastName":"Doe"}',
    ],
    [
      'OB Class($o).name',
      '$person:=cs.Person.new("John";"Doe")\nreturn OB Class($person).name',
      'Person',
    ],
    ['a class is shared', 'return OB Is shared(cs.Person)', true],
    ['cs.Person.name', 'return cs.Person.name', 'Person'],
    ['4D.Object.name', 'return 4D.Object.name', 'Object'],
    ['4D.Object.superclass', 'return 4D.Object.superclass', null],
    [
      'a class without parent: OB Instance of 4D.Object',
      '$p:=cs.Person.new("a";"b")\nreturn OB Instance of($p;4D.Object)',
      true,
    ],
    ['new() without parameters', '$p:=cs.Person.new()\nreturn $p.firstName', ''],
  ]),
  withClasses(SHAPES, [
    ['Rectangle.getArea()', '$rect:=cs.Rectangle.new(50;100)\nreturn $rect.getArea()', 5000],
    ['return in a function', '$rect:=cs.Rectangle.new(1;1)\nreturn $rect.getRectArea(3;4)', 12],
    ['Super($side;$side) in the constructor', '$sq:=cs.Square.new(4)\nreturn $sq.getArea()', 16],
    ['the child sets its name after Super', '$sq:=cs.Square.new(4)\nreturn $sq.name', 'Square'],
    ['an inherited function', '$sq:=cs.Square.new(4)\nreturn $sq.sayName()', 'Hi, I am a Square.'],
    [
      'Super.nbSides() in a member function',
      '$square:=cs.Square.new()\nreturn $square.description()',
      'I have 4 sides which are all equal',
    ],
    [
      'Super.f() runs with This the instance',
      '$square:=cs.Square.new(2)\nreturn $square.parentName()',
      'Hi, I am a Square.',
    ],
    ['cs.Square.superclass', 'return cs.Square.superclass.name', 'Rectangle'],
    [
      'OB Instance of the class',
      '$poly:=cs.Polygon.new(4;3)\nreturn OB Instance of($poly;cs.Polygon)',
      true,
    ],
    [
      'OB Instance of 4D.Object',
      '$poly:=cs.Polygon.new(4;3)\nreturn OB Instance of($poly;4D.Object)',
      true,
    ],
    [
      'OB Instance of the parent class',
      '$sq:=cs.Square.new(2)\nreturn OB Instance of($sq;cs.Rectangle)',
      true,
    ],
    [
      'OB Instance of another class',
      '$sq:=cs.Rectangle.new(2;2)\nreturn OB Instance of($sq;cs.Square)',
      false,
    ],
    ['a constructor with $1 and $2', '$poly:=cs.Polygon.new(4;3)\nreturn $poly.area', 12],
    ['an empty class: an empty object', '$o:=cs.Empty.new()\nreturn OB Keys($o).length', 0],
    ['an empty class: its name', '$o:=cs.Empty.new()\nreturn OB Class($o).name', 'Empty'],
    ['property with a value: set by new()', '$o:=cs.MyClass.new()\nreturn $o', { color: 'Blue' }],
    [
      'declared properties are not added until assigned',
      '$o:=cs.MyClass.new()\n$o.name:="John"\nreturn OB Keys($o)',
      ['color', 'name'],
    ],
    [
      'property initializers',
      '$o:=cs.Defaults.new()\nreturn String($o.name)+" "+String($o.age)+" "+String($o.birthDate;ISO date)',
      'Smith 42 1988-09-29T00:00:00',
    ],
    [
      'an uninitialized property is not added',
      '$o:=cs.Defaults.new()\nreturn OB Is defined($o;"fuzzy")',
      false,
    ],
    [
      'Class Constructor with named parameters',
      '$o:=cs.Named.new("John";42)\nreturn $o',
      { name: 'John', age: 42 },
    ],
    ['This in a function', '$o:=cs.ob.new()\n$o.a:=5\n$o.b:=3\nreturn $o.f()', 8],
    ['This in the constructor', '$o:=cs.Answer.new()\nreturn $o.a', 42],
    [
      "the parent's properties before the child's, then the constructor",
      '$o:=cs.Child.new()\nreturn $o.order',
      'pc',
    ],
    [
      'a function is called through apply()',
      '$o:=cs.ob.new()\n$o.a:=1\n$o.b:=2\nreturn $o.f.apply($o)',
      3,
    ],
    [
      'a function is called through call() with another This',
      '$o:=cs.ob.new()\nreturn $o.f.call({a: 10; b: 20})',
      30,
    ],
    ['Function … -> $result', 'return cs.Calc.new().add(1;2)', 3],
    ['Function … : Integer with return', 'return cs.Calc.new().add2(1;2)', 3],
    ['Current method name in a class function', 'return cs.Calc.new().whoAmI()', 'Calc.whoAmI'],
    ['isShared of a plain class', 'return cs.Rectangle.isShared', false],
    ['isSingleton of a plain class', 'return cs.Rectangle.isSingleton', false],
  ]),
  {
    name: 'return in the Else branch of `If ($width > 0 && $height > 0)`',
    code: '$rect:=cs.Rectangle.new(1;1)\nreturn $rect.getRectArea(-3;4)',
    expected: 0,
    options: { classes: SHAPES },
    fails:
      'one left-to-right precedence for every binary operator (compat.md, operators.md): the line reads (($width>0) && $height)>0',
  },
  {
    name: 'a read-only computed property cannot be written',
    code: '$o:=cs.ReadOnly.new()\n$o.total:=3\nreturn $o.total',
    error: { errCode: 9411, contains: 'total' },
    options: { classes: SHAPES },
  },
])

page('classes.md: shared and singleton classes', [
  withClasses(SHAPES, [
    [
      'a shared class makes shared objects',
      '$person:=cs.Shared.new("John";"Smith")\nreturn OB Is shared($person)',
      true,
    ],
    ['cs.Shared.isShared', 'return cs.Shared.isShared', true],
    [
      'a shared function writes without Use',
      '$foo:=cs.Foo.new()\n$foo.Bar(7)\nreturn $foo.variable',
      7,
    ],
    [
      'a process singleton: me twice is the same',
      '$a:=cs.ProcessTag.me\n$b:=cs.ProcessTag.me\nreturn $a.tag=$b.tag',
      true,
    ],
    ['a process singleton: the same object', 'return cs.ProcessTag.me=cs.ProcessTag.me', true],
    ['isSingleton', 'return cs.ProcessTag.isSingleton', true],
    [
      "a shared singleton's shared function",
      '$vehicle:=cs.VehicleFactory.me.buildVehicle("truck")\nreturn $vehicle.kind',
      'truck',
    ],
    [
      'a shared singleton keeps its state',
      '$v:=cs.VehicleFactory.me.buildVehicle("truck")\n$v:=cs.VehicleFactory.me.buildVehicle("car")\nreturn cs.VehicleFactory.me.vehicleBuilt',
      2,
    ],
    ['a shared singleton is shared', 'return OB Is shared(cs.VehicleFactory.me)', true],
    ['isSessionSingleton', 'return cs.ItemInventory.isSessionSingleton', true],
    [
      "a session singleton's property initializer",
      '$inv:=cs.ItemInventory.me\n$inv.addItem({name: "pen"})\nreturn cs.ItemInventory.me.itemList.length',
      1,
    ],
    [
      'a property in a shared class is a shared collection',
      'return OB Is shared(cs.ItemInventory.me.itemList)',
      true,
    ],
  ]),
])
