// Objects and collections (dt_object.md, dt_collection.md): by reference, members never what
// JavaScript inherits, collections grow with nulls, Undefined clears a property by its type.
var $o; $p : Object
var $c : Collection
$r:=[]
$o:={name: "Smith"; age: 42; "a b": True}
$p:=$o
$p.age:=43
$r.push($o.age)  // 43: the same object
$r.push($o["a b"])
$o.address:={city: "Paris"}
$o.address.zip:="75001"
$r.push($o.address)
$r.push(Value type($o.missing)=Is undefined)
$r.push(Value type($o.missing.deeper)=Is undefined)  // Undefined too
$r.push(Value type($o.constructor)=Is undefined)  // a name like any other
$r.push(Value type($o.__proto__)=Is undefined)
$o.constructor:="c"
$o.__proto__:="p"
$r.push(JSON Stringify($o))
$c:=[1; 2]
$c[4]:="e"
$r.push($c)  // [1,2,null,null,"e"]
$r.push($c[10])  // Undefined
$r.push($c.length)
$o.name:=$undefined  // clears by type: ""
$o.age:=$undefined  // 0
$o.gone:=$undefined  // does nothing
$r.push($o)
$r.push($c=$c)
$r.push([1]=[1])  // two collections: by reference
$r.push(Null.length)  // 0
return $r
