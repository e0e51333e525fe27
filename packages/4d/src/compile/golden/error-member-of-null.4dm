// A property of Null is an error (dt_null_undefined.md), raised at its line.
var $o : Object
$a:=1
$b:=$o.name
return "never"
