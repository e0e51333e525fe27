// A variable declared Integer keeps a 32-bit long: a real assigned to it is rounded half to even
// (the rule that makes both Mod(3.5;2)=0 and 10.5%2=0), a long past 2^31 wraps.
var $i : Integer
var $r : Collection
$r:=[]
$i:=2.5
$r.push($i)  // 2
$i:=3.5
$r.push($i)  // 4
$i:=-2.5
$r.push($i)  // -2
$i:=2147483647
$i:=$i+1
$r.push($i)  // -2147483648
$i:=7
$i:=$i/2
$r.push($i)  // 3.5 rounds to 4
$i:=10
$i+=0.7
$r.push($i)  // 10.7 rounds to 11
$i:=?00:01:00?
$r.push($i)  // a Time gives its seconds: 60
var $real : Real
$real:=7
$real:=$real/2
$r.push($real)  // 3.5
return $r
