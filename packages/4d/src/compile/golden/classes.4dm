// Classes (classes.md): constructor, Super, properties with a value, computed properties,
// functions and This, singletons.
$r:=[]
$sq:=cs.Square.new(3)
$r.push($sq.describe())
$r.push($sq.area)  // the getter
$sq.area:=10  // the setter
$r.push([$sq.width; $sq.height])
$r.push($sq)  // its own properties only
$r.push(cs.Square.name)
$r.push(cs.Square.superclass.name)
$r.push(cs.Polygon.superclass)
$r.push(cs.Empty.new())
$r.push(cs.Child.new("from the parent's constructor").label)
$r.push(cs.Counter.me.next())
$r.push(cs.Counter.me.next())  // the same instance
$r.push(cs.Counter.isSingleton)
$r.push(Try($sq.noSuchFunction()))
$r.push(Last errors[0].errCode)
Try
	$ro:=cs.ReadOnly.new()
	$ro.value:=2  // a computed property without a setter
Catch
	$r.push(Last errors[0].errCode)
End try
return $r
// ---- class Polygon
property name : Text := "polygon"
property width; height : Integer

Class constructor($width : Integer; $height : Integer)
	This.width:=$width
	This.height:=$height

Function get area() : Integer
	return This.width*This.height

Function set area($area : Integer)
	This.width:=$area
	This.height:=1

Function describe() : Text
	return This.name+" of "+String(This.area)
// ---- class Square
Class extends Polygon

Class constructor($side : Integer)
	Super($side; $side)
	This.name:="square"

Function describe() : Text
	return "a "+Super.describe()
// ---- class Empty
// ---- class Parent
Class constructor($label : Text)
	This.label:=$label
// ---- class Child
Class extends Parent
// ---- class Counter
singleton Class constructor()
	This.count:=0

Function next() : Integer
	This.count+=1
	return This.count
// ---- class ReadOnly
Function get value() : Integer
	return 1
