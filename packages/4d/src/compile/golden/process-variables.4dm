// Process variables (no $): shared by the methods of the run; a bare name is a method when one
// has that name.
var gTotal : Integer
gTotal:=1.6  // an Integer: 2
add_to_total(3)
$r:=[gTotal; helper; vUntyped]
vUntyped:="text"
$r.push(vUntyped)
<>shared:=5
$r.push(<>shared)
return $r
// ---- method add_to_total
#DECLARE($n : Integer)
gTotal:=gTotal+$n
// ---- method helper
return "the method helper"
