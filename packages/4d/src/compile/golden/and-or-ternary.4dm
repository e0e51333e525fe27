// && and || return the operand that decides, by truthiness (0 truthy, "" [] {} falsy); the
// right side is not evaluated when the left decides; ? : by truthiness (operators.md).
var $o : Object
$r:=[]
$r.push(0 || "zero is truthy")
$r.push("" || "empty text is falsy")
$r.push([] || "empty collection is falsy")
$r.push({} || "empty object is falsy")
$r.push("a" && "b")
$r.push(Null && $o.x)  // $o.x (an error) is not evaluated
$r.push(True || $o.x)
$r.push($undefined || "fallback")
$r.push(0 ? "yes" : "no")
$r.push("" ? "yes" : "no")
$r.push((1>2) | (2>1))
$r.push((1>2) & (2>1))
return $r
