// Reading a property of Null gives Undefined (dt_object.md: "$o.a is undefined (no error)");
// assigning one is an error, raised at its line.
var $o : Object
$a:=$o.name
$o.name:="x"
return "never"
